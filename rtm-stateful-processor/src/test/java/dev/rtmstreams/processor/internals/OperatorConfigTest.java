package dev.rtmstreams.processor.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.TimeMode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorConfigTest {

    private static OperatorSpec<String, String, String> spec(Duration resolution) {
        return new OperatorSpec<>(
                "op",
                "op-state",
                () -> null,
                TimeMode.NONE,
                null,
                null,
                null,
                (k, v, ts) -> ts,
                Duration.ofMillis(7),
                null,
                null,
                resolution,
                null,
                new RuntimeRegistry());
    }

    @Test
    void shouldTakeTheBuilderThenTheAppConfigThenTheDefault() {
        OperatorConfig c = OperatorConfig.resolve(
                spec(Duration.ofMillis(20)),
                Map.of(
                        RtmProcessorConfig.TIMER_RESOLUTION_MS_CONFIG,
                        "50",
                        RtmProcessorConfig.EXECUTION_MODE_CONFIG,
                        RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH,
                        RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG,
                        250));
        assertThat(c.timerResolutionMs()).isEqualTo(20);
        assertThat(c.executionMode()).isEqualTo(ExecutionMode.MICRO_BATCH);
        assertThat(c.microBatchIntervalMs()).isEqualTo(250);
        assertThat(c.ttlCleanupBatch()).isEqualTo(RtmProcessorConfig.DEFAULT_TTL_CLEANUP_BATCH);
        assertThat(c.watermarkDelayMs()).isEqualTo(7);
        assertThat(c.commitIntervalMs()).isEqualTo(30_000);
        assertThat(c.maxEventTimeSkewMs()).isEqualTo(RtmProcessorConfig.DEFAULT_MAX_EVENT_TIME_SKEW_MS);
    }

    @Test
    void shouldNameTheOperatorAndTheBadValueWhenInvalid() {
        assertThatThrownBy(() ->
                        OperatorConfig.resolve(spec(null), Map.of(RtmProcessorConfig.TIMER_RESOLUTION_MS_CONFIG, "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operator op")
                .hasMessageContaining("timerResolutionMs=0");
        assertThatThrownBy(() ->
                        OperatorConfig.resolve(spec(null), Map.of(RtmProcessorConfig.TTL_CLEANUP_BATCH_CONFIG, "many")))
                .hasMessageContaining(RtmProcessorConfig.TTL_CLEANUP_BATCH_CONFIG)
                .hasMessageContaining("many");
    }
}
