package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusSamplesTest {

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
        assertThat(PrometheusSamples.sum(TEXT, "adattribution_slot_active_tasks"))
                .isEqualTo(3.0);
    }

    @Test
    void shouldSkipNotANumberWhenSumming() {
        assertThat(PrometheusSamples.sum(TEXT, "kafka_stream_state_estimate_num_keys"))
                .isEqualTo(1500.0);
    }

    @Test
    void shouldNotMatchALongerNameWhenAFamilyEndsWithTheName() {
        assertThat(PrometheusSamples.sum(TEXT, "size_all_mem_tables")).isEqualTo(-1.0);
        assertThat(PrometheusSamples.max(TEXT, "adattribution_slot_active_tasks"))
                .isEqualTo(2.0);
    }

    @Test
    void shouldReturnMinusOneWhenNoMetricMatches() {
        assertThat(PrometheusSamples.sum(TEXT, "block_cache_usage")).isEqualTo(-1.0);
    }

    @Test
    void shouldListSampleLinesButNoCommentsWhenAPrefixIsGiven() {
        assertThat(PrometheusSamples.lines(TEXT, "adattribution_slot_"))
                .containsExactly(
                        "adattribution_slot_active_tasks{thread=\"t-1\"} 2",
                        "adattribution_slot_active_tasks{thread=\"t-2\"} 1.0");
        assertThat(PrometheusSamples.lines(null, "adattribution_slot_")).isEmpty();
    }
}
