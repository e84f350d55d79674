package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

class SmokeTest {

    static final class Counter extends StatefulProcessor<String, String, String> {
        ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L);
            while (rows.hasNext()) {
                rows.next();
                n++;
            }
            count.update(n);
            getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + 1000);
            return List.of("count=" + n).iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            return List.of("timer=" + count.get()).iterator();
        }
    }

    @Test
    void shouldCountAndFireTimerWhenWallClockAdvances() {
        try (Harness<String, String> h = Harness.of(
                TransformWithState.of(Counter::new, TimeMode.PROCESSING_TIME), Serdes.String(), Serdes.String())) {
            h.pipe("a", "x");
            h.pipe("a", "y");
            assertThat(h.drain()).containsExactly(KeyValue.pair("a", "count=1"), KeyValue.pair("a", "count=2"));
            h.advance(Duration.ofMillis(1100));
            assertThat(h.drain()).containsExactly(KeyValue.pair("a", "timer=2"));
        }
    }
}
