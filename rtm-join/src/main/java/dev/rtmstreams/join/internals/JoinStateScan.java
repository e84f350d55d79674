package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads a join's stores for the join state reader ({@code dev.rtmstreams.join.JoinStateReader}), with the layouts of
 * {@link Codec}: the rows of a side's buffer, skipping those the side's eviction marker covers (evicted, but still
 * present until a restore or the index rebuild sweeps them), a buffer changelog replayed into the buffer it stands
 * for, and the watermarks as the join itself would load them ({@link JoinMeta}). Never writes.
 */
public final class JoinStateScan {

    /** No value: no watermark, no max event time, no marker. */
    public static final long NONE = Codec.NONE;

    private JoinStateScan() {}

    /**
     * One buffered row.
     *
     * @param key the serialized join key
     * @param eventTime the row's event time
     * @param recordTimestamp the input record's timestamp
     * @param matched whether the row has matched (kept by outer and semi joins; false otherwise)
     * @param payload the serialized value
     */
    public record RawRow(byte[] key, long eventTime, long recordTimestamp, boolean matched, byte[] payload) {}

    /**
     * A join task's watermarks, {@link #NONE} where there is none yet.
     *
     * @param leftMax the left input's max event time
     * @param rightMax the right input's max event time
     * @param global the global watermark
     */
    public record RawWatermarks(long leftMax, long rightMax, long global) {}

    /**
     * @param buffer a side's buffer store (or a copy)
     * @param key a serialized join key; null for every key
     * @return the side's rows of {@code key} (of every key when null) above the side's eviction marker, ordered by
     *     key, event time and arrival
     */
    public static List<RawRow> rows(ReadOnlyKeyValueStore<Bytes, byte[]> buffer, byte[] key) {
        long marker = marker(buffer);
        List<RawRow> out = new ArrayList<>();
        if (key == null) {
            collect(buffer.range(Codec.rowsStart(), Codec.rowsEnd()), marker, out);
            // segmented rows (EvictionIndex.SEGMENTS) come segment by segment: in key order as plain rows are
            out.sort(Comparator.comparingInt((RawRow r) -> r.key().length)
                    .thenComparing(RawRow::key, Arrays::compareUnsigned)
                    .thenComparingLong(RawRow::eventTime));
            return out;
        }
        collect(buffer.range(rowsFrom(key), rowsTo(key)), marker, out);
        // segmented rows: one range per segment, found by seeking past the previous one (no segment length needed)
        Bytes seek = Codec.segmentBound(Long.MIN_VALUE);
        while (true) {
            long segment;
            try (KeyValueIterator<Bytes, byte[]> it = buffer.range(seek, Codec.rowsEnd())) {
                byte[] k = it.hasNext() ? it.next().key.get() : null;
                if (k == null || !Codec.isSegmentRowKey(k)) {
                    return out;
                }
                segment = Codec.segmentStart(k);
            }
            collect(
                    buffer.range(
                            Codec.segmentRowKey(segment, key, Long.MIN_VALUE, 0L),
                            Codec.segmentRowKey(segment, key, Long.MAX_VALUE, -1L)),
                    marker,
                    out);
            if (segment == Long.MAX_VALUE) {
                return out;
            }
            seek = Codec.segmentBound(segment + 1);
        }
    }

    /** Adds the rows of {@code entries} above {@code marker} to {@code out}, and closes {@code entries}. */
    private static void collect(KeyValueIterator<Bytes, byte[]> entries, long marker, List<RawRow> out) {
        try (entries) {
            while (entries.hasNext()) {
                KeyValue<Bytes, byte[]> kv = entries.next();
                byte[] k = kv.key.get();
                if (!Codec.isRowKey(k) || Codec.bufferKeyTime(k) <= marker) {
                    continue; // rows at or below the marker are evicted, only not yet swept
                }
                out.add(new RawRow(
                        Codec.bufferKeyUserKey(k),
                        Codec.bufferKeyTime(k),
                        Codec.recordTs(kv.value),
                        Codec.matched(kv.value),
                        Codec.payload(kv.value)));
            }
        }
    }

    /**
     * @param storeKey a key of a side's buffer store
     * @param key a serialized join key
     * @return whether {@code storeKey} is a row of {@code key}, in either layout
     */
    public static boolean isRowOf(byte[] storeKey, byte[] key) {
        return Codec.isRowKey(storeKey) && Arrays.equals(Codec.bufferKeyUserKey(storeKey), key);
    }

    /** @return the side's eviction marker in {@code buffer}: every row at or below it is evicted; {@link #NONE} */
    public static long marker(ReadOnlyKeyValueStore<Bytes, byte[]> buffer) {
        return markerTime(buffer.get(Codec.evictionMarkerKey()));
    }

    /** @return the time an eviction marker's value holds; {@link #NONE} for null (no marker) */
    public static long markerTime(byte[] markerValue) {
        return markerValue == null ? NONE : ByteLayout.getLong(markerValue, 0);
    }

    /** @return the largest event time of a row above the side's eviction marker (one scan), or {@link #NONE} */
    public static long newest(ReadOnlyKeyValueStore<Bytes, byte[]> buffer) {
        return newest(buffer.range(Codec.rowsStart(), Codec.rowsEnd()), marker(buffer));
    }

