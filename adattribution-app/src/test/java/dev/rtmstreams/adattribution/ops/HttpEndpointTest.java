package dev.rtmstreams.adattribution.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Collections;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpEndpointTest {

    /** Every interface, any free port: the service's default address. */
    private static final InetSocketAddress ANY_PORT = new InetSocketAddress(0);

    private final HttpClient client = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port, String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "RUNNING, 200",
        "REBALANCING, 200",
        "CREATED, 503",
        "PENDING_SHUTDOWN, 503",
        "ERROR, 503",
        "NOT_RUNNING, 503"
    })
    void shouldReportHealthFromKafkaStreamsStateWhenHealthIsRequested(String state, int status) throws Exception {
        try (HttpEndpoint endpoint = HttpEndpoint.start(ANY_PORT, () -> state, new PrometheusRegistry())) {
            HttpResponse<String> r = get(endpoint.port(), "/health");

            assertThat(r.statusCode()).isEqualTo(status);
            assertThat(r.body()).contains("\"state\":\"" + state + "\"");
        }
    }

    @Test
    void shouldServePrometheusTextAndFollowStateChangesWhenMetricsAreScraped() throws Exception {
        AtomicReference<String> state = new AtomicReference<>("REBALANCING");
        PrometheusRegistry registry = new PrometheusRegistry();
        CounterWithCallback.builder()
                .name("x_total")
                .help("help")
                .labelNames("source_topic")
                .callback(cb -> cb.call(3, "ad-\"clicks\""))
                .register(registry);
        try (HttpEndpoint endpoint = HttpEndpoint.start(ANY_PORT, state::get, registry)) {
            HttpResponse<String> metrics = get(endpoint.port(), "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain; version=0.0.4"));
            assertThat(metrics.body())
                    .isEqualTo(
                            "# HELP x_total help\n# TYPE x_total counter\nx_total{source_topic=\"ad-\\\"clicks\\\"\"} 3.0\n");

            state.set("ERROR");
            assertThat(get(endpoint.port(), "/health").statusCode()).isEqualTo(503);
            assertThat(get(endpoint.port(), "/nope").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void shouldRouteStateRequestsWithDecodedOperatorAndKeyAndAnswerBadPathsWith400() throws Exception {
        StateLookup lookup = (operator, key) -> operator.equals("corr")
                ? new StateLookup.Response(200, "{\"key\":\"" + key + "\"}\n")
                : new StateLookup.Response(404, "unknown operator " + operator + "\n");
        try (HttpEndpoint endpoint = HttpEndpoint.start(ANY_PORT, () -> "RUNNING", new PrometheusRegistry(), lookup)) {
            HttpResponse<String> ok = get(endpoint.port(), "/state/corr/tx%2F1%20a");
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(ok.body()).isEqualTo("{\"key\":\"tx/1 a\"}\n");
            assertThat(get(endpoint.port(), "/state/other/k").statusCode()).isEqualTo(404);
            assertThat(get(endpoint.port(), "/state/corr").statusCode()).isEqualTo(400);
            assertThat(get(endpoint.port(), "/state/corr/").statusCode()).isEqualTo(400);
        }
        try (HttpEndpoint endpoint = HttpEndpoint.start(ANY_PORT, () -> "RUNNING", new PrometheusRegistry())) {
            assertThat(get(endpoint.port(), "/state/corr/k").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void shouldListenOnlyOnTheBindAddressWhenOneIsGiven() throws Exception {
        InetAddress other = nonLoopbackAddress().orElse(null);
        Assumptions.assumeTrue(other != null, "this host has no non-loopback IPv4 address to compare with");
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (HttpEndpoint endpoint =
                HttpEndpoint.start(new InetSocketAddress(loopback, 0), () -> "RUNNING", new PrometheusRegistry())) {
            assertThat(endpoint.address().getAddress()).isEqualTo(loopback);
            assertThat(get(endpoint.port(), "/health").statusCode()).isEqualTo(200);
            assertThat(accepts(other, endpoint.port()))
                    .as("reachable on %s", other)
                    .isFalse();
        }
        try (HttpEndpoint endpoint = HttpEndpoint.start(ANY_PORT, () -> "RUNNING", new PrometheusRegistry())) {
            assertThat(accepts(other, endpoint.port()))
                    .as("reachable on %s", other)
                    .isTrue();
        }
    }

    private static boolean accepts(InetAddress address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return Optional.of(a);
                }
            }
        }
        return Optional.empty();
    }
}
