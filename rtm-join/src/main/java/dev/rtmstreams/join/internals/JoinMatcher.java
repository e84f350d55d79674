package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.ValueJoiner3;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The matching of one join task, as one side processor runs it under either contract (real-time and micro-batch): a
 * row that is not late probes the other side's buffer, each match is forwarded, and the row is buffered on its own
 * side ({@link SideBuffer}, with a sequence number from {@link JoinMeta}); eviction passes remove the rows that can no
 * longer match and forward those never matched when the join emits them (outer joins).
 */
final class JoinMatcher<K, L, R, VR> {

    private final JoinSpec<K, L, R> spec;
    private final ValueJoiner3<K, L, R, VR> joiner;
    private final ProcessorContext<K, Object> context;
    private final JoinSerdes<K, L, R> serdes;
    /** Per side (0 = left, 1 = right). */
    private final SideBuffer[] sides;

    private final JoinMeta meta;
    private final JoinDrops<K> drops;
    /** Per side: receives the rows eviction finds unmatched when the join emits them (outer joins); else null. */
    private final List<BiConsumer<byte[], byte[]>> unmatched = new ArrayList<>(2);

    JoinMatcher(
            JoinSpec<K, L, R> spec,
            ValueJoiner3<K, L, R, VR> joiner,
            ProcessorContext<K, Object> context,
            JoinSerdes<K, L, R> serdes,
            SideBuffer[] sides,
            JoinMeta meta,
            JoinDrops<K> drops) {
        this.spec = spec;
        this.joiner = joiner;
        this.context = context;
        this.serdes = serdes;
        this.sides = sides;
        this.meta = meta;
        this.drops = drops;
        unmatched.add(spec.joinType().emitsUnmatchedLeft() ? (k, row) -> emitUnmatched(true, k, row) : null);
        unmatched.add(spec.joinType().emitsUnmatchedRight() ? (k, row) -> emitUnmatched(false, k, row) : null);
    }

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
    boolean joinAndInsert(
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
        byte[] idBytes = serdes.idBytes(left, key, value);
        if (idBytes != null) {
            idHash = BufferKeyFilter.hash(keyBytes, idBytes);
            // the (key, id) filter, asked over the live rows' segments only, spares the scan of a row that has no copy
            // buffered (nearly every row)
            if (own.holdsId(
                    keyBytes,
                    idHash,
                    lateWatermark,
                    row -> Arrays.equals(serdes.rowIdBytes(left, key, row), idBytes))) {
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
                ? joiner.apply(key, (L) value, serdes.rightValue(Codec.payload(otherRow)))
                : joiner.apply(key, serdes.leftValue(Codec.payload(otherRow)), (R) value);
        context.forward(new Record<K, Object>(key, out, Math.max(recordTs, Codec.recordTs(otherRow)), headers));
    }

    private void emitUnmatched(boolean left, byte[] bufferKey, byte[] row) {
        K key = serdes.deserializeKey(left, Codec.bufferKeyUserKey(bufferKey));
        VR out;
        if (left) {
            out = joiner.apply(key, serdes.leftValue(Codec.payload(row)), null);
        } else {
            out = joiner.apply(key, null, serdes.rightValue(Codec.payload(row)));
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

    /**
     * One bounded eviction pass over a side ({@link SideBuffer#evict}), forwarding the evicted rows that never matched
     * when the join emits that side's unmatched rows.
     *
     * @param minSpanMs skip the pass unless the evictable rows may span at least this many ms of event time
     * @return the number of rows evicted (at most {@code maxEvictionsPerPass})
     */
    int evict(boolean left, long watermark, long minSpanMs) {
        return side(left).evict(watermark, spec.maxEvictionsPerPass(), minSpanMs, unmatched.get(left ? 0 : 1));
    }

    private SideBuffer side(boolean left) {
        return sides[left ? 0 : 1];
    }
}
