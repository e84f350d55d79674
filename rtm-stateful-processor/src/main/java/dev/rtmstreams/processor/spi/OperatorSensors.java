package dev.rtmstreams.processor.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * The sensors of one operator task (or one input of it), registered through Kafka Streams' {@link StreamsMetrics}
 * so that they show in {@code KafkaStreams#metrics()}: every metric in one group with one set of tags, every sensor
 * named {@code sensorPrefix + name}, and all of them removed by {@link #close()}. Counters are sensors with a
 * {@link CumulativeCount}; gauges are sensors whose only stat measures a supplier when read (they are never recorded).
 *
 * <p>Every event-time operator counts the records it drops under the same metric names: {@value #LATE_RECORDS_TOTAL}
 * (at or below the watermark, {@link Watermarks#isLate}) and {@value #FUTURE_RECORDS_TOTAL} (rejected by the watermark
 * guard, {@code RtmProcessorConfig#tooFarAhead}), tagged with {@value #THREAD_ID_TAG} and {@value #TASK_ID_TAG} first
 * (as Kafka Streams' own task metrics) and the operator's own tags after them ({@link #taskTags}).
 *
 * <pre>{@code
 * OperatorSensors sensors = new OperatorSensors(
 *         context.metrics(), "my-op." + thread + "." + task + ".", "stream-my-op-metrics",
 *         OperatorSensors.taskTags(thread, task, "my-op-id", name), OperatorSensors.Registration.REPLACE_STALE);
 * Sensor late = sensors.counter("late", OperatorSensors.LATE_RECORDS_TOTAL, "records dropped as late");
 * ...
 * sensors.close(); // in Processor#close
 * }</pre>
 *
 * <p>Not thread-safe: register and close on the stream thread. Gauge suppliers are read by other threads (reporters,
 * {@code KafkaStreams#metrics()} callers) and must read only thread-safe values; a supplier that throws reads as NaN.
 */
@InterfaceStability.Unstable
public final class OperatorSensors {

    /** Counter: records dropped as late (event time at or below the watermark). */
    public static final String LATE_RECORDS_TOTAL = "late-records-total";
    /** Counter: records dropped by the watermark guard (event time too far ahead of the wall clock). */
    public static final String FUTURE_RECORDS_TOTAL = "future-records-total";
    /** Tag: stream thread name (as in Kafka Streams' own thread and task metrics). */
    public static final String THREAD_ID_TAG = "thread-id";
    /** Tag: Kafka Streams task id, e.g. {@code 0_1}. */
    public static final String TASK_ID_TAG = "task-id";

    /** What registering a sensor does when one of the same name is still registered (e.g. by an earlier task). */
    public enum Registration {
        /**
         * Remove it and register a new, empty one: no metric keeps reading (or counting for) a dead incarnation of
         * the task; a counter starts at zero again.
         */
        REPLACE_STALE,
        /** Use it as it is (Kafka's {@code Metrics#sensor}): its counts carry on, its metrics are not added twice. */
        REUSE_EXISTING
    }

    private final StreamsMetrics metrics;
    private final String sensorPrefix;
    private final String group;
    private final Map<String, String> tags;
    private final Registration registration;
    private final List<Sensor> sensors = new ArrayList<>();

    /**
     * @param metrics the task's metrics ({@code ProcessorContext#metrics()}); not null
     * @param sensorPrefix prepended to every sensor's name; sensor names are global to the Kafka Streams instance, so
     *     the prefix names the operator, thread and task (and input); not null
     * @param group the metrics' group; not null
     * @param tags the metrics' tags, in their order (e.g. {@link #taskTags}); used as given, so not modified after;
     *     not null
     * @param registration what to do with a sensor of the same name still registered; not null
     */
    public OperatorSensors(
            StreamsMetrics metrics,
            String sensorPrefix,
            String group,
            Map<String, String> tags,
            Registration registration) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.sensorPrefix = Objects.requireNonNull(sensorPrefix, "sensorPrefix");
        this.group = Objects.requireNonNull(group, "group");
        this.tags = Objects.requireNonNull(tags, "tags");
        this.registration = Objects.requireNonNull(registration, "registration");
    }

    /**
     * @param threadId the stream thread's name
     * @param taskId the task id
     * @param operatorTags the operator's own tags as name, value pairs (e.g. {@code "rtm-join-id", name, "side",
     *     "left"})
     * @return unmodifiable tags {@value #THREAD_ID_TAG}, {@value #TASK_ID_TAG}, then {@code operatorTags}, in that order
     * @throws IllegalArgumentException when {@code operatorTags} is not pairs
     */
    public static Map<String, String> taskTags(String threadId, String taskId, String... operatorTags) {
        if (operatorTags.length % 2 != 0) {
            throw new IllegalArgumentException(
                    "operatorTags must be name, value pairs: " + operatorTags.length + " strings");
        }
        Map<String, String> t = new LinkedHashMap<>();
        t.put(THREAD_ID_TAG, threadId);
        t.put(TASK_ID_TAG, taskId);
        for (int i = 0; i < operatorTags.length; i += 2) {
            t.put(operatorTags[i], operatorTags[i + 1]);
        }
        return Collections.unmodifiableMap(t);
    }

    /**
     * A counter of events: each {@code record()} adds one.
     *
     * @param sensorName the sensor's name after the prefix
     * @param metricName the metric's name, e.g. {@link #LATE_RECORDS_TOTAL}
     * @param description the metric's description
     * @return the sensor
     */
    public Sensor counter(String sensorName, String metricName, String description) {
        return register(sensorName, metricName, description, new CumulativeCount());
    }

    /**
     * A counter of amounts: each {@code record(n)} adds {@code n}.
     *
     * @param sensorName the sensor's name after the prefix
     * @param metricName the metric's name
     * @param description the metric's description
     * @return the sensor
     */
    public Sensor sum(String sensorName, String metricName, String description) {
        return register(sensorName, metricName, description, new CumulativeSum());
    }

    /**
     * A gauge: its value is computed by {@code value} whenever the metric is read; it is never recorded.
     *
     * @param sensorName the sensor's name after the prefix
     * @param metricName the metric's name
     * @param description the metric's description
     * @param value read by any thread; a {@link RuntimeException} (e.g. a closed store) reads as NaN
     * @return the sensor
     */
    public Sensor gauge(String sensorName, String metricName, String description, DoubleSupplier value) {
        return register(sensorName, metricName, description, new MeasurableStat() {
            @Override
            public void record(MetricConfig config, double v, long timeMs) {
                // a gauge is never recorded
            }

            @Override
            public double measure(MetricConfig config, long now) {
                try {
                    return value.getAsDouble();
                } catch (RuntimeException e) {
                    return Double.NaN; // e.g. store closed while a reporter reads
                }
            }
        });
    }

    /**
     * Adds a second metric to a sensor of this operator, e.g. a rate beside a count, or the same count under another
     * (Spark's) name; both are recorded together.
     *
     * @param sensor a sensor returned by this object
     * @param metricName the metric's name
     * @param description the metric's description
     * @param stat what the metric measures
     */
    public void also(Sensor sensor, String metricName, String description, MeasurableStat stat) {
        sensor.add(new MetricName(metricName, group, description, tags), stat);
    }

    /** Removes every sensor (and its metrics) registered through this object. */
    public void close() {
        for (Sensor s : sensors) {
            metrics.removeSensor(s);
        }
        sensors.clear();
    }

    private Sensor register(String sensorName, String metricName, String description, MeasurableStat stat) {
        String name = sensorPrefix + sensorName;
        Sensor s = metrics.addSensor(name, Sensor.RecordingLevel.INFO);
        if (registration == Registration.REPLACE_STALE && s.hasMetrics()) {
            metrics.removeSensor(s);
            s = metrics.addSensor(name, Sensor.RecordingLevel.INFO);
        }
        s.add(new MetricName(metricName, group, description, tags), stat);
        sensors.add(s);
        return s;
    }
}
