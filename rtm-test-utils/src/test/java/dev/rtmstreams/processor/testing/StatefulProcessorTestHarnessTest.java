package dev.rtmstreams.processor.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

class StatefulProcessorTestHarnessTest {

    /** Counts rows per key; emits the count per row; a timer 10 s after the first row emits "done:<count>". */
    static final class CountWithTimeout extends StatefulProcessor<String, String, String> {
        private ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.NONE);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            long c = count.getOption().orElse(0L);
            if (c == 0) {
                getHandle()
                        .registerTimer((tv.getCurrentWatermarkInMs() > 0
                                        ? tv.getCurrentWatermarkInMs()
                                        : tv.getCurrentProcessingTimeInMs())
                                + 10_000);
            }
            while (rows.hasNext()) {
                rows.next();
                c++;
            }
            count.update(c);
            return List.of("count:" + c).iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo info) {
            long c = count.get();
            count.clear();
            return List.of("done:" + c).iterator();
        }
    }

    @Test
    void shouldFireProcessingTimeTimerAndListPendingTimersWhenTimeAdvances() {
        TransformWithState<String, String, String> tws =
                TransformWithState.of(CountWithTimeout::new, TimeMode.PROCESSING_TIME);
        try (StatefulProcessorTestHarness<String, String, String> h =
                StatefulProcessorTestHarness.of(tws, Serdes.String(), Serdes.String(), Serdes.String())) {
            long t0 = h.processingTimeMs();
            h.input("u1", "click");
            h.input("u1", "click");
            assertThat(h.readOutput()).containsExactly(KeyValue.pair("u1", "count:1"), KeyValue.pair("u1", "count:2"));
            assertThat(h.pendingTimers("u1")).containsExactly(t0 + 10_000);
            assertThat(h.pendingTimers("u2")).isEmpty();
            h.advanceProcessingTime(Duration.ofMillis(9_900));
            assertThat(h.readOutput()).isEmpty();
            h.advanceProcessingTime(
                    Duration.ofMillis(100)); // now = the timer's time: due (timer time <= now, as Spark)
            assertThat(h.readOutput()).containsExactly(KeyValue.pair("u1", "done:2"));
            assertThat(h.pendingTimers("u1")).isEmpty();
            assertThat(h.watermark()).isEmpty();
        }
    }

    @Test
    void shouldExposeWatermarkAndFireEventTimeTimerWhenEventTimeAdvances() {
        TransformWithState<String, String, String> tws = TransformWithState.builder(
                        CountWithTimeout::new, TimeMode.EVENT_TIME)
                .watermarkDelay(Duration.ofSeconds(1))
                .build();
        try (StatefulProcessorTestHarness<String, String, String> h =
                StatefulProcessorTestHarness.of(tws, Serdes.String(), Serdes.String(), Serdes.String())) {
            h.input("u1", "click", 5_000); // first call sees watermark 0: timer at processing-time based
            h.input("u2", "click", 20_000); // watermark 19 000
            assertThat(h.watermark()).isEqualTo(OptionalLong.of(19_000));
            h.input("u3", "click", 21_000); // the call sees watermark 19 000: timer at 29 000
            assertThat(h.pendingTimers("u3")).containsExactly(29_000L);
            h.input("u3", "click", 31_500); // watermark 30 500: u3's timer fires
            assertThat(h.readOutput())
                    .extracting(kv -> kv.key + "=" + kv.value)
                    .containsSubsequence("u3=count:1", "u3=count:2", "u3=done:2");
            assertThat(h.pendingTimers("u3")).isEmpty();
        }
    }
}
