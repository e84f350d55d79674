package dev.rtmstreams.tools;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The child program of {@link ChildJvmTest}: {@code health PORT DELAY_MS} serves {@code GET /health} (503 until
 * DELAY_MS has passed, then 200 with {@code {"state":"RUNNING"}}), {@code line TEXT DELAY_MS} prints TEXT after
 * DELAY_MS, {@code silent} prints nothing, {@code exit CODE} exits at once; all but {@code exit} then run until
 * stopped.
 */
public final class ChildJvmTestMain {

    private ChildJvmTestMain() {}

    /**
     * @param args the mode and its values
     * @throws Exception never expected
     */
    public static void main(String[] args) throws Exception {
        System.out.println("child starting: " + String.join(" ", args));
        System.out.println("env CHILD_JVM_TEST=" + System.getenv("CHILD_JVM_TEST"));
        switch (args[0]) {
            case "health": {
                long readyAt = System.nanoTime()
                        + Duration.ofMillis(Long.parseLong(args[2])).toNanos();
                HttpServer server = HttpServer.create(new InetSocketAddress(Integer.parseInt(args[1])), 0);
                server.createContext("/health", exchange -> {
                    boolean up = System.nanoTime() >= readyAt;
                    byte[] body = (up ? "{\"state\":\"RUNNING\"}" : "{\"state\":\"STARTING\"}")
                            .getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(up ? 200 : 503, body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
                server.start();
                break;
            }
            case "line":
                Thread.sleep(Long.parseLong(args[2]));
                System.out.print("partial ");
                System.out.flush();
                Thread.sleep(200);
                System.out.println(args[1]);
                break;
            case "silent":
                break;
            case "exit":
                System.exit(Integer.parseInt(args[1]));
                break;
            default:
                throw new IllegalArgumentException("unknown mode: " + args[0]);
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
