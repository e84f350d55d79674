package dev.rtmstreams.adattribution;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the service from its command line in a child JVM for the end-to-end tests: the shaded jar when it was
 * packaged ({@code adattribution.jar}, set by failsafe), else {@code java -cp <test classpath> ...Main}.
 */
final class ServiceLauncher {

    private ServiceLauncher() {}

    /** @return {@code java ... -jar adattribution-app.jar} or {@code java ... -cp ... Main}, to add arguments to */
    static List<String> javaCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = System.getProperty("adattribution.jar");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m"));
        if (jar != null && Files.isRegularFile(Path.of(jar))) {
            cmd.addAll(List.of("-jar", jar));
        } else {
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        }
        return cmd;
    }

    /**
     * Waits until {@code GET http://host:port/health} answers 200.
     *
     * @throws AssertionError with the log's tail when the service exits or is not healthy within 90 s
     */
    static void awaitHealthy(HttpClient http, String host, int port, Process service, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!service.isAlive()) {
                throw new AssertionError("service exited with " + service.exitValue() + ":\n" + tail(log));
            }
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/health"))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("service not healthy within 90 s:\n" + tail(log));
    }

    /** @return the last 60 lines of the log, or a note when it cannot be read */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(
                    File.separator.equals("/") ? "\n" : "\r\n",
                    lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
