package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.ValueJoiner3;
import dev.rtmstreams.processor.spi.TaskShared;
import dev.rtmstreams.processor.spi.TimeQueue;
import dev.rtmstreams.processor.spi.Watermarks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The join algorithm of one task, as seen from one of the two side processors (both processors of a task share the
 * same stores). Modelled on Kafka Streams' {@code KStreamKStreamJoin} (each side puts its row into its own buffer and
 * probes the other side's buffer) with Spark's watermark rules ({@code StreamingSymmetricHashJoinExec},
 * {@code StreamingJoinHelper}): late = event time at or below the global watermark ({@code t <= wm}, Spark's
 * {@code WatermarkSupport.watermarkExpression}); a left row is evicted once {@code wm > t + upper}, a right row once
 * {@code wm > t - lower} (Spark's state watermark for inclusive bounds, {@code getStateWatermark}: the {@code <=}
 * conjunct shifts it 1 ms down, so a row is kept 1 ms of watermark longer than a match could need).
 *
 * <p>This class holds the matching (probe, emit, insert) and drives the task's parts: each side's rows
 * ({@link SideBuffer}), the watermarks and sequence allocator ({@link JoinMeta}), the records not joined
 * ({@link JoinDrops}) and the micro-batch inputs ({@link MicroBatchInputs}).
 */
final class JoinCore<K, L, R, VR> {

    private static final byte[] EMPTY = new byte[0];
    private static final int EVICT_EVERY = 16;
    /**
     * A record-triggered eviction pass runs only once the rows it may evict span at least this much event time, so
     * that at high rates a pass evicts hundreds of rows for the one RocksDB iterator it opens (in a steady state at
     * 10k events/s, passes every 16 records spent a third of the eviction's time opening iterators). State is kept at
     * most this much event time longer; the punctuator and micro-batch passes are not held back.
     */
    static final long EVICT_MIN_SPAN_MS = 100;

    private final JoinSpec<K, L, R> spec;
    private final ValueJoiner3<K, L, R, VR> joiner;
    private final ProcessorContext<K, Object> context;
    /** Per side (0 = left, 1 = right). */
    private final SideBuffer[] sides;
    /** The task's shared join state (filters, meta), dropped when both side processors of this incarnation closed. */
    private final TaskShared<JoinTaskState> taskState;
    /** The task's shared join state, held from construction to {@link #close}. */
    private final JoinTaskState shared;

    private final JoinMeta meta;
    private final JoinSensors sensors;
    private final JoinDrops<K> drops;
    private final MicroBatchInputs batchInputs;
    private final Serializer<K> keySerializer;
    private final Deserializer<K> keyDeserializer;
    private final Serializer<L> leftSerializer;
    private final Deserializer<L> leftDeserializer;
    private final Serializer<R> rightSerializer;
    private final Deserializer<R> rightDeserializer;
    /** Serde "topics" (the buffer store names), computed once: JoinSpec builds the names on each call. */
    private final String leftTopic;

    private final String rightTopic;
    /** Per side: the id of a row, for a side with {@code distinctBy}; else null. */
    private final DistinctBy.IdBytes<K, L> leftIds;

    private final DistinctBy.IdBytes<K, R> rightIds;
    /** Per side: receives the rows eviction finds unmatched when the join emits them (outer joins); else null. */
    private final List<BiConsumer<byte[], byte[]>> unmatched = new ArrayList<>(2);

    private int sinceEviction;

