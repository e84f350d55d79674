package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

class OperatorSettingsTest {

    @Test
    void shouldTakeTheBuilderThenTheAppConfigThenTheDefault() {
        OperatorSettings s = OperatorSettings.resolve(
                "op",
                null,
                null,
                Duration.ofMillis(20),
                null,
                Map.of(
                        RtmProcessorConfig.TIMER_RESOLUTION_MS_CONFIG,
                        "50",
                        RtmProcessorConfig.EXECUTION_MODE_CONFIG,
                        RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH,
                        RtmProcessorConfig.WATERMARK_IDLE_TIMEOUT_MS_CONFIG,
                        300));

        assertThat(s.timerResolutionMs()).isEqualTo(20);
        assertThat(s.executionMode()).isEqualTo(ExecutionMode.MICRO_BATCH);
        assertThat(s.idleTimeoutMs()).isEqualTo(300);
        assertThat(s.microBatchIntervalMs()).isEqualTo(RtmProcessorConfig.DEFAULT_MICRO_BATCH_INTERVAL_MS);
        assertThat(s.maxEventTimeSkewMs()).isEqualTo(RtmProcessorConfig.DEFAULT_MAX_EVENT_TIME_SKEW_MS);
        assertThat(OperatorSettings.resolve(
                                "op",
                                ExecutionMode.REAL_TIME,
                                null,
                                null,
                                null,
                                Map.of(
                                        RtmProcessorConfig.EXECUTION_MODE_CONFIG,
                                        RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH))
                        .executionMode())
                .isEqualTo(ExecutionMode.REAL_TIME);
    }

    @Test
    void shouldNameTheOperatorAndTheBadValueWhenInvalid() {
        assertThatThrownBy(() -> OperatorSettings.resolve(
                        "orders-join",
                        null,
                        null,
                        null,
                        null,
                        Map.of(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG, "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operator orders-join")
                .hasMessageContaining("microBatchIntervalMs=0");
        assertThatThrownBy(() -> OperatorSettings.resolve("op", null, null, null, Duration.ofMillis(-1), Map.of()))
                .hasMessageContaining("idleTimeoutMs=-1");
    }

    @Test
    void shouldScheduleTheModesPunctuatorWhenInitialized() {
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        Punctuator realTime = now -> {};
        Punctuator microBatch = now -> {};

        new OperatorSettings(ExecutionMode.REAL_TIME, 250, 20, 0, 1_000).schedule(context, realTime, microBatch);
        new OperatorSettings(ExecutionMode.MICRO_BATCH, 250, 20, 0, 1_000).schedule(context, realTime, microBatch);
        Cancellable none =
                new OperatorSettings(ExecutionMode.MICRO_BATCH, 250, 20, 0, 1_000).schedule(context, realTime, null);

        assertThat(context.scheduledPunctuators())
                .extracting(MockProcessorContext.CapturedPunctuator::getInterval)
                .containsExactly(Duration.ofMillis(20), Duration.ofMillis(250));
        assertThat(context.scheduledPunctuators())
                .extracting(MockProcessorContext.CapturedPunctuator::getPunctuator)
                .containsExactly(realTime, microBatch);
        assertThat(none).isNull();
    }
}
