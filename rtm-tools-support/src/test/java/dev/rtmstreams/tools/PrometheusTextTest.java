package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String TEXT = String.join(
            "\n",
            "# HELP adattribution_slot_active_tasks Active tasks per slot (stream thread).",
            "# TYPE adattribution_slot_active_tasks gauge",
            "adattribution_slot_active_tasks{thread=\"app-1-StreamThread-1\"} 2.0",
            "adattribution_slot_active_tasks{thread=\"app-1-StreamThread-2\"} 1.0",
            "adattribution_slot_active_tasks_other{thread=\"x\"} 7.0",
            "kafka_streams_stream_task_metrics_process_total{task_id=\"0_1\",thread_id=\"app-1-StreamThread-2\"}"
                    + " 12.0 1700000000000",
            "kafka_streams_stream_task_metrics_process_total{thread_id=\"a \\\"q\\\" b\\\\c\",task_id=\"1_0\"} NaN",
            "adattribution_epochs_total 5",
            "",
            "broken{thread=\"x\" 1");

    @Test
    void shouldReadLabelsAndValuesOfExactlyTheNamedMetric() {
        List<PrometheusText.Sample> slots = PrometheusText.samples(TEXT, "adattribution_slot_active_tasks");

        assertThat(slots)
                .containsExactly(
                        new PrometheusText.Sample(
                                "adattribution_slot_active_tasks", Map.of("thread", "app-1-StreamThread-1"), 2.0),
                        new PrometheusText.Sample(
                                "adattribution_slot_active_tasks", Map.of("thread", "app-1-StreamThread-2"), 1.0));
        assertThat(PrometheusText.samples(TEXT, "adattribution_epochs_total"))
                .singleElement()
                .satisfies(s -> assertThat(s.labels()).isEmpty())
                .satisfies(s -> assertThat(s.value()).isEqualTo(5.0));
    }

    @Test
    void shouldUnescapeLabelValuesAndIgnoreTheTimestamp() {
        List<PrometheusText.Sample> tasks =
                PrometheusText.samples(TEXT, "kafka_streams_stream_task_metrics_process_total");

        assertThat(tasks).hasSize(2);
        assertThat(tasks.get(0).labels()).containsEntry("task_id", "0_1");
        assertThat(tasks.get(0).value()).isEqualTo(12.0);
        assertThat(tasks.get(1).labels())
                .containsEntry("thread_id", "a \"q\" b\\c")
                .containsEntry("task_id", "1_0");
        assertThat(tasks.get(1).value()).isNaN();
    }

    @Test
    void shouldSumFiniteValuesAndSayWhenThereIsNone() {
        assertThat(PrometheusText.sum(TEXT, "adattribution_slot_active_tasks")).isEqualTo(3.0);
        assertThat(PrometheusText.sum(TEXT, "kafka_streams_stream_task_metrics_process_total"))
                .isEqualTo(12.0);
        assertThat(PrometheusText.sum(TEXT, "missing")).isEqualTo(-1.0);
        assertThat(PrometheusText.sum(null, "adattribution_slot_active_tasks")).isEqualTo(-1.0);
        assertThat(PrometheusText.samples(TEXT, "broken")).isEmpty();
    }
}
