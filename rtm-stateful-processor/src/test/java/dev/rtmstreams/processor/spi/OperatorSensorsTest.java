package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

class OperatorSensorsTest {

    private static final String GROUP = "test-group";

    private final StreamsMetrics metrics = new MockProcessorContext<>(props()).metrics();
    private final Map<String, String> tags = OperatorSensors.taskTags("t1", "0_1", "op-id", "op", "side", "left");

    @Test
    void shouldOrderTagsThreadTaskThenTheOperatorsWhenBuilt() {
        assertThat(tags.keySet()).containsExactly("thread-id", "task-id", "op-id", "side");
        assertThat(tags.values()).containsExactly("t1", "0_1", "op", "left");
        assertThatThrownBy(() -> OperatorSensors.taskTags("t1", "0_1", "op-id"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1");
    }

    @Test
    void shouldCountUnderTheNameGroupAndTagsWhenACounterIsRecorded() {
        OperatorSensors sensors = sensors(OperatorSensors.Registration.REPLACE_STALE);
        Sensor late = sensors.counter("late", OperatorSensors.LATE_RECORDS_TOTAL, "late rows");
        late.record();
        late.record();

        assertThat(value(OperatorSensors.LATE_RECORDS_TOTAL)).isEqualTo(2.0);
        assertThat(metric(OperatorSensors.LATE_RECORDS_TOTAL).metricName().description())
                .isEqualTo("late rows");
        assertThat(metric(OperatorSensors.LATE_RECORDS_TOTAL)
                        .metricName()
                        .tags()
                        .keySet())
                .containsExactly("thread-id", "task-id", "op-id", "side");
    }

    @Test
    void shouldSumAmountsAndRecordASecondMetricWhenOneIsAddedToTheSensor() {
        OperatorSensors sensors = sensors(OperatorSensors.Registration.REPLACE_STALE);
        Sensor removed = sensors.sum("removed", "removed-total", "removed");
        sensors.also(removed, "removedSpark", "removed, Spark's name", new CumulativeSum());
        removed.record(3);
        removed.record(4);

        assertThat(value("removed-total")).isEqualTo(7.0);
        assertThat(value("removedSpark")).isEqualTo(7.0);
    }

    @Test
    void shouldReadAGaugeWhenMeasuredAndNaNWhenItsSupplierThrows() {
        OperatorSensors sensors = sensors(OperatorSensors.Registration.REPLACE_STALE);
        long[] v = {5};
        sensors.gauge("g", "gauge", "a gauge", () -> v[0]);
        sensors.gauge("broken", "broken-gauge", "a broken gauge", () -> {
            throw new IllegalStateException("store closed");
        });
        assertThat(value("gauge")).isEqualTo(5.0);
        v[0] = 6;
        assertThat(value("gauge")).isEqualTo(6.0);
        assertThat(value("broken-gauge")).isNaN();
    }

    @Test
    void shouldStartAtZeroWhenReplacingAStaleSensorAndCarryOnWhenReusingIt() {
        sensors(OperatorSensors.Registration.REPLACE_STALE)
                .counter("c", "c-total", "c")
                .record();
        sensors(OperatorSensors.Registration.REUSE_EXISTING)
                .counter("c", "c-total", "c")
                .record();
        assertThat(value("c-total")).isEqualTo(2.0);

        sensors(OperatorSensors.Registration.REPLACE_STALE)
                .counter("c", "c-total", "c")
                .record();
        assertThat(value("c-total")).isEqualTo(1.0);
    }

    @Test
    void shouldRemoveEveryMetricWhenClosed() {
        OperatorSensors sensors = sensors(OperatorSensors.Registration.REPLACE_STALE);
        sensors.counter("a", "a-total", "a");
        sensors.counter("b", OperatorSensors.FUTURE_RECORDS_TOTAL, "b");
        assertThat(ours()).hasSize(2);

        sensors.close();

        assertThat(ours()).isEmpty();
    }

    private OperatorSensors sensors(OperatorSensors.Registration registration) {
        return new OperatorSensors(metrics, "test.t1.0_1.op.left.", GROUP, tags, registration);
    }

    private List<Metric> ours() {
        return metrics.metrics().values().stream()
                .filter(m -> m.metricName().group().equals(GROUP))
                .map(m -> (Metric) m)
                .toList();
    }

    private Metric metric(String name) {
        return metrics.metrics().get(new MetricName(name, GROUP, "", tags));
    }

    private double value(String name) {
        return (Double) metric(name).metricValue();
    }

    private static Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "operator-sensors-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        return p;
    }
}
