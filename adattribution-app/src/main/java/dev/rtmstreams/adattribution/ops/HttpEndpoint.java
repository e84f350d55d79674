package dev.rtmstreams.adattribution.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.rtmstreams.topology.PrometheusEndpoint;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's operations endpoint on the official Prometheus client's {@code HTTPServer}:
 * <ul>
 *   <li>{@code GET /health}: {@code {"status":"UP","state":"RUNNING"}} with 200 while Kafka Streams
 *       is RUNNING or REBALANCING, 503 with the state otherwise.</li>
 *   <li>{@code GET /metrics}: the registry in the Prometheus text exposition format 0.0.4 (or OpenMetrics or
 *       protobuf when the scraper asks for it).</li>
 *   <li>{@code GET /state/{operator}/{key}}: the state of one key of a transformWithState operator or of the join
 *       as one JSON line (see {@link StateLookup}); 404 when the operator is unknown or the key has no state
 *       here.</li>
 * </ul>
 * Any other path answers 404.
 */
public final class HttpEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);
    /** Kafka Streams states reported healthy. */
    public static final Set<String> HEALTHY_STATES = PrometheusEndpoint.HEALTHY_STATES;

    private final HTTPServer server;
    private final java.net.InetAddress bindAddress;

    private HttpEndpoint(HTTPServer server, java.net.InetAddress bindAddress) {
        this.server = server;
        this.bindAddress = bindAddress;
    }

    /**
     * Starts the endpoint.
     *
     * @param address the address and port to listen on; port 0 = any free port, the wildcard address = every
     *     interface
     * @param state supplies the Kafka Streams state name
     * @param metrics the metrics served at {@code /metrics}
     * @return the running endpoint
     * @throws IOException when the address cannot be bound
     */
    public static HttpEndpoint start(InetSocketAddress address, Supplier<String> state, PrometheusRegistry metrics)
            throws IOException {
        return start(
                address, state, metrics, (operator, key) -> new StateLookup.Response(404, "no readable operators\n"));
    }

    /**
     * Starts the endpoint with {@code GET /state/{operator}/{key}} answered by {@code states}.
     *
     * @param address the address and port to listen on; port 0 = any free port, the wildcard address = every
     *     interface
     * @param state supplies the Kafka Streams state name
     * @param metrics the metrics served at {@code /metrics}
     * @param states reads operator state
     * @return the running endpoint
     * @throws IOException when the address cannot be bound
     */
    public static HttpEndpoint start(
            InetSocketAddress address, Supplier<String> state, PrometheusRegistry metrics, StateLookup states)
            throws IOException {
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "adattribution-http");
            t.setDaemon(true);
            return t;
        });
        HttpHandler health = PrometheusEndpoint.health(state);
        HTTPServer server;
        try {
            server = HTTPServer.builder(PrometheusProperties.builder().build())
                    .inetAddress(address.getAddress())
                    .port(address.getPort())
                    .registry(metrics)
                    .executorService(executor)
                    .registerHealthHandler(false)
                    .defaultHandler(exchange -> {
                        String path = exchange.getRequestURI().getRawPath();
                        if (path.equals("/health")) {
                            health.handle(exchange);
                        } else if (path.startsWith("/state/")) {
                            state(exchange, path, states);
                        } else {
                            PrometheusEndpoint.respond(
                                    exchange,
                                    404,
                                    "text/plain; charset=utf-8",
                                    "not found; try /health, /metrics or /state/{operator}/{key}\n");
                        }
                    })
                    .buildAndStart();
        } catch (IOException | RuntimeException e) {
            executor.shutdownNow();
            throw e;
        }
        LOG.info("event=http-started address={} port={}", address.getAddress().getHostAddress(), server.getPort());
        return new HttpEndpoint(server, address.getAddress());
    }

    private static void state(HttpExchange exchange, String path, StateLookup states) throws IOException {
        String[] parts = path.split("/", 4);
        if (parts.length < 4 || parts[2].isEmpty() || parts[3].isEmpty()) {
            PrometheusEndpoint.respond(exchange, 400, "text/plain; charset=utf-8", "use /state/{operator}/{key}\n");
            return;
        }
        StateLookup.Response r;
        try {
            r = states.lookup(
                    URLDecoder.decode(parts[2], StandardCharsets.UTF_8),
                    URLDecoder.decode(parts[3], StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            LOG.warn("event=state-query-failed error={}", e.toString(), e);
            PrometheusEndpoint.respond(
                    exchange, 503, "text/plain; charset=utf-8", "state query failed: " + e.getMessage() + "\n");
            return;
        }
        PrometheusEndpoint.respond(
                exchange, r.status(), r.status() == 200 ? "application/json" : "text/plain; charset=utf-8", r.body());
    }

    /** @return the bound port */
    public int port() {
        return server.getPort();
    }

    /** @return the address listened on, as given to {@code start} */
    public InetSocketAddress address() {
        return new InetSocketAddress(bindAddress, server.getPort());
    }

    /** Stops the server at once (exchanges are short) and its thread. */
    @Override
    public void close() {
        server.close();
    }
}
