package dev.rtmstreams.adattribution.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's operations endpoint on the JDK's HTTP server:
 * <ul>
 *   <li>{@code GET /health}: {@code {"status":"UP","state":"RUNNING"}} with 200 while Kafka Streams
 *       is RUNNING or REBALANCING, 503 with the state otherwise.</li>
 *   <li>{@code GET /metrics}: Prometheus text exposition format 0.0.4.</li>
 *   <li>{@code GET /state/{operator}/{key}}: the state of one key of a transformWithState operator as one JSON
 *       line (see {@link StateLookup}); 404 when the operator is unknown or the key has no state here.</li>
 * </ul>
 */
public final class HttpEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);
    /** Kafka Streams states reported healthy. */
    public static final Set<String> HEALTHY_STATES = Set.of("RUNNING", "REBALANCING");

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts the endpoint.
     *
     * @param port the port; 0 = any free port
     * @param state supplies the Kafka Streams state name
     * @param metrics supplies the Prometheus text
     * @return the running endpoint
     * @throws IOException when the port cannot be bound
     */
    public static HttpEndpoint start(int port, Supplier<String> state, Supplier<String> metrics) throws IOException {
        return start(port, state, metrics, (operator, key) -> new StateLookup.Response(404, "no readable operators\n"));
    }

    /**
     * Starts the endpoint with {@code GET /state/{operator}/{key}} answered by {@code states}.
     *
     * @param port the port; 0 = any free port
     * @param state supplies the Kafka Streams state name
     * @param metrics supplies the Prometheus text
     * @param states reads operator state
     * @return the running endpoint
     * @throws IOException when the port cannot be bound
     */
    public static HttpEndpoint start(int port, Supplier<String> state, Supplier<String> metrics, StateLookup states)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 16);
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "adattribution-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/health", exchange -> {
            String s = state.get();
            boolean up = HEALTHY_STATES.contains(s);
            respond(
                    exchange,
                    up ? 200 : 503,
                    "application/json",
                    "{\"status\":\"" + (up ? "UP" : "DOWN") + "\",\"state\":\"" + s + "\"}\n");
        });
        server.createContext("/metrics", exchange -> {
            String body;
            try {
                body = metrics.get();
            } catch (RuntimeException e) {
                LOG.warn("event=metrics-failed error={}", e.toString(), e);
                respond(exchange, 500, "text/plain; charset=utf-8", "metrics failed: " + e + "\n");
                return;
            }
            respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", body);
        });
        server.createContext("/state/", exchange -> {
            String[] parts = exchange.getRequestURI().getRawPath().split("/", 4);
            if (parts.length < 4 || parts[2].isEmpty() || parts[3].isEmpty()) {
                respond(exchange, 400, "text/plain; charset=utf-8", "use /state/{operator}/{key}\n");
                return;
            }
            StateLookup.Response r;
            try {
                r = states.lookup(
                        java.net.URLDecoder.decode(parts[2], StandardCharsets.UTF_8),
                        java.net.URLDecoder.decode(parts[3], StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                LOG.warn("event=state-query-failed error={}", e.toString(), e);
                respond(exchange, 503, "text/plain; charset=utf-8", "state query failed: " + e.getMessage() + "\n");
                return;
            }
            respond(
                    exchange,
                    r.status(),
                    r.status() == 200 ? "application/json" : "text/plain; charset=utf-8",
                    r.body());
        });
        server.createContext(
                "/",
                exchange -> respond(
                        exchange,
                        404,
                        "text/plain; charset=utf-8",
                        "not found; try /health, /metrics or /state/{operator}/{key}\n"));
        server.start();
        LOG.info("event=http-started port={}", server.getAddress().getPort());
        return new HttpEndpoint(server, executor);
    }

    /** @return the bound port */
    public int port() {
        return server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        if ("HEAD".equals(exchange.getRequestMethod())) {
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
            return;
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(bytes);
        }
    }

    /** Stops the server at once (exchanges are short). */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