    JoinCore(
            JoinSpec<K, L, R> spec,
            ValueJoiner3<K, L, R, VR> joiner,
            ProcessorContext<K, Object> context,
            long idleTimeoutMs,
            TaskShared<JoinTaskState> taskState) {
        this.spec = spec;
        this.joiner = joiner;
        this.context = context;
        this.keySerializer = spec.keySerde().serializer();
        this.keyDeserializer = spec.keySerde().deserializer();
        this.leftSerializer = spec.leftSerde().serializer();
        this.leftDeserializer = spec.leftSerde().deserializer();
        this.rightSerializer = spec.rightSerde().serializer();
        this.rightDeserializer = spec.rightSerde().deserializer();
        this.leftTopic = spec.leftBufferStore();
        this.rightTopic = spec.rightBufferStore();
        this.leftIds =
                spec.leftDistinctBy() == null ? null : spec.leftDistinctBy().idBytes();
        this.rightIds =
                spec.rightDistinctBy() == null ? null : spec.rightDistinctBy().idBytes();
        this.taskState = taskState;
        JoinTaskState shared = taskState.acquire(context, JoinTaskState::new);
        this.shared = shared;
        try {
            boolean build = !shared.indexesBuilt;
            if (build) {
                shared.filters = new BufferKeyFilter[] {SideBuffer.newKeyFilter(spec), SideBuffer.newKeyFilter(spec)};
                shared.idFilters =
                        new BufferKeyFilter[] {SideBuffer.newIdFilter(spec, true), SideBuffer.newIdFilter(spec, false)};
                shared.timeIndexes = new TimeQueue[] {
                    SideBuffer.newTimeIndex(spec, context, true), SideBuffer.newTimeIndex(spec, context, false)
                };
            }
            this.sides = new SideBuffer[] {
                new SideBuffer(true, spec, context, shared), new SideBuffer(false, spec, context, shared)
            };
            if (build) {
                sides[0].rebuild((keyBytes, row) -> rowIdBytes(true, keyBytes, row));
                sides[1].rebuild((keyBytes, row) -> rowIdBytes(false, keyBytes, row));
                shared.indexesBuilt = true;
            }
            this.meta = new JoinMeta(spec, context, shared, idleTimeoutMs, sides[0], sides[1]);
            this.sensors = new JoinSensors(spec, context);
            sensors.gaugeTimeIndex(0, shared.timeIndexes[0]);
            sensors.gaugeTimeIndex(1, shared.timeIndexes[1]);
            this.drops = new JoinDrops<>(spec, context, sensors);
            this.batchInputs = new MicroBatchInputs(spec, context, shared);
        } catch (RuntimeException e) {
            // a processor whose init failed is not closed with a core: its hold is given up here
            taskState.release(context);
            throw e;
        }
        unmatched.add(spec.joinType().emitsUnmatchedLeft() ? (k, row) -> emitUnmatched(true, k, row) : null);
        unmatched.add(spec.joinType().emitsUnmatchedRight() ? (k, row) -> emitUnmatched(false, k, row) : null);
    }

    /** Sets a side's eviction hint from its oldest row (one seek); called at task init. */
    void initEvictionHint(boolean left) {
        side(left).initEvictionHint();
    }

    // ---------------------------------------------------------------- real-time contract

    /** Handles one input record of one side under the real-time contract: late check, probe, insert, evict. */
    void processRealTime(boolean left, Record<K, ?> record, long eventTime) {
        meta.markActive(left);
        byte[] valueBytes = serializeValue(left, record.value());
        Meta m = meta.get();
        boolean metaMustBeWritten = false;
        if (isLate(eventTime, m.global())) {
            drops.late(left, eventTime, m.global(), record.key(), valueBytes, record.timestamp(), record.headers());
        } else {
            byte[] keyBytes = keySerializer.serialize(topic(left), record.key());
            metaMustBeWritten = joinAndInsert(
                    left,
                    record.key(),
                    keyBytes,
                    record.value(),
                    eventTime,
                    valueBytes,
                    record.timestamp(),
                    record.headers(),
                    m,
                    m.global());
        }
        // Like Spark, every input row (late ones too) feeds its input's max event time.
        m.observe(left, eventTime);
        meta.advance(m);
        // A new sequence block is always persisted before its first number is used. The watermarks are persisted with
        // each change only when they could not be recovered from the buffers (see JoinMeta#lazyAllowed: then the
        // shell's PersistedWatermarks never writes a move on its own): a changelog write per input record saved.
        if (metaMustBeWritten) {
            meta.write(m);
        } else {
            meta.persistIfMoved(m);
        }
        // Record-triggered eviction runs every EVICT_EVERY records of this side (one index iterator per pass); the
        // wall-clock punctuator covers idle sides. Lazy eviction never changes the output, only the state size.
        if (++sinceEviction >= EVICT_EVERY) {
            sinceEviction = 0;
            evict(left, m.global(), EVICT_MIN_SPAN_MS);
        }
    }

    /** Punctuation under the real-time contract: one bounded eviction pass over this side. */
    void punctuateRealTime(boolean left) {
        // With an idle timeout, an input can become idle without any record arriving: re-evaluate the watermark.
        meta.advanceIfIdle();
        evict(left, meta.get().global(), 1);
        side(left).writeLocal(); // the rows inserted since the last read, for interactive queries
    }

