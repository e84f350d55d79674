package dev.rtmstreams.join.internals;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The micro-batch contract of one join task, as one side processor sees it: each side's inputs wait in the
 * {@link MicroBatchInputs} (both sides, in arrival order), and each batch, run by the left processor for both sides,
 * judges them late or hands them to the {@link JoinMatcher}, then advances the watermark and evicts both sides, as
 * Spark's {@code StreamingSymmetricHashJoinExec} does per batch. Which watermark the last batch ran with lives in the
 * task's shared {@link JoinTaskState}.
 */
final class JoinMicroBatch<K> {

    private final JoinSpec<K, ?, ?> spec;
    private final JoinTaskState shared;
    private final JoinSerdes<K, ?, ?> serdes;
    private final JoinMeta meta;
    private final JoinDrops<K> drops;
    private final JoinMatcher<K, ?, ?, ?> matcher;
    private final MicroBatchInputs inputs;

    /** Opens the task's pending store (loaded by the first processor of the task incarnation). */
    JoinMicroBatch(
            JoinSpec<K, ?, ?> spec,
            ProcessorContext<K, Object> context,
            JoinTaskState shared,
            JoinSerdes<K, ?, ?> serdes,
            JoinMeta meta,
            JoinDrops<K> drops,
            JoinMatcher<K, ?, ?, ?> matcher) {
        this.spec = spec;
        this.shared = shared;
        this.serdes = serdes;
        this.meta = meta;
        this.drops = drops;
        this.matcher = matcher;
        this.inputs = new MicroBatchInputs(spec, context, shared);
    }

    /** Buffers one input record in the changelogged pending store until the next micro-batch. */
    void buffer(boolean left, Record<K, ?> record, long eventTime) {
        meta.markActive(left);
        byte[] keyBytes = serdes.serializeKey(left, record.key());
        byte[] valueBytes = serdes.serializeValue(left, record.value());
        inputs.append(left, record.timestamp(), eventTime, keyBytes, record.headers(), valueBytes);
    }

    /**
     * Runs one micro-batch (Spark's semantics, {@code StreamingSymmetricHashJoinExec}): the batch runs with the global
     * watermark computed at the end of the previous one; every buffered input, in arrival order, is judged late
     * against the watermark the previous batch ran with (Spark's {@code eventTimeWatermarkForLateEvents}, as
     * transformWithState's micro-batch mode; the current one before the first batch of a task incarnation); then the
     * watermark advances and both sides are evicted by the watermark this batch ran with (Spark's
     * {@code eventTimeWatermarkForEviction}), so that a row the next batch accepts still finds its matches. A pass
     * without input is Spark's no-data batch: it evicts by the watermark the last batch computed, if it moved.
     */
    void run() {
        if (!inputs.mayHoldInputs() && !meta.idleTimeoutEnabled()) {
            // No new input since the last batch: the watermark cannot have moved since the last batch computed it
            // (without an idle timeout). Spark runs a no-data batch when that watermark passed the one the last batch
            // evicted with (StreamingSymmetricHashJoinExec#shouldRunAnotherBatch): it evicts with it and becomes the
            // batch the next one judges lateness by. Otherwise the batch would change nothing: its scans and writes are
            // skipped.
            long watermark = meta.get().global();
            if (shared.batchRan && watermark != shared.lastBatchWatermark) {
                evictAll(watermark);
            }
            shared.lastBatchWatermark = watermark;
            shared.batchRan = true;
            return;
        }
        Meta m = meta.get();
        long batchWatermark = m.global();
        long lateWatermark = shared.batchRan ? shared.lastBatchWatermark : batchWatermark;
        inputs.drain(in -> {
            K key = serdes.deserializeKey(in.left(), in.keyBytes());
            if (JoinDrops.isLate(in.eventTime(), lateWatermark)) {
                drops.late(in.left(), in.eventTime(), lateWatermark, key, in.valueBytes(), in.recordTs(), in.headers());
            } else {
                Object value = serdes.deserializeValue(in.left(), in.valueBytes());
                matcher.joinAndInsert(
                        in.left(),
                        key,
                        in.keyBytes(),
                        value,
                        in.eventTime(),
                        in.valueBytes(),
                        in.recordTs(),
                        in.headers(),
                        m,
                        lateWatermark);
            }
            m.observe(in.left(), in.eventTime());
        });
        meta.advance(m);
        meta.write(m);
        evictAll(batchWatermark);
        shared.lastBatchWatermark = batchWatermark;
        shared.batchRan = true;
    }

    /** Evicts everything evictable at {@code watermark} on both sides, like Spark at a batch end. */
    private void evictAll(long watermark) {
        while (matcher.evict(true, watermark, 1) == spec.maxEvictionsPerPass()) {
            // keep going: a bounded pass evicted a full budget
        }
        while (matcher.evict(false, watermark, 1) == spec.maxEvictionsPerPass()) {
            // idem
        }
    }
}
