package dev.rtmstreams.processor;

import dev.rtmstreams.processor.spi.OperatorSensors;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Names of the metrics every {@link TransformWithState} operator registers per task through Kafka Streams'
 * {@code StreamsMetrics} (so they appear in {@code KafkaStreams#metrics()}, {@code TopologyTestDriver#metrics()}
 * and any configured metrics reporter), plus helpers to read them.
 *
 * <p>All metrics are in group {@value #GROUP} and carry the tags {@value #THREAD_ID_TAG} (the stream thread),
 * {@value #TASK_ID_TAG} (the Kafka Streams task) and {@value #PROCESSOR_ID_TAG} (the operator's
 * {@link TransformWithState#name() name}). They are registered when the operator's task initializes and removed
 * when it closes (e.g. when the task migrates away on rebalance). Recording level: {@code INFO}.
 *
 * <table>
 *   <caption>Metrics</caption>
 *   <tr><th>name</th><th>kind</th><th>meaning</th></tr>
 *   <tr><td>{@value #WATERMARK}</td><td>gauge</td><td>the task's event-time watermark in epoch ms; registered only
 *       in {@link TimeMode#EVENT_TIME}; {@code NaN} until the first watermark exists</td></tr>
 *   <tr><td>{@value #LATE_RECORDS_TOTAL}</td><td>cumulative count</td><td>records dropped because their event time
 *       was below the watermark</td></tr>
 *   <tr><td>{@value #NULL_KEY_RECORDS_TOTAL}</td><td>cumulative count</td><td>records dropped because their grouping
 *       key was {@code null} (input and initial-state records)</td></tr>
 *   <tr><td>{@value #TIMERS_FIRED_TOTAL}</td><td>cumulative count</td><td>timers passed to
 *       {@code handleExpiredTimer}</td></tr>
 *   <tr><td>{@value #TTL_EXPIRED_REMOVED_TOTAL}</td><td>cumulative count</td><td>expired state values, list elements
 *       and map entries physically removed by the TTL cleanup</td></tr>
 *   <tr><td>{@value #STORE_ENTRIES}</td><td>gauge</td><td>approximate number of entries in the operator's store
 *       (state rows plus timers, TTL index, micro-batch buffer and a few metadata entries; RocksDB's estimate, exact
 *       for the in-memory backend); {@code NaN} when the store cannot be read</td></tr>
 * </table>
 *
 * <p>Values are doubles (Kafka metrics); epoch-ms watermarks are exact in a double.
 */
@InterfaceStability.Evolving
public final class RtmProcessorMetrics {

    /** Metric group of all operator metrics. */
    public static final String GROUP = "stream-rtm-processor-metrics";
    /** Tag: stream thread name (as in Kafka Streams' own thread and task metrics). */
    public static final String THREAD_ID_TAG = OperatorSensors.THREAD_ID_TAG;
    /** Tag: Kafka Streams task id, e.g. {@code 0_1}. */
    public static final String TASK_ID_TAG = OperatorSensors.TASK_ID_TAG;
    /** Tag: the operator's name ({@link TransformWithState#name()}). */
    public static final String PROCESSOR_ID_TAG = "rtm-processor-id";

    /** Gauge: current event-time watermark of the task in epoch ms (event-time operators only). */
    public static final String WATERMARK = "watermark";
    /** Counter: records dropped as late (event time below the watermark). */
    public static final String LATE_RECORDS_TOTAL = OperatorSensors.LATE_RECORDS_TOTAL;
    /** Counter: records dropped because their grouping key was null. */
    public static final String NULL_KEY_RECORDS_TOTAL = "null-key-records-total";
    /** Counter: records dropped by the watermark guard (event time too far ahead of the wall clock). */
    public static final String FUTURE_RECORDS_TOTAL = OperatorSensors.FUTURE_RECORDS_TOTAL;
    /** Counter: timers fired ({@code handleExpiredTimer} calls). */
    public static final String TIMERS_FIRED_TOTAL = "timers-fired-total";
    /** Counter: expired values, list elements and map entries physically removed by TTL cleanup. */
    public static final String TTL_EXPIRED_REMOVED_TOTAL = "ttl-expired-removed-total";
    /** Gauge: approximate number of entries in the operator's state store. */
    public static final String STORE_ENTRIES = "state-store-entries";

    /**
     * Spark's transformWithState custom metrics ({@code StreamingQueryProgress.stateOperators[].customMetrics}),
     * registered per task under these exact names beside the metrics above. Counts of declared variables are gauges
     * (Spark counts one registration per partition and batch; here: per task, constant after {@code init}); the
     * others are cumulative counters (Spark resets them per batch: an epoch report gives their growth over the
     * epoch). {@code numValuesRemovedDueToTTLExpiry} and {@code numExpiredTimers} are also counted under
     * {@value #TTL_EXPIRED_REMOVED_TOTAL} and {@value #TIMERS_FIRED_TOTAL}.
     */
    public static final List<String> SPARK_CUSTOM_METRICS = List.of(
            "initialStateProcessingTimeMs",
            "numValueStateVars",
            "numListStateVars",
            "numMapStateVars",
            "numDeletedStateVars",
            "timerProcessingTimeMs",
            "numRegisteredTimers",
            "numDeletedTimers",
            "numExpiredTimers",
            "numValueStateWithTTLVars",
            "numListStateWithTTLVars",
            "numMapStateWithTTLVars",
            "numValuesRemovedDueToTTLExpiry");

    /** The gauges among {@link #SPARK_CUSTOM_METRICS}: levels, not counters. */
    public static final Set<String> SPARK_GAUGES = Set.of(
            "numValueStateVars",
            "numListStateVars",
            "numMapStateVars",
            "numDeletedStateVars",
            "numValueStateWithTTLVars",
            "numListStateWithTTLVars",
            "numMapStateWithTTLVars");

    private RtmProcessorMetrics() {}

    /**
     * Spark's custom metrics of every operator that runs on one stream thread, each summed over the thread's tasks.
     *
     * @param metrics e.g. {@code kafkaStreams.metrics()}; not null
     * @param threadId the stream thread's name; null for all threads
     * @return operator name to (Spark metric name to value), both sorted by name
     */
    public static Map<String, Map<String, Long>> sparkCustomMetrics(
            Map<MetricName, ? extends Metric> metrics, String threadId) {
        Objects.requireNonNull(metrics, "metrics");
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            MetricName n = e.getKey();
            if (!GROUP.equals(n.group()) || !SPARK_CUSTOM_METRICS.contains(n.name())) {
                continue;
            }
            if (threadId != null && !threadId.equals(n.tags().get(THREAD_ID_TAG))) {
                continue;
            }
            double v = value(e.getValue());
            if (!Double.isNaN(v)) {
                out.computeIfAbsent(n.tags().get(PROCESSOR_ID_TAG), k -> new TreeMap<>())
                        .merge(n.name(), (long) v, Long::sum);
            }
        }
        return out;
    }

    /**
     * Sums a counter of one operator over all its tasks and threads.
     *
     * @param metrics e.g. {@code kafkaStreams.metrics()} or {@code topologyTestDriver.metrics()}; not null
     * @param operatorName the operator's name; not null
     * @param metricName one of the counter names of this class; not null
     * @return the sum, {@code 0} when the operator registered no such metric (yet)
     */
    public static long total(Map<MetricName, ? extends Metric> metrics, String operatorName, String metricName) {
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(operatorName, "operatorName");
        Objects.requireNonNull(metricName, "metricName");
        double sum = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (matches(e.getKey(), operatorName, metricName)) {
                double v = value(e.getValue());
                if (!Double.isNaN(v)) {
                    sum += v;
                }
            }
        }
        return (long) sum;
    }

    /**
     * The lowest {@value #WATERMARK} of one operator over all its tasks that have a watermark.
     *
     * @param metrics e.g. {@code kafkaStreams.metrics()} or {@code topologyTestDriver.metrics()}; not null
     * @param operatorName the operator's name; not null
     * @return the watermark in epoch ms, empty when no task of the operator has one (yet)
     */
    public static OptionalLong watermark(Map<MetricName, ? extends Metric> metrics, String operatorName) {
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(operatorName, "operatorName");
        OptionalLong min = OptionalLong.empty();
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (matches(e.getKey(), operatorName, WATERMARK)) {
                double v = value(e.getValue());
                if (!Double.isNaN(v) && !Double.isInfinite(v) && (min.isEmpty() || (long) v < min.getAsLong())) {
                    min = OptionalLong.of((long) v);
                }
            }
        }
        return min;
    }

    private static boolean matches(MetricName n, String operatorName, String metricName) {
        return GROUP.equals(n.group())
                && metricName.equals(n.name())
                && operatorName.equals(n.tags().get(PROCESSOR_ID_TAG));
    }

    private static double value(Metric m) {
        Object v = m.metricValue();
        return v instanceof Number num ? num.doubleValue() : Double.NaN;
    }
}
