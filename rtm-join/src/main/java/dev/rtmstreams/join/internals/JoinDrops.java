package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.processor.spi.InputDrops;
import dev.rtmstreams.processor.spi.OperatorSensors;
import dev.rtmstreams.processor.spi.Watermarks;
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
    /** Per side: late and too-far-ahead records, accounted as by every operator shell; sensors made on first use. */
    private final InputDrops[] inputs;
    /** Per side: copies dropped ({@code distinctBy}); registered on the first one. */
    private final Sensor[] duplicateSensors = new Sensor[2];

    JoinDrops(JoinSpec<K, ?, ?> spec, ProcessorContext<K, Object> context, JoinSensors sensors) {
        this.spec = spec;
        this.context = context;
        this.sideSensors = new OperatorSensors[] {sensors.side(0), sensors.side(1)};
        this.inputs = new InputDrops[] {sideDrops(0, "left"), sideDrops(1, "right")};
    }

    private InputDrops sideDrops(int s, String side) {
        OperatorSensors sensors = sideSensors[s];
        return new InputDrops(
                "interval join " + spec.name() + " (" + side + " side)",
                () -> lateSensor(sensors),
                () -> futureSensor(sensors));
    }

    /** Spark's rule for stateful operators ({@link Watermarks#isLate}), with {@link Codec#NONE} as "no watermark yet". */
    static boolean isLate(long eventTime, long watermark) {
        return watermark != Codec.NONE && Watermarks.isLate(eventTime, watermark);
    }

    /**
     * Accounts for a late record (as every operator shell does, {@link InputDrops}) and forwards it to the
     * late-records topic when there is one.
     *
     * @param valueBytes the record's serialized value
     */
    void late(boolean left, long eventTime, long watermark, K key, byte[] valueBytes, long recordTs, Headers headers) {
        inputs[left ? 0 : 1].late(eventTime, watermark);
        deadLetter(left, false, key, valueBytes, recordTs, headers);
    }

    /**
     * Accounts for a record rejected by the watermark guard (as every operator shell does, {@link InputDrops}) and
     * forwards it to the late-records topic when there is one.
     *
     * @param valueBytes the record's serialized value
     */
    void tooFarAhead(
            boolean left,
            long eventTime,
            long now,
            long maxSkewMs,
            K key,
            byte[] valueBytes,
            long recordTs,
            Headers headers) {
        inputs[left ? 0 : 1].tooFarAhead(eventTime, now, maxSkewMs);
        deadLetter(left, true, key, valueBytes, recordTs, headers);
    }

    private void deadLetter(
            boolean left, boolean tooFarAhead, K key, byte[] valueBytes, long recordTs, Headers headers) {
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
}
