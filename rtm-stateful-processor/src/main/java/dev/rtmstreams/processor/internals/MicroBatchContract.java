package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.spi.MicroBatchBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The micro-batch contract of one operator's {@link OperatorRuntime}: input rows go to the persisted
 * {@link MicroBatchBuffer}, and each batch hands every buffered row to {@code handleInputRows}, grouped by key, then
 * fires the due timers, advances the watermark and the batch id and runs TTL cleanup, as Spark's
 * {@code TransformWithStateExec} does per batch. Not thread-safe (a task is single-threaded).
 */
final class MicroBatchContract<K, I, O> {

    private final OperatorRuntime<K, I, O> runtime;
    private final TimeMode timeMode;
    private final MicroBatchBuffer<Layout.BufferEntry> buffer;
    private final Serializer<I> valueSerializer;
    private final Deserializer<I> valueDeserializer;
    /**
     * Event time: the watermark the last batch ran with (Long.MIN_VALUE: none), which this batch drops late rows with,
     * as Spark; known once a batch ran since the operator started.
     */
    private long previousBatchWatermark = Long.MIN_VALUE;

    private boolean previousBatchWatermarkKnown;

    /**
     * @param runtime the operator's runtime
     * @param store the operator store, which holds the buffer under {@link Layout#BUFFER}
     * @param valueSerde the serde of the input values, which the buffer stores as bytes
     */
    MicroBatchContract(OperatorRuntime<K, I, O> runtime, KeyValueStore<Bytes, byte[]> store, Serde<I> valueSerde) {
        this.runtime = runtime;
        this.timeMode = runtime.timeMode;
        this.buffer =
                MicroBatchBuffer.prefixed(store, Layout.BUFFER, Layout::encodeBufferEntry, Layout::decodeBufferEntry);
        this.valueSerializer = valueSerde.serializer();
        this.valueDeserializer = valueSerde.deserializer();
    }

    /** Loads the buffer's sequence once the store is restored. */
    void load() {
        buffer.load();
    }

    /** Appends the row, with its record timestamp and headers, to the persisted buffer. */
    void append(K key, I value, long timestamp, Headers headers) {
        runtime.loadMeta();
        if (key == null) {
            runtime.input.dropNullKey();
            return;
        }
        runtime.inputArrived();
        buffer.append(new Layout.BufferEntry(
                runtime.serializeKey(key),
                timestamp,
                value == null ? null : valueSerializer.serialize(runtime.topic(), value),
                headers));
    }

    /** The rows of one key in one batch, with the timestamp and headers its output gets. */
    private static final class KeyRows<K, I> {
        final byte[] keyBytes;
        final K key;
        final List<I> rows = new ArrayList<>();
        long timestamp = Long.MIN_VALUE;
        /** Headers of the key's latest (last arrived) row in this batch. */
        Headers headers;

        KeyRows(byte[] keyBytes, K key) {
            this.keyBytes = keyBytes;
            this.key = key;
        }
    }

