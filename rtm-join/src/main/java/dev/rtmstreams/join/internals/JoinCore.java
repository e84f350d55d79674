package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.ValueJoiner3;
import dev.rtmstreams.join.WatermarkPolicy;
import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.HeadersLayout;
import dev.rtmstreams.processor.spi.OperatorSensors;
import dev.rtmstreams.processor.spi.OperatorStores;
import dev.rtmstreams.processor.spi.StoreWriteBatch;
import dev.rtmstreams.processor.spi.Watermarks;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.WindowedCount;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The join algorithm of one task, as seen from one of the two side processors (both processors of a task share the
 * same stores). Modelled on Kafka Streams' {@code KStreamKStreamJoin} (each side puts its row into its own buffer and
 * probes the other side's buffer) with Spark's watermark rules ({@code StreamingSymmetricHashJoinExec},
 * {@code StreamingJoinHelper}): late = event time at or below the global watermark ({@code t <= wm}, Spark's
 * {@code WatermarkSupport.watermarkExpression}); a left row is evicted once {@code wm > t + upper}, a right row once
 * {@code wm > t - lower} (Spark's state watermark for inclusive bounds, {@code getStateWatermark}: the {@code <=}
 * conjunct shifts it 1 ms down, so a row is kept 1 ms of watermark longer than a match could need).
 *
 * <p>Each side's rows are inserted and evicted by exactly one core (its own side's processor in real-time mode, the
 * left processor for both sides in micro-batch mode), so the in-memory eviction hints ({@link #lowest}) stay valid.
 * Eviction may lag (it runs on records of that side and on a punctuator): a row that is evictable can never match a
 * non-late record of the other side, so lazy eviction never changes the output, only the state size.
 */
final class JoinCore<K, L, R, VR> {

    private static final Bytes META_KEY = Bytes.wrap("meta".getBytes(StandardCharsets.UTF_8));
    private static final byte[] EMPTY = new byte[0];
    private static final long SEQ_BLOCK = 4096;
    private static final int EVICT_EVERY = 16;
    /**
     * A record-triggered eviction pass runs only once the rows it may evict span at least this much event time, so
     * that at high rates a pass evicts hundreds of rows for the one RocksDB iterator it opens (in a steady state at
     * 10k events/s, passes every 16 records spent a third of the eviction's time opening iterators). State is kept at
     * most this much event time longer; the punctuator and micro-batch passes are not held back.
     */
    static final long EVICT_MIN_SPAN_MS = 100;

    private static final int REBUILD_BATCH = 1_000;

    private final JoinSpec<K, L, R> spec;
    private final ValueJoiner3<K, L, R, VR> joiner;
    private final ProcessorContext<K, Object> context;
    private final KeyValueStore<Bytes, byte[]> leftBuffer;
    private final KeyValueStore<Bytes, byte[]> rightBuffer;
    /**
     * Read views of the buffers, and the (not changelogged) indexes, without Kafka Streams' metered layer: each probe
     * is an iterator, and the metered layer registers, times and deregisters every iterator (measured at ~3% of a
     * real-time stream thread). Writes of rows still go through {@link #leftBuffer}/{@link #rightBuffer}, which
     * changelog them.
     */
    private final KeyValueStore<Bytes, byte[]> leftRead;

    private final KeyValueStore<Bytes, byte[]> rightRead;
    /** Time index of each side's rows: not changelogged, rebuilt from the buffer by the first core of a task. */
    private final KeyValueStore<Bytes, byte[]> leftIndex;

    private final KeyValueStore<Bytes, byte[]> rightIndex;
    private final KeyValueStore<Bytes, byte[]> meta;
    private final KeyValueStore<Bytes, byte[]> pending;
    /** The task's live watermarks, shared with the other side's processor. */
    private final JoinTaskState shared;
    /**
     * Whether the watermark part of the meta record may be written lazily (only with a sequence block): true when the
     * side maxima can be recovered exactly from the buffers after a restart, see {@link #lazyMetaAllowed}.
     */
    private final boolean lazyMeta;
    /** Last arrival (wall clock) per input of this task; only used when {@link #idleTimeoutMs} is positive. */
    private final KeyValueStore<Bytes, byte[]> activity;
    /** Watermark idle timeout in ms; 0 = disabled. */
    private final long idleTimeoutMs;

    private long lastMarked = Long.MIN_VALUE;
    private final Serializer<K> keySerializer;
    private final Deserializer<K> keyDeserializer;
    private final Serializer<L> leftSerializer;
    private final Deserializer<L> leftDeserializer;
    private final Serializer<R> rightSerializer;
    private final Deserializer<R> rightDeserializer;
    /** Late records per side (0 left, 1 right), then records rejected by the watermark guard (2 left, 3 right). */
    private final Sensor[] lateSensors = new Sensor[4];
    /** Per side (0 left, 1 right): registers the side's {@link #lateSensors} on the first record dropped. */
    private final OperatorSensors[] sideSensors;
    /** Serde "topics" (the buffer store names), computed once: JoinSpec builds the names on each call. */
    private final String leftTopic;

    private final String rightTopic;
    /** Per side (0 = left, 1 = right): which keys its buffer may hold (shared by the task's two side processors). */
    private final BufferKeyFilter[] filters;
    /** Per side: which (key, id) pairs its buffer may hold, for a side with {@code distinctBy}; else null. */
    private final BufferKeyFilter[] idFilters;
    /** Per side: the id of a row, for a side with {@code distinctBy}; else null. */
    private final DistinctBy.IdBytes<K, L> leftIds;

    private final DistinctBy.IdBytes<K, R> rightIds;
    /** Per side: copies dropped ({@code distinctBy}); registered on the first one. */
    private final Sensor[] duplicateSensors = new Sensor[2];
    /** Per side (0 = left, 1 = right): a lower bound of the smallest buffered event time. */
    private final long[] lowest = {Long.MIN_VALUE, Long.MIN_VALUE};

    private long nextSeq;
    private long seqEnd;
    private boolean seqAllocated;
    private int sinceEviction;

    JoinCore(
            JoinSpec<K, L, R> spec,
            ValueJoiner3<K, L, R, VR> joiner,
            ProcessorContext<K, Object> context,
            long idleTimeoutMs) {
        this.spec = spec;
        this.idleTimeoutMs = idleTimeoutMs;
        this.activity = context.getStateStore(spec.activityStore());
        this.joiner = joiner;
        this.context = context;
        this.leftBuffer = context.getStateStore(spec.leftBufferStore());
        this.rightBuffer = context.getStateStore(spec.rightBufferStore());
        this.leftRead = OperatorStores.unmetered(leftBuffer);
        this.rightRead = OperatorStores.unmetered(rightBuffer);
        this.leftIndex = OperatorStores.unmetered(context.getStateStore(spec.leftIndexStore()));
        this.rightIndex = OperatorStores.unmetered(context.getStateStore(spec.rightIndexStore()));
        this.meta = context.getStateStore(spec.metaStore());
        this.pending = context.getStateStore(spec.pendingStore());
        TaskLocalStore<JoinTaskState> taskState = context.getStateStore(spec.taskStateStore());
        this.shared = taskState.get();
        this.lazyMeta = lazyMetaAllowed(spec, idleTimeoutMs);
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
        if (!shared.indexesBuilt) {
            long segmentMs = BufferKeyFilter.segmentMsFor(spec.lowerMs(), spec.upperMs());
            shared.filters = new BufferKeyFilter[] {new BufferKeyFilter(segmentMs), new BufferKeyFilter(segmentMs)};
            shared.idFilters = new BufferKeyFilter[] {
                leftIds == null ? null : new BufferKeyFilter(segmentMs),
                rightIds == null ? null : new BufferKeyFilter(segmentMs)
            };
            rebuildIndex(true, shared.filters[0], shared.idFilters[0]);
            rebuildIndex(false, shared.filters[1], shared.idFilters[1]);
            shared.indexesBuilt = true;
        }
        this.filters = shared.filters;
        this.idFilters = shared.idFilters;
        this.sideSensors = new OperatorSensors[] {newSideSensors("left"), newSideSensors("right")};
    }

    // ---------------------------------------------------------------- real-time contract

    /** Handles one input record of one side under the real-time contract: late check, probe, insert, evict. */
    void processRealTime(boolean left, Record<K, ?> record, long eventTime) {
        markActive(left);
        byte[] valueBytes = serializeValue(left, record.value());
        Meta m = readMeta();
        boolean metaMustBeWritten = false;
        if (isLate(eventTime, m.global)) {
            late(left, false, record.key(), valueBytes, record.timestamp(), record.headers());
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
                    m);
        }
        // Like Spark, every input row (late ones too) feeds its input's max event time.
        boolean moved = m.observe(left, eventTime);
        moved |= advanceGlobal(m);
        // A new sequence block is always persisted before its first number is used. The watermarks are persisted with
        // each change only when they could not be recovered from the buffers (see lazyMetaAllowed): a changelog
        // write per input record saved.
        if (metaMustBeWritten || (moved && !lazyMeta)) {
            meta.put(META_KEY, m.encode());
        }
        // Record-triggered eviction runs every EVICT_EVERY records of this side (one index iterator per pass); the
        // wall-clock punctuator covers idle sides. Lazy eviction never changes the output, only the state size.
        if (++sinceEviction >= EVICT_EVERY) {
            sinceEviction = 0;
            evict(left, m.global, spec.maxEvictionsPerPass(), EVICT_MIN_SPAN_MS);
        }
    }

    /** Punctuation under the real-time contract: one bounded eviction pass over this side. */
    void punctuateRealTime(boolean left) {
        Meta m = readMeta();
        // With an idle timeout, an input can become idle without any record arriving: re-evaluate the watermark.
        if (idleTimeoutMs > 0 && advanceGlobal(m)) {
            meta.put(META_KEY, m.encode());
        }
        evict(left, m.global, spec.maxEvictionsPerPass());
    }

    // ---------------------------------------------------------------- idleness

    private static final Bytes[] SIDE_KEYS = {Bytes.wrap(new byte[] {0}), Bytes.wrap(new byte[] {1})};

    /**
     * Records that this side has seen input now (wall clock); at most one store write per distinct wall-clock value.
     * An input without an entry yet (fresh task incarnation) counts as active from the first time it is checked.
     */
    void markActive(boolean left) {
        if (idleTimeoutMs <= 0) {
            return;
        }
        long now = context.currentSystemTimeMs();
        if (now != lastMarked) {
            lastMarked = now;
            activity.put(SIDE_KEYS[left ? 0 : 1], ByteLayout.longValue(now));
        }
    }

    /** @return whether the side has received no record for longer than the idle timeout */
    private boolean idle(int side, long now) {
        byte[] v = activity.get(SIDE_KEYS[side]);
        if (v == null) {
            activity.put(SIDE_KEYS[side], ByteLayout.longValue(now));
            return false;
        }
        return now - ByteLayout.getLong(v, 0) > idleTimeoutMs;
    }

    // ---------------------------------------------------------------- micro-batch contract

    /** Buffers one input record in the changelogged pending store until the next micro-batch. */
    void bufferForMicroBatch(boolean left, Record<K, ?> record, long eventTime) {
        markActive(left);
        byte[] keyBytes = keySerializer.serialize(topic(left), record.key());
        byte[] valueBytes = serializeValue(left, record.value());
        Meta m = readMeta();
        long seq = nextSeq(m);
        if (seqAllocated) {
            seqAllocated = false;
            meta.put(META_KEY, m.encode());
        }
        byte[] headerBytes = HeadersLayout.encode(record.headers());
        ByteBuffer b =
                ByteBuffer.allocate(1 + 8 + 8 + 4 + keyBytes.length + 4 + headerBytes.length + valueBytes.length);
        b.put((byte) (left ? 0 : 1))
                .putLong(record.timestamp())
                .putLong(eventTime)
                .putInt(keyBytes.length)
                .put(keyBytes)
                .putInt(headerBytes.length)
                .put(headerBytes)
                .put(valueBytes);
        pending.put(Bytes.wrap(ByteLayout.longValue(seq)), b.array());
        shared.pendingMayHoldInputs = true;
    }

    /**
     * Runs one micro-batch (Spark's semantics): every buffered input in arrival order, judged late against the global
     * watermark of the batch start; then the watermark advances and both sides are evicted.
     */
    @SuppressWarnings("unchecked")
    void runMicroBatch() {
        if (!shared.pendingMayHoldInputs && idleTimeoutMs <= 0) {
            // No new input since the last batch: the watermark cannot have moved (without an idle timeout), and the
            // last batch evicted everything evictable, so the batch would change nothing; skip its scans and writes.
            return;
        }
        shared.pendingMayHoldInputs = false;
        Meta m = readMeta();
        long batchWatermark = m.global;
        List<Bytes> done = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = pending.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                done.add(kv.key);
                ByteBuffer b = ByteBuffer.wrap(kv.value);
                boolean left = b.get() == 0;
                long recordTs = b.getLong();
                long eventTime = b.getLong();
                byte[] keyBytes = new byte[b.getInt()];
                b.get(keyBytes);
                byte[] headerBytes = new byte[b.getInt()];
                b.get(headerBytes);
                Headers headers = HeadersLayout.read(headerBytes, 0);
                byte[] valueBytes = new byte[b.remaining()];
                b.get(valueBytes);
                K key = keyDeserializer.deserialize(topic(left), keyBytes);
                if (isLate(eventTime, batchWatermark)) {
                    late(left, false, key, valueBytes, recordTs, headers);
                } else {
                    Object value = deserializeValue(left, valueBytes);
                    joinAndInsert(left, key, keyBytes, value, eventTime, valueBytes, recordTs, headers, m);
                }
                m.observe(left, eventTime);
            }
        }
        for (Bytes k : done) {
            pending.delete(k);
        }
        advanceGlobal(m);
        meta.put(META_KEY, m.encode());
        while (evict(true, m.global, spec.maxEvictionsPerPass()) == spec.maxEvictionsPerPass()) {
            // keep going: micro-batch evicts everything evictable at the batch end, like Spark
        }
        while (evict(false, m.global, spec.maxEvictionsPerPass()) == spec.maxEvictionsPerPass()) {
            // idem
        }
    }

    // ---------------------------------------------------------------- shared algorithm

    /**
     * Probes the other side's buffer over the time bound, forwards every match, marks matched rows (outer joins), and
     * inserts the new row. With {@code distinctRows}, identical rows of the other side (same key, time and payload; they
     * are adjacent in the scan) count once, and a row identical to one already buffered on its own side emits nothing
     * when it has matches: its twin has emitted them (or will, as the matches' probe found it).
     *
     * @return true when {@code m} must be written although its watermarks could be recovered lazily: a sequence block
     *     was allocated, or a dropped copy ({@code distinctBy}) is about to raise its side's maximum
     */
    @SuppressWarnings("unchecked")
    private boolean joinAndInsert(
            boolean left,
            K key,
            byte[] keyBytes,
            Object value,
            long eventTime,
            byte[] valueBytes,
            long recordTs,
            Headers headers,
            Meta m) {
        long from;
        long to;
        if (left) {
            from = Codec.saturatedAdd(eventTime, spec.lowerMs());
            to = Codec.saturatedAdd(eventTime, spec.upperMs());
        } else {
            from = Codec.saturatedAdd(eventTime, -spec.upperMs());
            to = Codec.saturatedAdd(eventTime, -spec.lowerMs());
        }
        KeyValueStore<Bytes, byte[]> own = left ? leftRead : rightRead;
        KeyValueStore<Bytes, byte[]> other = left ? rightRead : leftRead;
        if (spec.joinType() == JoinType.LEFT_SEMI) {
            return semiJoinAndInsert(left, key, keyBytes, value, eventTime, valueBytes, recordTs, headers, m, from, to);
        }
        long idHash = 0;
        byte[] idBytes = idBytes(left, key, value);
        if (idBytes != null) {
            idHash = BufferKeyFilter.hash(keyBytes, idBytes);
            // the (key, id) filter, asked over the live rows' segments only, spares the scan of a row that has no copy
            // buffered (nearly every row)
            long liveFrom = firstLiveTime(left, m.global);
            if (idFilters[left ? 0 : 1].mightContain(idHash, liveFrom, Long.MAX_VALUE)
                    && holdsId(left, own, key, keyBytes, idBytes, liveFrom)) {
                duplicate(left);
                // A dropped copy is not buffered, so a side maximum it raises (a copy with a later event time) could
                // not be recovered from the buffers after a restart (see lazyMetaAllowed): the meta is written.
                return eventTime > m.max(left);
            }
        }
        boolean markOther =
                left ? spec.joinType().emitsUnmatchedRight() : spec.joinType().emitsUnmatchedLeft();
        List<KeyValue<Bytes, byte[]>> matches = null;
        // the other side's key filter spares the seek of a probe that cannot find a row
        if (filters[left ? 1 : 0].mightContain(keyBytes, from, to)) {
            try (KeyValueIterator<Bytes, byte[]> it =
                    other.range(Codec.bufferKey(keyBytes, from, 0L), Codec.bufferKey(keyBytes, to, Long.MAX_VALUE))) {
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
        if (matches != null && spec.distinctRows() && hasTwin(own, keyBytes, eventTime, valueBytes)) {
            return false;
        }
        List<KeyValue<Bytes, byte[]>> toMark = null;
        if (matches != null) {
            for (KeyValue<Bytes, byte[]> kv : matches) {
                byte[] row = kv.value;
                emitMatch(left, key, value, row, recordTs, headers);
                if (markOther && !Codec.matched(row)) {
                    if (toMark == null) {
                        toMark = new ArrayList<>();
                    }
                    toMark.add(KeyValue.pair(kv.key, matchedCopy(row)));
                }
            }
        }
        if (toMark != null) {
            KeyValueStore<Bytes, byte[]> otherLogged = left ? rightBuffer : leftBuffer;
            for (KeyValue<Bytes, byte[]> kv : toMark) {
                otherLogged.put(kv.key, kv.value);
            }
        }
        return insert(left, keyBytes, eventTime, valueBytes, recordTs, matches != null ? Codec.MATCHED : 0, idHash, m);
    }

    /** @return the serialized id of a row of a side with {@code distinctBy}, or null for a side without */
    @SuppressWarnings("unchecked")
    private byte[] idBytes(boolean left, K key, Object value) {
        if (left) {
            return leftIds == null ? null : leftIds.of(leftTopic, key, (L) value);
        }
        return rightIds == null ? null : rightIds.of(rightTopic, key, (R) value);
    }

    /**
     * @param from the side's first live time at the current watermark ({@link #firstLiveTime})
     * @return whether the side's buffer holds a live row (not evictable at the current watermark) of this key with
     *     this id: one scan of the key's live rows. Rows already evictable but not yet evicted do not count, so whether
     *     a copy is dropped does not depend on when eviction passes run.
     */
    private boolean holdsId(
            boolean left, KeyValueStore<Bytes, byte[]> own, K key, byte[] keyBytes, byte[] idBytes, long from) {
        try (KeyValueIterator<Bytes, byte[]> it = own.range(
                Codec.bufferKey(keyBytes, from, 0L), Codec.bufferKey(keyBytes, Long.MAX_VALUE, Long.MAX_VALUE))) {
            while (it.hasNext()) {
                if (Arrays.equals(rowIdBytes(left, key, it.next().value), idBytes)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return the smallest event time of a row of this side that is live (not evictable) at {@code watermark} */
    private long firstLiveTime(boolean left, long watermark) {
        return watermark == Codec.NONE ? Long.MIN_VALUE : Codec.saturatedAdd(maxEvictableTime(left, watermark), 1);
    }

    /**
     * @return the largest event time of a row of this side that is evictable at {@code watermark} (left:
     *     {@code wm > t + upper}, right: {@code wm > t - lower}; with {@code distinctRows} or {@code distinctBy} also
     *     not before {@code wm > t})
     */
    private long maxEvictableTime(boolean left, long watermark) {
        long offset = left ? spec.upperMs() : -spec.lowerMs();
        if (spec.keepsRowsUntilOwnTime()) {
            // Keep a row at least until it is itself behind the watermark, so that a later copy of it is late (with
            // lower <= 0 <= upper, as in the usual bounds, this changes nothing).
            offset = Math.max(offset, 0);
        }
        // evictable iff t + offset < wm  <=>  t <= wm - offset - 1
        return Codec.saturatedAdd(Codec.saturatedAdd(watermark, -offset), -1);
    }

    /** Counts a row dropped as a copy of a buffered row of its side ({@code distinctBy}). */
    private void duplicate(boolean left) {
        int s = left ? 0 : 1;
        if (duplicateSensors[s] == null) {
            duplicateSensors[s] = sideSensors[s].counter(
                    "duplicate-records",
                    IntervalJoin.DUPLICATE_RECORDS_TOTAL,
                    "Records dropped by the interval join as copies (same key and id) of a buffered row of their side");
        }
        duplicateSensors[s].record();
    }

    /**
     * Left semi join (Spark's {@code StreamingSymmetricHashJoinExec} for {@code LeftSemi}): a left row with a match in
     * the right buffer is emitted once (with the first match) and not buffered; an unmatched left row is buffered. A
     * right row emits every buffered left row it matches that has not matched yet (Spark's
     * {@code excludeRowsAlreadyMatched}), marks them matched, and is always buffered.
     *
     * @return true when {@code m} changed (sequence block allocation)
     */
    @SuppressWarnings("unchecked")
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
        KeyValueStore<Bytes, byte[]> other = left ? rightRead : leftRead;
        Bytes start = Codec.bufferKey(keyBytes, from, 0L);
        Bytes end = Codec.bufferKey(keyBytes, to, Long.MAX_VALUE);
        if (!filters[left ? 1 : 0].mightContain(keyBytes, from, to)) {
            // nothing to match: a left row waits for its match, a right row is only buffered
            return insert(left, keyBytes, eventTime, valueBytes, recordTs, (byte) 0, 0L, m);
        }
        if (left) {
            try (KeyValueIterator<Bytes, byte[]> it = other.range(start, end)) {
                if (it.hasNext()) {
                    emitMatch(true, key, value, it.next().value, recordTs, headers);
                    return false;
                }
            }
        } else {
            List<KeyValue<Bytes, byte[]>> toMark = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = other.range(start, end)) {
                while (it.hasNext()) {
                    KeyValue<Bytes, byte[]> kv = it.next();
                    if (!Codec.matched(kv.value)) {
                        toMark.add(kv);
                    }
                }
            }
            for (KeyValue<Bytes, byte[]> kv : toMark) {
                emitMatch(false, key, value, kv.value, recordTs, headers);
                leftBuffer.put(kv.key, matchedCopy(kv.value)); // a row of the left side: changelogged
            }
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

    /** @return a copy of a buffered row with its matched flag set (outer and semi joins) */
    private static byte[] matchedCopy(byte[] row) {
        byte[] copy = row.clone();
        copy[0] |= Codec.MATCHED;
        return copy;
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
        long seq = nextSeq(m);
        boolean metaChanged = seqAllocated;
        seqAllocated = false;
        Bytes bufferKey = Codec.bufferKey(keyBytes, eventTime, seq);
        // The row is changelogged; its time-index entry is not (rebuilt from the rows with each task incarnation).
        (left ? leftBuffer : rightBuffer).put(bufferKey, Codec.bufferValue(flags, recordTs, valueBytes));
        (left ? leftIndex : rightIndex).put(Codec.indexKeyFromBufferKey(bufferKey.get()), EMPTY);
        int s = left ? 0 : 1;
        filters[s].add(keyBytes, eventTime);
        if (idFilters[s] != null) {
            idFilters[s].add(idHash, eventTime);
        }
        if (eventTime < lowest[s]) {
            lowest[s] = eventTime;
        }
        return metaChanged;
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

    /** @return whether the side's buffer holds a row with this key, time and payload (one seek) */
    private static boolean hasTwin(
            KeyValueStore<Bytes, byte[]> buffer, byte[] keyBytes, long eventTime, byte[] valueBytes) {
        try (KeyValueIterator<Bytes, byte[]> it = buffer.range(
                Codec.bufferKey(keyBytes, eventTime, 0L), Codec.bufferKey(keyBytes, eventTime, Long.MAX_VALUE))) {
            while (it.hasNext()) {
                if (Codec.hasPayload(it.next().value, valueBytes)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * One bounded eviction pass over one side: removes rows that can no longer match (left: {@code wm > t + upper};
     * right: {@code wm > t - lower}; with {@code distinctRows} also not before {@code wm > t}), emitting unmatched ones
     * with null for outer joins.
     *
     * @return the number of rows evicted
     */
    int evict(boolean left, long watermark, int budget) {
        return evict(left, watermark, budget, 1);
    }

    /**
     * @param minSpanMs skip the pass unless the evictable rows may span at least this many ms of event time (when
     *     the lowest buffered time is known)
     * @see #evict(boolean, long, int)
     */
    private int evict(boolean left, long watermark, int budget, long minSpanMs) {
        if (watermark == Codec.NONE) {
            return 0;
        }
        int s = left ? 0 : 1;
        long maxTime = maxEvictableTime(left, watermark);
        if (lowest[s] > maxTime) {
            return 0;
        }
        // evictable times are in [lowest, maxTime]: fewer than minSpanMs of them, wait for more
        if (lowest[s] != Long.MIN_VALUE && Codec.saturatedAdd(maxTime, -lowest[s]) < minSpanMs - 1) {
            return 0;
        }
        KeyValueStore<Bytes, byte[]> buffer = left ? leftBuffer : rightBuffer;
        KeyValueStore<Bytes, byte[]> index = left ? leftIndex : rightIndex;
        boolean emit =
                left ? spec.joinType().emitsUnmatchedLeft() : spec.joinType().emitsUnmatchedRight();
        List<Bytes> evicted = new ArrayList<>();
        boolean more;
        // Start at the known lower bound, not at the index start: RocksDB would otherwise skip over the tombstones of
        // every row evicted so far on each pass.
        Bytes from = lowest[s] == Long.MIN_VALUE ? Codec.indexLowerBound() : Codec.indexLowerBound(lowest[s]);
        try (KeyValueIterator<Bytes, byte[]> it = index.range(from, Codec.indexUpperBound(maxTime))) {
            while (evicted.size() < budget && it.hasNext()) {
                evicted.add(it.next().key);
            }
            more = it.hasNext();
        }
        if (!evicted.isEmpty()) {
            // Rows at or below the watermark are deleted locally, without a changelog tombstone: the eviction marker
            // written below covers them (a restore deletes them itself). Rows above it (evictable early with bounds
            // that exclude the row's own time) are deleted through the changelog. Index entries are local. Rows are
            // read first only when an outer join must emit them unmatched.
            List<KeyValue<Bytes, byte[]>> localDeletes = new ArrayList<>(evicted.size());
            List<KeyValue<Bytes, byte[]>> loggedDeletes = null;
            List<KeyValue<Bytes, byte[]>> indexDeletes = new ArrayList<>(evicted.size());
            for (Bytes indexKey : evicted) {
                Bytes bufferKey = Codec.bufferKeyFromIndexKey(indexKey.get());
                if (emit) {
                    byte[] row = buffer.get(bufferKey);
                    if (row != null && !Codec.matched(row)) {
                        emitUnmatched(left, bufferKey.get(), row);
                    }
                }
                if (Codec.indexKeyTime(indexKey.get()) <= watermark) {
                    localDeletes.add(KeyValue.pair(bufferKey, null));
                } else {
                    if (loggedDeletes == null) {
                        loggedDeletes = new ArrayList<>();
                    }
                    loggedDeletes.add(KeyValue.pair(bufferKey, null));
                }
                indexDeletes.add(KeyValue.pair(indexKey, null));
            }
            (left ? leftRead : rightRead).putAll(localDeletes);
            if (loggedDeletes != null) {
                buffer.putAll(loggedDeletes);
            }
            index.putAll(indexDeletes);
        }
        if (!more) {
            lowest[s] = maxTime == Long.MAX_VALUE ? maxTime : maxTime + 1;
        } else if (!evicted.isEmpty()) {
            lowest[s] = Codec.indexKeyTime(evicted.get(evicted.size() - 1).get());
        }
        if (lowest[s] != Long.MIN_VALUE) {
            filters[s].dropBefore(lowest[s]);
            if (idFilters[s] != null) {
                idFilters[s].dropBefore(lowest[s]);
            }
            if (!evicted.isEmpty()) {
                advanceEvictionMarker(s, buffer, Math.min(lowest[s] - 1, watermark));
            }
        }
        return evicted.size();
    }

    /**
     * Persists (changelogged, in the side's buffer store) that every row of side {@code s} with an event time at or
     * below {@code evictedThrough} has been evicted: {@code lowest[s]} is a lower bound of the side's buffered times,
     * and no row at or below the watermark can be inserted any more (it would be late). One write per eviction pass
     * instead of a tombstone per evicted row; a restore deletes the rows the marker covers ({@link EvictedRowSweeper},
     * {@link #rebuildIndex}).
     */
    private void advanceEvictionMarker(int s, KeyValueStore<Bytes, byte[]> buffer, long evictedThrough) {
        if (evictedThrough > shared.evictedThrough[s]) {
            shared.evictedThrough[s] = evictedThrough;
            buffer.put(Codec.evictionMarkerKey(), ByteLayout.longValue(evictedThrough));
        }
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
     * Rebuilds a side's time index from its rows: called once per task incarnation, at init, after the buffer has been
     * restored from its changelog (Kafka Streams initializes processors only then). The index is local (not
     * changelogged), so a restored or migrated task starts without it, and a persistent one may miss the entries of
     * rows written after its last flush before a crash: it is cleared and written anew. Index entries found in the
     * buffer itself (the layout before the index had its own store) are deleted.
     */
    private void rebuildIndex(boolean left, BufferKeyFilter filter, BufferKeyFilter idFilter) {
        KeyValueStore<Bytes, byte[]> buffer = left ? leftBuffer : rightBuffer;
        KeyValueStore<Bytes, byte[]> index = left ? leftIndex : rightIndex;
        StoreWriteBatch toIndex = new StoreWriteBatch(index, REBUILD_BATCH);
        try (KeyValueIterator<Bytes, byte[]> it = index.all()) {
            while (it.hasNext()) {
                toIndex.put(it.next().key, null);
            }
        }
        toIndex.flush();
        // Rows evicted before the restart without a tombstone (at or below the eviction marker) are deleted here,
        // locally, unless the restore has swept them already.
        long evictedThrough = EvictedRowSweeper.marker(buffer);
        shared.evictedThrough[left ? 0 : 1] = evictedThrough;
        StoreWriteBatch evicted = new StoreWriteBatch(left ? leftRead : rightRead, REBUILD_BATCH);
        try (KeyValueIterator<Bytes, byte[]> it = buffer.range(Codec.rowsStart(), Codec.rowsEnd())) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> row = it.next();
                Bytes rowKey = row.key;
                if (Codec.isRowKey(rowKey.get())) {
                    byte[] keyBytes = Codec.bufferKeyUserKey(rowKey.get());
                    long eventTime = Codec.bufferKeyTime(rowKey.get());
                    if (eventTime <= evictedThrough) {
                        evicted.put(rowKey, null);
                        continue;
                    }
                    filter.add(keyBytes, eventTime);
                    if (idFilter != null) {
                        K key = keyDeserializer.deserialize(topic(left), keyBytes);
                        idFilter.add(BufferKeyFilter.hash(keyBytes, rowIdBytes(left, key, row.value)), eventTime);
                    }
                    toIndex.put(Codec.indexKeyFromBufferKey(rowKey.get()), EMPTY);
                }
            }
        }
        evicted.flush();
        toIndex.flush();
        StoreWriteBatch toBuffer = new StoreWriteBatch(buffer, REBUILD_BATCH);
        try (KeyValueIterator<Bytes, byte[]> it =
                buffer.range(Codec.indexLowerBound(), Codec.indexUpperBound(Long.MAX_VALUE))) {
            while (it.hasNext()) {
                toBuffer.put(it.next().key, null);
            }
        }
        toBuffer.flush();
    }

    /** @return the serialized id of a buffered row of {@code key} (a side with {@code distinctBy}) */
    private byte[] rowIdBytes(boolean left, K key, byte[] row) {
        return idBytes(left, key, deserializeValue(left, Codec.payload(row)));
    }

    /** Sets this side's eviction hint from the oldest index entry (one seek); called at task init. */
    void initEvictionHint(boolean left) {
        KeyValueStore<Bytes, byte[]> index = left ? leftIndex : rightIndex;
        long min = Long.MAX_VALUE;
        try (KeyValueIterator<Bytes, byte[]> it =
                index.range(Codec.indexLowerBound(), Codec.indexUpperBound(Long.MAX_VALUE))) {
            if (it.hasNext()) {
                min = Codec.indexKeyTime(it.next().key.get());
            }
        }
        lowest[left ? 0 : 1] = min;
    }

    /** Spark's rule for stateful operators ({@link Watermarks#isLate}), with {@link Codec#NONE} as "no watermark yet". */
    private static boolean isLate(long eventTime, long watermark) {
        return watermark != Codec.NONE && Watermarks.isLate(eventTime, watermark);
    }

    /**
     * The watermark guard: the record's event time is too far ahead of the wall clock. It is not joined and does not
     * feed its side's max event time; it is counted and, with a late-records topic, written there.
     */
    void tooFarAhead(boolean left, Record<K, ?> record) {
        markActive(left);
        late(left, true, record.key(), serializeValue(left, record.value()), record.timestamp(), record.headers());
    }

    private void late(boolean left, boolean tooFarAhead, K key, byte[] valueBytes, long recordTs, Headers headers) {
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

    /** Recomputes the global watermark from the side maxima; it never moves backwards. @return true when it moved */
    boolean advanceGlobal(Meta m) {
        long lw = m.leftMax == Codec.NONE ? Codec.NONE : Codec.saturatedAdd(m.leftMax, -spec.leftDelayMs());
        long rw = m.rightMax == Codec.NONE ? Codec.NONE : Codec.saturatedAdd(m.rightMax, -spec.rightDelayMs());
        long candidate;
        if (spec.policy() == WatermarkPolicy.MIN) {
            boolean leftIdle = false;
            boolean rightIdle = false;
            if (idleTimeoutMs > 0) {
                long now = context.currentSystemTimeMs();
                leftIdle = idle(0, now);
                rightIdle = idle(1, now);
            }
            if (leftIdle && rightIdle) {
                candidate = Codec.NONE; // all inputs idle: hold the watermark (as Flink)
            } else if (leftIdle) {
                candidate = rw; // idle input left out of the min
            } else if (rightIdle) {
                candidate = lw;
            } else {
                candidate = (lw == Codec.NONE || rw == Codec.NONE) ? Codec.NONE : Math.min(lw, rw);
            }
        } else {
            candidate = Math.max(lw, rw);
        }
        if (candidate != Codec.NONE && Watermarks.advances(candidate, m.global)) {
            m.global = candidate;
            return true;
        }
        return false;
    }

    /** @return the task's live metadata (shared by both sides), loaded on first use in this task incarnation */
    Meta readMeta() {
        if (shared.meta == null) {
            shared.meta = loadMeta();
        }
        return shared.meta;
    }

    /**
     * Loads the persisted metadata. When the watermarks are persisted lazily, the side maxima are completed from the
     * buffers: the newest row of each side is still buffered (see {@link #lazyMetaAllowed}), so the restored maxima,
     * and the global watermark derived from them, equal those before the restart; the persisted global watermark is
     * kept when it is higher, so the watermark never moves backwards.
     */
    private Meta loadMeta() {
        Meta m = Meta.decode(meta.get(META_KEY));
        if (lazyMeta) {
            m.observe(true, newestBuffered(leftIndex));
            m.observe(false, newestBuffered(rightIndex));
            advanceGlobal(m);
        }
        return m;
    }

    /** @return the largest buffered event time of a side (one reverse seek on its time index), or NONE */
    private static long newestBuffered(KeyValueStore<Bytes, byte[]> index) {
        try (KeyValueIterator<Bytes, byte[]> it =
                index.reverseRange(Codec.indexLowerBound(), Codec.indexUpperBound(Long.MAX_VALUE))) {
            return it.hasNext() ? Codec.indexKeyTime(it.next().key.get()) : Codec.NONE;
        }
    }

    /**
     * Whether the watermarks need not be persisted with every change. They can be recovered after a restart when each
     * side's newest row is never evicted while it is the newest and the global watermark is a function of the side
     * maxima alone: policy MIN, not a left semi join (a left row matched on arrival is never buffered), no idle
     * timeout (idleness depends on the wall clock), and
     * {@code upper >= -leftDelay} (a left row leaves once {@code wm > t + upper}, and {@code wm <= leftMax - leftDelay})
     * and {@code lower <= rightDelay} (a right row leaves once {@code wm > t - lower}, {@code wm <= rightMax -
     * rightDelay}). A late record ({@code t <= wm <= max - delay}) never raises a side's maximum; a copy dropped by
     * {@code distinctBy} may, and then the change is written ({@link #joinAndInsert}). Otherwise every change is
     * written.
     */
    static boolean lazyMetaAllowed(JoinSpec<?, ?, ?> spec, long idleTimeoutMs) {
        return spec.policy() == WatermarkPolicy.MIN
                && spec.joinType() != JoinType.LEFT_SEMI // a left row matched on arrival is not buffered
                && idleTimeoutMs <= 0
                && spec.upperMs() >= -spec.leftDelayMs()
                && spec.lowerMs() <= spec.rightDelayMs();
    }

    private long nextSeq(Meta m) {
        if (nextSeq >= seqEnd) {
            nextSeq = m.seqHigh;
            seqEnd = nextSeq + SEQ_BLOCK;
            m.seqHigh = seqEnd;
            seqAllocated = true;
        }
        return nextSeq++;
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

    void close() {
        for (OperatorSensors s : sideSensors) {
            s.close();
        }
    }
}
