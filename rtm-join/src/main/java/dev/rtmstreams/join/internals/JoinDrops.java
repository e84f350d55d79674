package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.processor.spi.OperatorSensors;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.WindowedCount;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The records a join task does not join, as one side processor sees them: late records (behind the global watermark)
 * and records rejected by the watermark guard (too far ahead of the wall clock), counted per side and, with a
 * late-records topic, forwarded there as {@link LateRecord}s; copies dropped by {@code distinctBy}, counted.
 */
final class JoinDrops<K> {

    private final JoinSpec<K, ?, ?> spec;
    private final ProcessorContext<K, Object> context;
    /** Per side (0 left, 1 right): sensors tagged with the side, shared with the task's other side processor. */
    private final OperatorSensors[] sideSensors;
    /** Late records per side (0 left, 1 right), then records rejected by the watermark guard (2 left, 3 right). */
    private final Sensor[] lateSensors = new Sensor[4];
    /** Per side: copies dropped ({@code distinctBy}); registered on the first one. */
    private final Sensor[] duplicateSensors = new Sensor[2];

    JoinDrops(JoinSpec<K, ?, ?> spec, ProcessorContext<K, Object> context) {
        this.spec = spec;
        this.context = context;
        this.sideSensors = new OperatorSensors[] {newSideSensors("left"), newSideSensors("right")};
    }

    /**
     * Counts a record not joined (late, or too far ahead) and forwards it to the late-records topic when there is one.
     *
     * @param valueBytes the record's serialized value
     */
    void late(boolean left, boolean tooFarAhead, K key, byte[] valueBytes, long recordTs, Headers headers) {
        int s = (left ? 0 : 1) + (tooFarAhead ? 2 : 0);
        if (lateSensors[s] == null) {
            OperatorSensors side = sideSensors[left ? 0 : 1];
            lateSensors[s] = tooFarAhead ? futureSensor(side) : lateSensor(side);
        }
        lateSensors[s].record();
        if (spec.lateTopic() != null) {
            RecordHeaders h = headers == null ? new RecordHeaders() : new RecordHeaders(headers.toArray());
            h.add(IntervalJoin.LATE_SIDE_HEADER, (left ? "left" : "right").getBytes(StandardCharsets.UTF_8));
            h.add(
                    IntervalJoin.LATE_REASON_HEADER,
                    (tooFarAhead ? IntervalJoin.LATE_REASON_TOO_FAR_AHEAD : IntervalJoin.LATE_REASON_LATE)
                            .getBytes(StandardCharsets.UTF_8));
            context.forward(new Record<K, Object>(key, new LateRecord(left, valueBytes), recordTs, h));
        }
    }

    /** Counts a row dropped as a copy of a buffered row of its side ({@code distinctBy}). */
    void duplicate(boolean left) {
        int s = left ? 0 : 1;
        if (duplicateSensors[s] == null) {
            duplicateSensors[s] = sideSensors[s].counter(
                    "duplicate-records",
                    IntervalJoin.DUPLICATE_RECORDS_TOTAL,
                    "Records dropped by the interval join as copies (same key and id) of a buffered row of their side");
        }
        duplicateSensors[s].record();
    }

    private static Sensor futureSensor(OperatorSensors side) {
        return side.counter(
                "future-records",
                IntervalJoin.FUTURE_RECORDS_TOTAL,
                "Records not joined because their event time was too far ahead of the wall clock");
    }

    private static Sensor lateSensor(OperatorSensors side) {
        Sensor sensor = side.counter(
                "late-records",
                IntervalJoin.LATE_RECORDS_TOTAL,
                "Total number of late records dropped by the interval join");
        side.also(
                sensor,
                IntervalJoin.LATE_RECORDS_RATE,
                "Late records dropped per second by the interval join",
                new Rate(new WindowedCount()));
        return sensor;
    }

    /**
     * One side's sensors, tagged {@code thread-id, task-id, rtm-join-id, side} and named
     * {@code rtm-join.<thread>.<task>.<join>.<side>.<sensor>}; a sensor still registered under that name (by the
     * task's other side processor) is shared, not replaced.
     */
    private OperatorSensors newSideSensors(String side) {
        String thread = Thread.currentThread().getName();
        String task = context.taskId().toString();
        return new OperatorSensors(
                context.metrics(),
                String.join(".", "rtm-join", thread, task, spec.name(), side) + ".",
                IntervalJoin.METRICS_GROUP,
                OperatorSensors.taskTags(thread, task, IntervalJoin.JOIN_NAME_TAG, spec.name(), "side", side),
                OperatorSensors.Registration.REUSE_EXISTING);
    }

    void close() {
        for (OperatorSensors s : sideSensors) {
            s.close();
        }
    }
}
