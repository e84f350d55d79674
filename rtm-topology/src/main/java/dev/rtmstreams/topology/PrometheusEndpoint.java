package dev.rtmstreams.topology;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.rtmstreams.topology.internals.PrometheusText;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Serves an application's metrics in the Prometheus text format (version 0.0.4): every numeric Kafka Streams metric
 * ({@code kafka_streams_<group>_<name>} with the metric tags as labels) plus the rtm latency summaries
 * {@code rtm_e2e_latency_ms}, {@code rtm_processing_latency_ms}, {@code rtm_source_queuing_latency_ms} (quantiles
 * 0.5/0.9/0.95/0.99/1.0 of the latest checkpoint epoch per thread) and {@code rtm_input_rows_total}.
 * <p>Mount {@link #handler()} on an existing {@code com.sun.net.httpserver.HttpServer}, or {@link #start} a small one:
 * <pre>{@code
 * PrometheusEndpoint endpoint = PrometheusEndpoint.start(rtm, new InetSocketAddress(9404)); // GET /metrics
 * }</pre>
 */
public final class PrometheusEndpoint implements AutoCloseable {

    private final RtmStreams rtm;
    private HttpServer server;

    private PrometheusEndpoint(RtmStreams rtm) {
        this.rtm = Objects.requireNonNull(rtm, "rtm");
    }

    /** @return an endpoint that is not listening; use {@link #handler()} or {@link #scrape()} */
    public static PrometheusEndpoint of(RtmStreams rtm) {
        return new PrometheusEndpoint(rtm);
    }

    /**
     * Starts an HTTP server serving {@code GET /metrics}.
     * @param address where to listen (port 0 picks a free port, see {@link #port()})
     * @throws IOException when the port cannot be bound
     */
    public static PrometheusEndpoint start(RtmStreams rtm, InetSocketAddress address) throws IOException {
        PrometheusEndpoint e = new PrometheusEndpoint(rtm);
        e.server = HttpServer.create(address, 0);
        e.server.createContext("/metrics", e.handler());
        e.server.start();
        return e;
    }

    /** @return the current metrics in the Prometheus text format */
    public String scrape() {
        return PrometheusText.render(rtm.metrics());
    }

    /** @return a handler answering any request with {@link #scrape()} */
    public HttpHandler handler() {
        return exchange -> {
            byte[] body = scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        };
    }

    /** @return the bound port, or -1 when not started with {@link #start} */
    public int port() {
        return server == null ? -1 : server.getAddress().getPort();
    }

    /** Stops the HTTP server, if started. */
    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
        }
    }
}