    /**
     * Runs one micro-batch at wall-clock time {@code now}: every buffered row, grouped by key in first-arrival
     * order, one {@code handleInputRows} call per key with its rows in arrival order; processing time and
     * watermark are constant within the batch (the watermark computed at the end of the previous batch, as in
     * Spark; rows at or below the watermark the previous batch ran with are late, as Spark's watermark for late
     * events); then due timers fire (also when the batch has no data, in event time only once the watermark moved
     * since the last batch, as Spark), the watermark advances, the batch id
     * increments and TTL cleanup runs (also when a processing-time batch has no data). Buffered rows are deleted only after the batch ran (at-least-once).
     */
    void run(long now) {
        runtime.loadMeta();
        runtime.applyIdleTimeout(now);
        if (!buffer.mayHoldEntries()) {
            // No new data. Like Spark (TransformWithStateExec#shouldRunAnotherBatch), a no-data batch still runs in
            // processing-time mode (timers, a new batch id) but not otherwise: the watermark moves only with data
            // (or the idle timeout, whose due timers fire here). Either way the buffer scan is skipped, which keeps a
            // short or as-fast-as-possible interval cheap when input pauses between loop passes. A processing-time
            // no-data batch also evicts expired TTL state, as Spark's commit of every batch does
            // (TransformWithStateExec: processorHandle.doTtlCleanup() before store.commit()).
            // In event time Spark runs such a batch only when the watermark moved (shouldRunAnotherBatch:
            // new watermark > the last batch's), so a timer a handler registered below an unchanged watermark fires
            // with the next data or the next watermark move, not in a batch of its own.
            if (timeMode != TimeMode.EVENT_TIME || runtime.housekeeping.watermarkMovedSinceLastTimerPass()) {
                runtime.housekeeping.fireDueTimers(now);
                rememberBatchWatermark();
            }
            if (timeMode == TimeMode.PROCESSING_TIME) {
                runtime.incrementBatchId();
                runtime.housekeeping.cleanupTtl(now);
            }
            return;
        }
        List<KeyValue<Bytes, Layout.BufferEntry>> rows = buffer.read();
        Map<Bytes, KeyRows<K, I>> byKey = new LinkedHashMap<>();
        long batchMaxEventTime = Long.MIN_VALUE;
        for (KeyValue<Bytes, Layout.BufferEntry> row : rows) {
            Layout.BufferEntry e = row.value;
            byte[] kb = e.key();
            I value = e.value() == null ? null : valueDeserializer.deserialize(runtime.topic(), e.value());
            KeyRows<K, I> kr =
                    byKey.computeIfAbsent(Bytes.wrap(kb), b -> new KeyRows<>(kb, runtime.deserializeKey(kb)));
            if (timeMode == TimeMode.EVENT_TIME) {
                long et = runtime.spec.eventTimeExtractor().extract(kr.key, value, e.timestamp());
                if (dropIfLateForBatch(et) || runtime.input.dropIfTooFarAhead(et, now)) {
                    continue;
                }
                batchMaxEventTime = Math.max(batchMaxEventTime, et);
            }
            kr.rows.add(value);
            kr.timestamp = Math.max(kr.timestamp, e.timestamp());
            kr.headers = e.headers();
        }
        TimerValuesImpl tv = new TimerValuesImpl(now, runtime.watermarkForTimerValues());
        for (KeyRows<K, I> kr : byKey.values()) {
            if (!kr.rows.isEmpty()) {
                runtime.handleInputRows(kr.keyBytes, kr.key, kr.rows.iterator(), tv, now, kr.timestamp, kr.headers);
            }
        }
        runtime.housekeeping.fireDueTimers(now);
        rememberBatchWatermark();
        buffer.delete(rows);
        if (batchMaxEventTime != Long.MIN_VALUE) {
            runtime.watermark.observe(batchMaxEventTime);
        }
        runtime.incrementBatchId();
        runtime.housekeeping.cleanupTtl(now);
    }

    /**
     * Event time: drops a row at or below the watermark of the previous batch, the one Spark filters late rows with
     * ({@code eventTimeWatermarkForLateEvents}; timers fire with the current one). Before the first batch since the
     * operator started it uses the current watermark (the previous one is not persisted).
     */
    private boolean dropIfLateForBatch(long eventTime) {
        return previousBatchWatermarkKnown
                ? runtime.input.dropIfLate(eventTime, previousBatchWatermark)
                : runtime.input.dropIfLate(eventTime);
    }

    /** After a batch ran (with or without data): the next batch drops late rows with the watermark it ran with. */
    private void rememberBatchWatermark() {
        if (timeMode == TimeMode.EVENT_TIME) {
            WatermarkTracker watermark = runtime.watermark;
            previousBatchWatermark = watermark.has() ? watermark.value() : Long.MIN_VALUE;
            previousBatchWatermarkKnown = true;
        }
    }
}