    /**
     * @param entries a side's buffer entries (closed here)
     * @param marker the side's eviction marker ({@link #marker}) or {@link #NONE}
     * @return the largest event time of a row above {@code marker}, or {@link #NONE}
     */
    public static long newest(KeyValueIterator<Bytes, byte[]> entries, long marker) {
        long newest = NONE;
        try (entries) {
            while (entries.hasNext()) {
                byte[] k = entries.next().key.get();
                if (Codec.isRowKey(k) && Codec.bufferKeyTime(k) > marker) {
                    newest = Math.max(newest, Codec.bufferKeyTime(k));
                }
            }
        }
        return newest;
    }

    /** @return the first key of a side's rows in its buffer store */
    public static Bytes allRowsFrom() {
        return Codec.rowsStart();
    }

    /** @return the first key after a side's rows in its buffer store */
    public static Bytes allRowsTo() {
        return Codec.rowsEnd();
    }

    /** @return the first possible row key of {@code key} */
    public static Bytes rowsFrom(byte[] key) {
        return Codec.bufferKey(key, Long.MIN_VALUE, 0L);
    }

    /** @return the last possible row key of {@code key} */
    public static Bytes rowsTo(byte[] key) {
        return Codec.bufferKey(key, Long.MAX_VALUE, -1L); // seq -1: all ones, the largest unsigned
    }

    /** @return the key of a side's eviction marker in its buffer store */
    public static Bytes markerKey() {
        return Codec.evictionMarkerKey();
    }

    /** @return the key of the meta record in the meta store */
    public static Bytes metaKey() {
        return JoinMeta.META_KEY;
    }

    /** @return the first key of a side's time index store */
    public static Bytes indexFrom() {
        return Codec.indexLowerBound();
    }

    /** @return the last key of a side's time index store */
    public static Bytes indexTo() {
        return Codec.indexUpperBound(Long.MAX_VALUE);
    }

    /** @return the event time of a time index key */
    public static long indexTime(byte[] indexKey) {
        return Codec.indexKeyTime(indexKey);
    }

    /**
     * Replays a side's buffer changelog (one partition, from the beginning) into the buffer it stands for, as a
     * restore does ({@link BufferRestorer}): row batches are expanded into their rows where they stand, a null value
     * deletes, and the rows at or below the newest eviction marker are dropped.
     *
     * @param records the changelog's records in offset order
     * @return the buffer's entries (rows and the marker)
     */
    public static NavigableMap<Bytes, byte[]> replayBuffer(Iterable<KeyValue<Bytes, byte[]>> records) {
        NavigableMap<Bytes, byte[]> m = new TreeMap<>();
        long marker = NONE;
        for (KeyValue<Bytes, byte[]> r : records) {
            byte[] k = r.key.get();
            if (r.value == null) {
                m.remove(r.key);
            } else if (RowBatch.isBatchKey(k)) {
                for (KeyValue<Bytes, byte[]> row : RowBatch.rows(r.value)) {
                    m.put(row.key, row.value);
                }
            } else {
                if (Arrays.equals(k, Codec.evictionMarkerKey().get())) {
                    marker = Math.max(marker, ByteLayout.getLong(r.value, 0));
                    m.put(r.key, ByteLayout.longValue(marker));
                    continue;
                }
                m.put(r.key, r.value);
            }
        }
        long evictedThrough = marker;
        m.keySet().removeIf(k -> Codec.isRowKey(k.get()) && Codec.bufferKeyTime(k.get()) <= evictedThrough);
        return m;
    }

    /**
     * Whether a join task's watermarks follow from its buffered rows alone: when the join recovers them from its
     * buffers after a restart ({@link JoinMeta#lazyAllowed}, with the idle timeout of the builder: one set only
     * through the application config is not seen) and no side drops copies by id ({@code distinctBy}: a dropped copy
     * with a later event time raises its side's max without being buffered, and the join then persists the max).
     *
     * @param spec the join
     * @return whether the rows prove the watermarks
     */
    public static boolean provenByRows(JoinSpec<?, ?, ?> spec) {
        return JoinMeta.lazyAllowed(spec, Math.max(0, spec.idleTimeoutMs()))
                && spec.leftDistinctBy() == null
                && spec.rightDistinctBy() == null;
    }

    /**
     * The watermarks a join task holds, derived as the task loads them after a restart ({@link JoinMeta}): the
     * persisted meta record, each side's max raised to its newest buffered row (the record may lag when the join
     * persists its watermarks lazily), and the global watermark recomputed from the maxima, never below the persisted
     * one. Idleness is not seen (it depends on the wall clock): a watermark an idle input let advance is persisted.
     *
     * @param spec the join
     * @param meta the meta record; null when the store holds none
     * @param metaAvailable whether the meta store was read at all (a state directory does not hold it: the store is
     *     in memory)
     * @param leftNewest the newest left row ({@link #newest}) or {@link #NONE}
     * @param rightNewest the newest right row or {@link #NONE}
     * @return the watermarks; null when they cannot be known: without the meta store, unless the rows prove them
     *     ({@link #provenByRows})
     */
    public static RawWatermarks watermarks(
            JoinSpec<?, ?, ?> spec, byte[] meta, boolean metaAvailable, long leftNewest, long rightNewest) {
        if (!metaAvailable && !provenByRows(spec)) {
            return null;
        }
        Meta m = Meta.decode(meta, JoinMeta.newWatermarks(spec, 0));
        m.observe(true, leftNewest);
        m.observe(false, rightNewest);
        m.watermarks.advance();
        return new RawWatermarks(m.max(true), m.max(false), m.global());
    }
}
