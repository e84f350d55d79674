package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Metrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KafkaMetricsCollectorTest {

    private final Metrics metrics = new Metrics();
    /** Kafka's {@code Metrics} counts its own metrics in group {@code kafka-metrics-count}: left out here. */
    private final KafkaMetricsCollector collector =
            new KafkaMetricsCollector(() -> metrics.metrics().entrySet().stream()
                    .filter(e -> !e.getKey().group().equals("kafka-metrics-count"))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));

    @AfterEach
    void close() {
        metrics.close();
    }

    private void gauge(String name, String group, Map<String, String> tags, Object value) {
        metrics.addMetric(metrics.metricName(name, group, "the " + name, tags), (Gauge<Object>) (cfg, now) -> value);
    }

    private String text() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, collector.collect());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldExportEpochLatencyQuantilesAsOneSummaryPerLatencyWhenRtmEpochMetricsAreRegistered() throws Exception {
        Map<String, String> t1 = Map.of("thread-id", "t-1");
        gauge("e2eLatencyMs-p50", EpochRuntime.METRIC_GROUP, t1, 12L);
        gauge("e2eLatencyMs-p99", EpochRuntime.METRIC_GROUP, t1, 140L);
        gauge("e2eLatencyMs-max", EpochRuntime.METRIC_GROUP, t1, 150L);
        gauge("processingLatencyMs-p90", EpochRuntime.METRIC_GROUP, Map.of("thread-id", "t-2"), 3L);
        gauge("sourceQueuingLatencyMs-p95", EpochRuntime.METRIC_GROUP, t1, 7L);

        MetricSnapshots snapshots = collector.collect();

        assertThat(snapshots.stream().map(s -> s.getMetadata().getPrometheusName()))
                .containsExactly("rtm_e2e_latency_ms", "rtm_processing_latency_ms", "rtm_source_queuing_latency_ms");
        assertThat(snapshots.get(0)).isInstanceOf(SummarySnapshot.class);
        assertThat(text())
                .contains("# TYPE rtm_e2e_latency_ms summary\n")
                .contains("rtm_e2e_latency_ms{thread_id=\"t-1\",quantile=\"0.5\"} 12.0\n")
                .contains("rtm_e2e_latency_ms{thread_id=\"t-1\",quantile=\"0.99\"} 140.0\n")
                .contains("rtm_e2e_latency_ms{thread_id=\"t-1\",quantile=\"1.0\"} 150.0\n")
                .contains("rtm_processing_latency_ms{thread_id=\"t-2\",quantile=\"0.9\"} 3.0\n")
                .contains("rtm_source_queuing_latency_ms{thread_id=\"t-1\",quantile=\"0.95\"} 7.0\n");
    }

    @Test
    void shouldExportOtherMetricsAsGaugesNamedByGroupAndNameWhenTheyAreNumeric() throws Exception {
        gauge("input-rows-total", EpochRuntime.METRIC_GROUP, Map.of("thread-id", "t-1"), 42L);
        gauge("e2eLatencyMs-mean", EpochRuntime.METRIC_GROUP, Map.of("thread-id", "t-1"), 5.0);
        gauge("process-ratio", "stream-thread-metrics", Map.of("thread-id", "t-1"), 0.25);
        gauge(
                "numRegisteredTimers",
                "stream-rtm-processor-metrics",
                Map.of("rtm-processor-id", "corr", "task-id", "0_1"),
                3);

        MetricSnapshots snapshots = collector.collect();

        assertThat(snapshots.stream().allMatch(s -> s instanceof GaugeSnapshot)).isTrue();
        assertThat(text())
                .contains("# TYPE rtm_input_rows_total gauge\n")
                .contains("rtm_input_rows_total{thread_id=\"t-1\"} 42.0\n")
                .contains("rtm_e2eLatencyMs_mean{thread_id=\"t-1\"} 5.0\n")
                .contains("# HELP kafka_streams_stream_thread_metrics_process_ratio the process-ratio\n")
                .contains("# TYPE kafka_streams_stream_thread_metrics_process_ratio gauge\n")
                .contains("kafka_streams_stream_thread_metrics_process_ratio{thread_id=\"t-1\"} 0.25\n")
                .contains("kafka_streams_stream_rtm_processor_metrics_numRegisteredTimers"
                        + "{rtm_processor_id=\"corr\",task_id=\"0_1\"} 3.0\n");
    }

    @Test
    void shouldLeaveOutMetricsWhenTheirValueIsNotAFiniteNumber() throws Exception {
        gauge("version", "stream-metrics", Map.of(), "4.4.0");
        gauge("rate", "stream-metrics", Map.of(), Double.NaN);
        gauge("max", "stream-metrics", Map.of(), Double.POSITIVE_INFINITY);
        gauge("alive-stream-threads", "stream-metrics", Map.of("client-id", "c\"1"), 2);

        assertThat(text())
                .isEqualTo("# HELP kafka_streams_stream_metrics_alive_stream_threads the alive-stream-threads\n"
                        + "# TYPE kafka_streams_stream_metrics_alive_stream_threads gauge\n"
                        + "kafka_streams_stream_metrics_alive_stream_threads{client_id=\"c\\\"1\"} 2.0\n");
    }

    @Test
    void shouldKeepTheFirstMetricWhenTwoSanitizeToTheSameFamilyAndLabels() {
        gauge("a-b", "g", Map.of("k", "v"), 1);
        gauge("a.b", "g", Map.of("k", "v"), 2);

        MetricSnapshots snapshots = collector.collect();

        assertThat(snapshots.size()).isEqualTo(1);
        assertThat(snapshots.get(0).getDataPoints()).hasSize(1);
    }

    @Test
    void shouldReplaceCharactersOutsideTheNameAlphabetWhenSanitizing() {
        assertThat(KafkaMetricsCollector.sanitize("stream-thread-metrics")).isEqualTo("stream_thread_metrics");
        assertThat(KafkaMetricsCollector.sanitize("1x.é")).isEqualTo("_1x__");
        assertThat(KafkaMetricsCollector.sanitize("")).isEqualTo("_");
    }
}
