package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.RtmProcessorMetrics;
import dev.rtmstreams.processor.spi.OperatorSensors;
import java.util.function.DoubleSupplier;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * The per-task metrics of one operator (see {@link RtmProcessorMetrics}), registered through
 * {@link OperatorSensors} (replacing stale sensors) so that they show in {@code KafkaStreams#metrics()}. Gauges are
 * read by other threads (reporters, {@code KafkaStreams#metrics()} callers): their suppliers read only volatile fields
 * or thread-safe store estimates.
 */
final class OperatorMetrics {

    private final OperatorSensors sensors;

    final Sensor lateRecords;
    final Sensor nullKeyRecords;
    final Sensor futureRecords;
    final Sensor timersFired;
    final Sensor ttlExpiredRemoved;
    final Sensor registeredTimers;
    final Sensor deletedTimers;
    final Sensor initialStateMs;
    final Sensor timerProcessingMs;

    OperatorMetrics(StreamsMetrics streamsMetrics, String threadId, String taskId, String operatorName) {
        this.sensors = new OperatorSensors(
                streamsMetrics,
                String.join(".", "rtm-processor", threadId, taskId, operatorName) + ".",
                RtmProcessorMetrics.GROUP,
                OperatorSensors.taskTags(threadId, taskId, RtmProcessorMetrics.PROCESSOR_ID_TAG, operatorName),
                OperatorSensors.Registration.REPLACE_STALE);
        lateRecords = counter(
                RtmProcessorMetrics.LATE_RECORDS_TOTAL, "records dropped as late (event time below the watermark)");
        nullKeyRecords = counter(
                RtmProcessorMetrics.NULL_KEY_RECORDS_TOTAL, "records dropped because their grouping key was null");
        futureRecords = counter(
                RtmProcessorMetrics.FUTURE_RECORDS_TOTAL,
                "records dropped because their event time was too far ahead of the wall clock (watermark guard)");
        timersFired = counter(RtmProcessorMetrics.TIMERS_FIRED_TOTAL, "timers fired (handleExpiredTimer calls)");
        also(timersFired, "numExpiredTimers", "Number of expired timers", new CumulativeCount());
        ttlExpiredRemoved = sum(
                RtmProcessorMetrics.TTL_EXPIRED_REMOVED_TOTAL,
                "expired state values, list elements and map entries physically removed by TTL cleanup");
        also(
                ttlExpiredRemoved,
                "numValuesRemovedDueToTTLExpiry",
                "Number of values removed due to TTL expiry",
                new CumulativeSum());
        registeredTimers = counter("numRegisteredTimers", "Number of registered timers");
        deletedTimers = counter("numDeletedTimers", "Number of deleted timers");
        initialStateMs =
                sum("initialStateProcessingTimeMs", "Number of milliseconds taken to process all initial state");
        timerProcessingMs = sum("timerProcessingTimeMs", "Number of milliseconds taken to process all timers");
    }

    /**
     * Spark's gauges of declared state variables (see {@link RtmProcessorMetrics#SPARK_CUSTOM_METRICS}).
     *
     * @param declared what {@code init} declared
     * @param deletedStateVars how many variables {@code deleteIfExists} removed
     */
    void stateVariableGauges(Iterable<OperatorMetadata.Variable> declared, int deletedStateVars) {
        long[] counts = new long[6];
        for (OperatorMetadata.Variable v : declared) {
            counts[v.kind().ordinal() + (v.ttl() ? 3 : 0)]++;
        }
        String[] names = {
            "numValueStateVars", "numListStateVars", "numMapStateVars",
            "numValueStateWithTTLVars", "numListStateWithTTLVars", "numMapStateWithTTLVars"
        };
        for (int i = 0; i < names.length; i++) {
            long c = counts[i];
            gauge(names[i], "Number of " + names[i].substring(3), () -> c);
        }
        gauge("numDeletedStateVars", "Number of deleted state variables", () -> deletedStateVars);
    }

    /** Adds a second metric, e.g. under Spark's name, to an existing sensor. */
    private void also(Sensor s, String name, String description, MeasurableStat stat) {
        sensors.also(s, name, description, stat);
    }

    /**
     * A counter of events: each {@code record()} adds one. A sensor of the same name left behind by an earlier
     * incarnation of this task on this thread (e.g. one that was not closed cleanly) is replaced, so no metric keeps
     * reading a dead runtime.
     */
    private Sensor counter(String name, String description) {
        return sensors.counter(name, name, description);
    }

    /** A counter of amounts: each {@code record(n)} adds {@code n}. */
    private Sensor sum(String name, String description) {
        return sensors.sum(name, name, description);
    }

    /** Registers a gauge whose value is computed by {@code value} whenever the metric is read. */
    void gauge(String name, String description, DoubleSupplier value) {
        sensors.gauge(name, name, description, value);
    }

    /** Removes every sensor (and its metrics) of this operator's task. */
    void close() {
        sensors.close();
    }
}
