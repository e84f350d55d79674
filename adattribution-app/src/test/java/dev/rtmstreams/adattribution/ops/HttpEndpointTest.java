package dev.rtmstreams.adattribution.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpEndpointTest {

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
        try (HttpEndpoint endpoint = HttpEndpoint.start(0, () -> state, new PrometheusRegistry())) {
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
        try (HttpEndpoint endpoint = HttpEndpoint.start(0, state::get, registry)) {
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
        try (HttpEndpoint endpoint = HttpEndpoint.start(0, () -> "RUNNING", new PrometheusRegistry(), lookup)) {
            HttpResponse<String> ok = get(endpoint.port(), "/state/corr/tx%2F1%20a");
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(ok.body()).isEqualTo("{\"key\":\"tx/1 a\"}\n");
            assertThat(get(endpoint.port(), "/state/other/k").statusCode()).isEqualTo(404);
            assertThat(get(endpoint.port(), "/state/corr").statusCode()).isEqualTo(400);
            assertThat(get(endpoint.port(), "/state/corr/").statusCode()).isEqualTo(400);
        }
        try (HttpEndpoint endpoint = HttpEndpoint.start(0, () -> "RUNNING", new PrometheusRegistry())) {
            assertThat(get(endpoint.port(), "/state/corr/k").statusCode()).isEqualTo(404);
        }
    }
}
