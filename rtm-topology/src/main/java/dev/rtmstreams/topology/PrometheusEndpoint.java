package dev.rtmstreams.topology;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.rtmstreams.topology.internals.KafkaMetricsCollector;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Serves an application's metrics to Prometheus through the official client ({@code io.prometheus:prometheus-metrics-*}):
 * every numeric Kafka Streams metric ({@code kafka_streams_<group>_<name>} with the metric tags as labels) plus the
 * rtm latency summaries {@code rtm_e2e_latency_ms}, {@code rtm_processing_latency_ms},
 * {@code rtm_source_queuing_latency_ms} (quantiles 0.5/0.9/0.95/0.99/1.0 of the latest checkpoint epoch per thread)
 * and the other {@code rtm-epoch-metrics} as {@code rtm_<name>} gauges ({@code rtm_epoch_total},
 * {@code rtm_input_rows_total}, {@code rtm_busy_fraction}). One {@link #collector collector} bridges them, read afresh
 * on every scrape.
 *
 * <p>{@link #start} the official {@code HTTPServer} with {@code GET /metrics} and {@code GET /health}, or register
 * {@link #collector(RtmStreams)} in a {@code PrometheusRegistry} of your own (next to your own metrics) and serve that:
 * <pre>{@code
 * PrometheusEndpoint endpoint = PrometheusEndpoint.start(rtm, new InetSocketAddress(9404)); // /metrics, /health
 * }</pre>
 */
@InterfaceStability.Evolving
public final class PrometheusEndpoint implements AutoCloseable {

    /** Kafka Streams states that {@link #health} reports as up. */
    public static final Set<String> HEALTHY_STATES = Set.of("RUNNING", "REBALANCING");

    private final PrometheusRegistry registry;
    private final HTTPServer server;

    private PrometheusEndpoint(PrometheusRegistry registry, HTTPServer server) {
        this.registry = registry;
        this.server = server;
    }

    /**
     * @param rtm the application whose {@link RtmStreams#metrics()} to export; not null
     * @return a collector of the official client that reads the application's metrics on every scrape, plus
     *     {@code rtm_info{rtm_version="...",kafka_streams_version="..."} 1} (the versions this process runs)
     */
    public static MultiCollector collector(RtmStreams rtm) {
        Objects.requireNonNull(rtm, "rtm");
        return KafkaMetricsCollector.withInfo(new KafkaMetricsCollector(rtm::metrics));
    }

    /** @return an endpoint that is not listening; use {@link #scrape()} */
    public static PrometheusEndpoint of(RtmStreams rtm) {
        return new PrometheusEndpoint(registryOf(rtm), null);
    }

    /**
     * Starts the official client's HTTP server with {@code GET /metrics} and {@code GET /health} (see
     * {@link #health}); any other path answers 404.
     *
     * @param rtm the application; not null
     * @param address where to listen (port 0 picks a free port, see {@link #port()})
     * @throws IOException when the port cannot be bound
     */
    public static PrometheusEndpoint start(RtmStreams rtm, InetSocketAddress address) throws IOException {
        PrometheusRegistry registry = registryOf(rtm);
        HttpHandler health = health(() -> rtm.state().name());
        HTTPServer server = HTTPServer.builder(PrometheusProperties.builder().build())
                .inetAddress(address.getAddress())
                .port(address.getPort())
                .registry(registry)
                .registerHealthHandler(false)
                .defaultHandler(exchange -> {
                    if ("/health".equals(exchange.getRequestURI().getPath())) {
                        health.handle(exchange);
                    } else {
                        respond(exchange, 404, "text/plain; charset=utf-8", "not found; try /health or /metrics\n");
                    }
                })
                .buildAndStart();
        return new PrometheusEndpoint(registry, server);
    }

    private static PrometheusRegistry registryOf(RtmStreams rtm) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(collector(rtm));
        return registry;
    }

    /**
     * A {@code /health} handler: 200 with {@code {"status":"UP","state":"RUNNING"}} while the state is one of
     * {@link #HEALTHY_STATES}, 503 with {@code "status":"DOWN"} and the state otherwise.
     *
     * @param state supplies the Kafka Streams state name on every request; not null
     * @return the handler
     */
    public static HttpHandler health(Supplier<String> state) {
        Objects.requireNonNull(state, "state");
        return exchange -> {
            String s = state.get();
            boolean up = HEALTHY_STATES.contains(s);
            respond(
                    exchange,
                    up ? 200 : 503,
                    "application/json",
                    "{\"status\":\"" + (up ? "UP" : "DOWN") + "\",\"state\":\"" + s + "\"}\n");
        };
    }

    /**
     * Answers an HTTP exchange with a complete body (none for {@code HEAD}) and closes it; for other routes served
     * beside {@code /metrics} and {@code /health} on the same server.
     *
     * @param exchange the exchange
     * @param status the HTTP status
     * @param contentType the {@code Content-Type} header
     * @param body the body, sent as UTF-8
     * @throws IOException if the client cannot be written to
     */
    public static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
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

    /** @return the current metrics in the Prometheus text format 0.0.4, as {@code GET /metrics} answers them */
    public String scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** @return the bound port, or -1 when not started with {@link #start} */
    public int port() {
        return server == null ? -1 : server.getPort();
    }

    /** Stops the HTTP server, if started. */
    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
