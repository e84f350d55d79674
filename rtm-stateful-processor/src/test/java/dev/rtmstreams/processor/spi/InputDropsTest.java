package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.junit.jupiter.api.Test;

class InputDropsTest {

    @Test
    void shouldCountEachKindInItsOwnSensorMadeOnTheFirstDropWhenRecordsAreDropped() {
        try (Metrics metrics = new Metrics()) {
            AtomicInteger asked = new AtomicInteger();
            Sensor late = metrics.sensor("late");
            late.add(metrics.metricName("late-total", "g"), new CumulativeCount());
            Sensor future = metrics.sensor("future");
            future.add(metrics.metricName("future-total", "g"), new CumulativeCount());
            InputDrops drops = new InputDrops(
                    "operator op",
                    () -> {
                        asked.incrementAndGet();
                        return late;
                    },
                    () -> future);

            assertThat(asked).hasValue(0);
            drops.late(5, 10);
            drops.late(6, 10);
            drops.tooFarAhead(10_000, 1, 100);

            assertThat(asked).hasValue(1);
            assertThat(drops.droppedLate()).isEqualTo(2);
            assertThat(drops.droppedTooFarAhead()).isEqualTo(1);
            assertThat(metrics.metric(metrics.metricName("late-total", "g")).metricValue())
                    .isEqualTo(2.0);
            assertThat(metrics.metric(metrics.metricName("future-total", "g")).metricValue())
                    .isEqualTo(1.0);
        }
    }
}