    private int evict(boolean left, long watermark, long minSpanMs) {
        return side(left).evict(watermark, spec.maxEvictionsPerPass(), minSpanMs, unmatched.get(left ? 0 : 1));
    }

    // ---------------------------------------------------------------- micro-batch contract

    /** Buffers one input record in the changelogged pending store until the next micro-batch. */
    void bufferForMicroBatch(boolean left, Record<K, ?> record, long eventTime) {
        meta.markActive(left);
        byte[] keyBytes = keySerializer.serialize(topic(left), record.key());
        byte[] valueBytes = serializeValue(left, record.value());
        batchInputs.append(left, record.timestamp(), eventTime, keyBytes, record.headers(), valueBytes);
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
    void runMicroBatch() {
        if (!batchInputs.mayHoldInputs() && !meta.idleTimeoutEnabled()) {
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
        batchInputs.drain(in -> {
            K key = keyDeserializer.deserialize(topic(in.left()), in.keyBytes());
            if (isLate(in.eventTime(), lateWatermark)) {
                drops.late(in.left(), in.eventTime(), lateWatermark, key, in.valueBytes(), in.recordTs(), in.headers());
            } else {
                Object value = deserializeValue(in.left(), in.valueBytes());
                joinAndInsert(
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
        sides[0].writeLocal(); // the batch's rows, for interactive queries
        sides[1].writeLocal();
        shared.lastBatchWatermark = batchWatermark;
        shared.batchRan = true;
    }

    /** Micro-batch: evicts everything evictable at {@code watermark} on both sides, like Spark at a batch end. */
    private void evictAll(long watermark) {
        while (evict(true, watermark, 1) == spec.maxEvictionsPerPass()) {
            // keep going: a bounded pass evicted a full budget
        }
        while (evict(false, watermark, 1) == spec.maxEvictionsPerPass()) {
            // idem
        }
    }

    // ---------------------------------------------------------------- matching

    /**
     * Probes the other side's buffer over the time bound, forwards every match, marks matched rows (outer joins), and
     * inserts the new row. With {@code distinctRows}, identical rows of the other side (same key, time and payload; they
     * are adjacent in the scan) count once, and a row identical to one already buffered on its own side emits nothing
     * when it has matches: its twin has emitted them (or will, as the matches' probe found it).
     *
     * @param lateWatermark the watermark the row was judged not late by (micro-batch: the previous batch's); a buffered
     *     copy ({@code distinctBy}) counts while it is not evictable at it, as eviction has run up to it
     * @return true when {@code m} must be written although its watermarks could be recovered lazily: a sequence block
     *     was allocated, or a dropped copy ({@code distinctBy}) is about to raise its side's maximum
     */
    private boolean joinAndInsert(
            boolean left,
            K key,
            byte[] keyBytes,
            Object value,
            long eventTime,
            byte[] valueBytes,
            long recordTs,
            Headers headers,
            Meta m,
            long lateWatermark) {
        long from;
        long to;
        if (left) {
            from = Codec.saturatedAdd(eventTime, spec.lowerMs());
            to = Codec.saturatedAdd(eventTime, spec.upperMs());
        } else {
            from = Codec.saturatedAdd(eventTime, -spec.upperMs());
            to = Codec.saturatedAdd(eventTime, -spec.lowerMs());
        }
        SideBuffer own = side(left);
        SideBuffer other = side(!left);
        if (spec.joinType() == JoinType.LEFT_SEMI) {
            return semiJoinAndInsert(left, key, keyBytes, value, eventTime, valueBytes, recordTs, headers, m, from, to);
        }
        long idHash = 0;
        byte[] idBytes = idBytes(left, key, value);
        if (idBytes != null) {
            idHash = BufferKeyFilter.hash(keyBytes, idBytes);
            // the (key, id) filter, asked over the live rows' segments only, spares the scan of a row that has no copy
            // buffered (nearly every row)
            if (own.holdsId(
                    keyBytes, idHash, lateWatermark, row -> Arrays.equals(rowIdBytes(left, key, row), idBytes))) {
                drops.duplicate(left);
                // A dropped copy is not buffered, so a side maximum it raises (a copy with a later event time) could
                // not be recovered from the buffers after a restart (see JoinMeta#lazyAllowed): the meta is written.
                return eventTime > m.max(left);
            }
        }
        boolean markOther =
                left ? spec.joinType().emitsUnmatchedRight() : spec.joinType().emitsUnmatchedLeft();
        List<KeyValue<Bytes, byte[]>> matches = null;
        // the other side's key filter spares the seek of a probe that cannot find a row
        if (other.mightHold(keyBytes, from, to)) {
            try (KeyValueIterator<Bytes, byte[]> it = other.rows(keyBytes, from, to)) {
                while (it.hasNext()) {
                    KeyValue<Bytes, byte[]> kv = it.next();
                    if (matches == null) {
                        matches = new ArrayList<>(2);
                    } else if (spec.distinctRows() && repeats(matches, kv)) {
                        continue;
                    }
                    matches.add(kv);
                }
            }
        }
        if (matches != null && spec.distinctRows() && own.hasTwin(keyBytes, eventTime, valueBytes)) {
            return false;
        }
        List<KeyValue<Bytes, byte[]>> toMark = null;
        if (matches != null) {
            for (KeyValue<Bytes, byte[]> kv : matches) {
                emitMatch(left, key, value, kv.value, recordTs, headers);
                if (markOther && !Codec.matched(kv.value)) {
                    if (toMark == null) {
                        toMark = new ArrayList<>();
                    }
                    toMark.add(kv);
                }
            }
        }
        if (toMark != null) {
            other.markMatched(toMark);
        }
        return insert(left, keyBytes, eventTime, valueBytes, recordTs, matches != null ? Codec.MATCHED : 0, idHash, m);
    }

    /**
     * Left semi join (Spark's {@code StreamingSymmetricHashJoinExec} for {@code LeftSemi}): a left row with a match in
     * the right buffer is emitted once (with the first match) and not buffered; an unmatched left row is buffered. A
     * right row emits every buffered left row it matches that has not matched yet (Spark's
     * {@code excludeRowsAlreadyMatched}), marks them matched, and is always buffered.
     *
     * @return true when {@code m} changed (sequence block allocation)
     */
    private boolean semiJoinAndInsert(
            boolean left,
            K key,
            byte[] keyBytes,
            Object value,
            long eventTime,
            byte[] valueBytes,
            long recordTs,
            Headers headers,
            Meta m,
            long from,
            long to) {
        SideBuffer other = side(!left);
        if (!other.mightHold(keyBytes, from, to)) {
            // nothing to match: a left row waits for its match, a right row is only buffered
            return insert(left, keyBytes, eventTime, valueBytes, recordTs, (byte) 0, 0L, m);
        }
        if (left) {
            try (KeyValueIterator<Bytes, byte[]> it = other.rows(keyBytes, from, to)) {
                if (it.hasNext()) {
                    emitMatch(true, key, value, it.next().value, recordTs, headers);
                    return false;
                }
            }
        } else {
            List<KeyValue<Bytes, byte[]>> toMark = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = other.rows(keyBytes, from, to)) {
                while (it.hasNext()) {
                    KeyValue<Bytes, byte[]> kv = it.next();
                    if (!Codec.matched(kv.value)) {
                        toMark.add(kv);
                    }
                }
            }
            for (KeyValue<Bytes, byte[]> kv : toMark) {
                emitMatch(false, key, value, kv.value, recordTs, headers);
            }
            other.markMatched(toMark); // rows of the left side: changelogged
        }
        return insert(left, keyBytes, eventTime, valueBytes, recordTs, (byte) 0, 0L, m);
    }

    /**
     * Forwards the joined output of the arriving record and one buffered row of the other side, at the later of the
     * two record timestamps, with the arriving record's headers.
     */
    @SuppressWarnings("unchecked")
    private void emitMatch(boolean left, K key, Object value, byte[] otherRow, long recordTs, Headers headers) {
        VR out = left
                ? joiner.apply(key, (L) value, rightDeserializer.deserialize(topic(false), Codec.payload(otherRow)))
                : joiner.apply(key, leftDeserializer.deserialize(topic(true), Codec.payload(otherRow)), (R) value);
        context.forward(new Record<K, Object>(key, out, Math.max(recordTs, Codec.recordTs(otherRow)), headers));
    }

    private void emitUnmatched(boolean left, byte[] bufferKey, byte[] row) {
        K key = keyDeserializer.deserialize(topic(left), Codec.bufferKeyUserKey(bufferKey));
        VR out;
        if (left) {
            out = joiner.apply(key, leftDeserializer.deserialize(topic(true), Codec.payload(row)), null);
        } else {
            out = joiner.apply(key, null, rightDeserializer.deserialize(topic(false), Codec.payload(row)));
        }
        context.forward(new Record<K, Object>(key, out, Codec.recordTs(row)));
    }

    /**
     * Buffers a row; {@code idHash} is its (key, id) hash on a side with {@code distinctBy} (ignored otherwise).
     *
     * @return true when {@code m} changed (sequence block allocation)
     */
    private boolean insert(
            boolean left,
            byte[] keyBytes,
            long eventTime,
            byte[] valueBytes,
            long recordTs,
            byte flags,
            long idHash,
            Meta m) {
        long seq = meta.nextSeq(m);
        side(left).insert(keyBytes, eventTime, seq, Codec.bufferValue(flags, recordTs, valueBytes), idHash);
        return meta.takeBlockAllocated();
    }

    /** @return whether {@code candidate} has the time and payload of a row already in {@code matches} */
    private static boolean repeats(List<KeyValue<Bytes, byte[]>> matches, KeyValue<Bytes, byte[]> candidate) {
        long t = Codec.bufferKeyTime(candidate.key.get());
        for (int i = matches.size() - 1; i >= 0; i--) {
            KeyValue<Bytes, byte[]> earlier = matches.get(i);
            if (Codec.bufferKeyTime(earlier.key.get()) != t) {
                return false; // rows are in time order: no earlier row has this time
            }
            if (Codec.samePayload(earlier.value, candidate.value)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- records not joined

    /**
     * The watermark guard: the record's event time is too far ahead of the wall clock. It is not joined and does not
     * feed its side's max event time; it is counted and, with a late-records topic, written there.
     */
    void tooFarAhead(boolean left, Record<K, ?> record, long eventTime, long now, long maxSkewMs) {
        meta.markActive(left);
        drops.tooFarAhead(
                left,
                eventTime,
                now,
                maxSkewMs,
                record.key(),
                serializeValue(left, record.value()),
                record.timestamp(),
                record.headers());
    }

    /** Spark's rule for stateful operators ({@link Watermarks#isLate}), with {@link Codec#NONE} as "no watermark yet". */
    private static boolean isLate(long eventTime, long watermark) {
        return watermark != Codec.NONE && Watermarks.isLate(eventTime, watermark);
    }

    // ---------------------------------------------------------------- serdes

    /** @return the serialized id of a row of a side with {@code distinctBy}, or null for a side without */
    @SuppressWarnings("unchecked")
    private byte[] idBytes(boolean left, K key, Object value) {
        if (left) {
            return leftIds == null ? null : leftIds.of(leftTopic, key, (L) value);
        }
        return rightIds == null ? null : rightIds.of(rightTopic, key, (R) value);
    }

    /** @return the serialized id of a buffered row of {@code key} (a side with {@code distinctBy}) */
    private byte[] rowIdBytes(boolean left, K key, byte[] row) {
        return idBytes(left, key, deserializeValue(left, Codec.payload(row)));
    }

    /** @return the serialized id of a buffered row, from its serialized key (the index rebuild) */
    private byte[] rowIdBytes(boolean left, byte[] keyBytes, byte[] row) {
        return rowIdBytes(left, keyDeserializer.deserialize(topic(left), keyBytes), row);
    }

    private byte[] serializeValue(boolean left, Object value) {
        @SuppressWarnings("unchecked")
        byte[] bytes = left
                ? leftSerializer.serialize(topic(true), (L) value)
                : rightSerializer.serialize(topic(false), (R) value);
        return bytes == null ? EMPTY : bytes;
    }

    /** @return a side's value from its serialized bytes (the inverse of {@link #serializeValue}) */
    private Object deserializeValue(boolean left, byte[] bytes) {
        return left
                ? leftDeserializer.deserialize(topic(true), bytes)
                : rightDeserializer.deserialize(topic(false), bytes);
    }

    private String topic(boolean left) {
        return left ? leftTopic : rightTopic;
    }

    private SideBuffer side(boolean left) {
        return sides[left ? 0 : 1];
    }

    void close() {
        // the task's state may change without this incarnation (a recycled standby applies the changelog): once both
        // side processors closed, the next incarnation rebuilds its filters and meta from the stores
        try {
            sensors.close();
        } finally {
            taskState.release(context);
        }
    }
}
