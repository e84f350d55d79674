package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scrapes the official client's HTTP server as Prometheus would; the application is built, not started. */
class PrometheusEndpointTest {

    @TempDir
    Path stateDir;

    private final HttpClient client = HttpClient.newHttpClient();
    private RtmStreams rtm;

    @BeforeEach
    void build() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "prometheus-endpoint-app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        rtm = RtmStreams.builder(SlotAccountingTest.seedTopologyWithExplicitShuffle(), p)
                .build();
    }

    @AfterEach
    void close() {
        rtm.close(Duration.ofSeconds(10));
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldServeKafkaStreamsMetricsAndHealthWhenTheHttpServerIsScraped() throws Exception {
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(rtm, new InetSocketAddress("localhost", 0))) {
            HttpResponse<String> metrics = get(endpoint.port(), "/metrics");

            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain; version=0.0.4"));
            assertThat(metrics.body())
                    .contains("# TYPE kafka_streams_stream_metrics_alive_stream_threads gauge\n")
                    .containsPattern(
                            "(?m)^kafka_streams_stream_metrics_alive_stream_threads\\{client_id=\"[^\"]+\"} 1");
            assertThat(endpoint.scrape()).contains("kafka_streams_stream_metrics_alive_stream_threads");

            HttpResponse<String> health = get(endpoint.port(), "/health");
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(health.body()).isEqualTo("{\"status\":\"DOWN\",\"state\":\"CREATED\"}\n");
            assertThat(get(endpoint.port(), "/nope").statusCode()).isEqualTo(404);
        }
    }
}
