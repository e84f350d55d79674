package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MetricsSamplerTest {

    private static final String TEXT = String.join(
            "\n",
            "# HELP adattribution_slot_active_tasks Active tasks per slot (stream thread).",
            "# TYPE adattribution_slot_active_tasks gauge",
            "adattribution_slot_active_tasks{thread=\"t-1\"} 2",
            "adattribution_slot_active_tasks{thread=\"t-2\"} 1.0",
            "kafka_stream_state_estimate_num_keys{store=\"a\",task=\"0_0\"} 1500",
            "kafka_stream_state_estimate_num_keys{store=\"b\",task=\"0_1\"} NaN",
            "kafka_stream_state_size_all_mem_tables{store=\"a\"} 4096",
            "");

    @Test
    void shouldSumEverySampleOfTheFamilyWhenLabelsDiffer() {
        assertThat(MetricsSampler.sum(TEXT, "adattribution_slot_active_tasks")).isEqualTo(3.0);
    }

    @Test
    void shouldSkipNotANumberWhenSumming() {
        assertThat(MetricsSampler.sum(TEXT, "kafka_stream_state_estimate_num_keys"))
                .isEqualTo(1500.0);
    }

    @Test
    void shouldNotMatchALongerNameWhenAFamilyEndsWithTheName() {
        assertThat(MetricsSampler.sum(TEXT, "size_all_mem_tables")).isEqualTo(-1.0);
        assertThat(MetricsSampler.max(TEXT, "adattribution_slot_active_tasks")).isEqualTo(2.0);
    }

    @Test
    void shouldReturnMinusOneWhenNoMetricMatches() {
        assertThat(MetricsSampler.sum(TEXT, "block_cache_usage")).isEqualTo(-1.0);
    }
}
