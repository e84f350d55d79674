package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.OperatorStores;
import dev.rtmstreams.processor.spi.StoreWriteBatch;
import dev.rtmstreams.processor.spi.TimeQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The buffered rows of one side of a join task, as one side processor sees them: the changelogged buffer store, its
 * local time index, the key (and id) filters, and eviction. Layouts are {@link Codec}'s.
 *
 * <p>Each side's rows are inserted and evicted by exactly one processor (its own side's in real-time mode, the left
 * one for both sides in micro-batch mode); the other processor only probes. The time index is the operator shell's
 * {@link TimeQueue} (task-shared, with its lower bound of the buffered times); what is the join's own is the entries'
 * codec ({@link Codec#INDEX_ENTRIES}), which rows are evictable, and the eviction marker. Eviction may lag (it runs every few records of the side and on a punctuator): a row that is
 * evictable can never match a non-late record of the other side, so lazy eviction never changes the output, only the
 * state size.
 *
 * <p>With {@link EvictionIndex#SEGMENTS} (inner joins) the rows are keyed by time segment first
 * ({@link Codec#segmentRowKey}) and there is no time index: a probe reads the segments its time range overlaps, and
 * eviction deletes each segment the watermark has wholly passed with one range deletion. A row can then outlive its
 * own eviction time by up to a segment, which changes no output (a probe's range bounds the times it matches).
 */
final class SideBuffer {

    private static final int REBUILD_BATCH = 1_000;

    private final boolean left;
    private final int side;
    private final JoinSpec<?, ?, ?> spec;
    /** Changelogged writes of rows. */
    private final KeyValueStore<Bytes, byte[]> buffer;
    /**
     * The buffer without Kafka Streams' metered and change-logging layers: reads (each probe is an iterator, and the
     * metered layer registers, times and deregisters every iterator, measured at ~3% of a real-time stream thread),
     * and the deletes of evicted rows, which the eviction marker covers instead of a tombstone each. Granted by
     * {@link OperatorStores#localWrites} because the buffer's {@link BufferRestorer} re-derives them on restore.
     */
    private final KeyValueStore<Bytes, byte[]> local;
    /**
     * Time index of the rows (their buffer keys), with a lower bound of the buffered times: not changelogged, rebuilt
     * from the buffer by the first processor of a task.
     */
    private final TimeQueue index;
    /** The time segments' length with {@link EvictionIndex#SEGMENTS}; 0 for plain row keys and a time index. */
    private final long segmentMs;

    private final JoinTaskState shared;
    /** Which keys the buffer may hold (shared by the task's two side processors). */
    private final BufferKeyFilter keys;
    /** Which (key, id) pairs the buffer may hold, for a side with {@code distinctBy}; else null. */
    private final BufferKeyFilter ids;
    /** The rows inserted but not yet in the changelog (shared by the task's side processors). */
    private final RowBatch pending;
    /**
     * Whether rows go to the changelog in batches before each commit: only when the store can run an action before
     * each commit (a store built by {@code OperatorStores}); otherwise each row is written through at once.
     */
    private final boolean batched;

    SideBuffer(boolean left, JoinSpec<?, ?, ?> spec, ProcessorContext<?, ?> context, JoinTaskState shared) {
        this.left = left;
        this.side = left ? 0 : 1;
        this.spec = spec;
        this.buffer = context.getStateStore(left ? spec.leftBufferStore() : spec.rightBufferStore());
        this.local = OperatorStores.localWrites(buffer);
        this.index = shared.timeIndexes[side];
        this.segmentMs = spec.evictionIndex() == EvictionIndex.SEGMENTS ? segmentMs(spec) : 0;
        this.shared = shared;
        this.keys = shared.filters[side];
        this.ids = shared.idFilters[side];
        this.pending = shared.pending[side];
        // a batch record goes to the changelog only: its rows are in the local store already, one by one
        this.batched = OperatorStores.beforeCommit(buffer, this::beforeCommit)
                && OperatorStores.changelogOnly(buffer, k -> RowBatch.isBatchKey(k.get()));
    }

    /** @return the filter of the (key, id) pairs a side with {@code distinctBy} holds, else null */
    static BufferKeyFilter newIdFilter(JoinSpec<?, ?, ?> spec, boolean left) {
        boolean distinct = left ? spec.leftDistinctBy() != null : spec.rightDistinctBy() != null;
        if (!distinct) {
            return null;
        }
        // asked over all of the side's live rows: from the first live time (a row stays until the watermark is past it
        // by the side's eviction offset) to the newest rows (up to a watermark delay ahead of the watermark)
        long liveSpan =
                Codec.saturatedAdd(Math.max(spec.leftDelayMs(), spec.rightDelayMs()), evictionOffset(spec, left));
        return new BufferKeyFilter(BufferKeyFilter.segmentMsForLiveSpan(liveSpan, segmentMs(spec)));
    }

    static BufferKeyFilter newKeyFilter(JoinSpec<?, ?, ?> spec) {
        return new BufferKeyFilter(segmentMs(spec));
    }

    /** @return a side's time index: on the heap, or in the side's local index store; null with segments */
    static TimeQueue newTimeIndex(JoinSpec<?, ?, ?> spec, ProcessorContext<?, ?> context, boolean left) {
        if (spec.evictionIndex() == EvictionIndex.SEGMENTS) {
            return null;
        }
        if (spec.evictionIndex() == EvictionIndex.HEAP) {
            return TimeQueue.onHeap(Codec.INDEX_ENTRIES);
        }
        return TimeQueue.inStore(
                OperatorStores.localWrites(
                        context.getStateStore(left ? spec.leftIndexStore() : spec.rightIndexStore())),
                Codec.INDEX_ENTRIES);
    }

    private static long segmentMs(JoinSpec<?, ?, ?> spec) {
        return BufferKeyFilter.segmentMsFor(spec.lowerMs(), spec.upperMs());
    }

    // ---------------------------------------------------------------- probes

    /** @return false when no row of {@code keyBytes} with an event time in {@code [from, to]} can be buffered */
    boolean mightHold(byte[] keyBytes, long from, long to) {
        return keys.mightContain(keyBytes, from, to);
    }

    /** @return the rows of {@code keyBytes} with an event time in {@code [from, to]}, in time order */
    KeyValueIterator<Bytes, byte[]> rows(byte[] keyBytes, long from, long to) {
        writeLocal();
        if (segmentMs == 0) {
            return local.range(Codec.bufferKey(keyBytes, from, 0L), Codec.bufferKey(keyBytes, to, Long.MAX_VALUE));
        }
        long newest = shared.newest[side];
        long first = Math.max(segmentOf(from), shared.oldestSegment[side]);
        long last = newest == Codec.NONE ? Long.MIN_VALUE : Math.min(segmentOf(to), segmentOf(newest));
        return new SegmentedRows(local, keyBytes, from, to, segmentMs, first, last, keys);
    }

    /**
     * @return the start of the time segment holding {@code eventTime}; for times in the lowest partial segment of the
     *     {@code long} range (where the start would overflow), the lowest segment start
     */
    private long segmentOf(long eventTime) {
        long q = Math.floorDiv(eventTime, segmentMs);
        long lowest = Long.MIN_VALUE / segmentMs;
        return (q < lowest ? lowest : q) * segmentMs;
    }

    /** @return the row key of this side's layout */
    private Bytes rowKey(byte[] keyBytes, long eventTime, long seq) {
        return segmentMs == 0
                ? Codec.bufferKey(keyBytes, eventTime, seq)
                : Codec.segmentRowKey(segmentOf(eventTime), keyBytes, eventTime, seq);
    }

    /** Notes a buffered row's time in the segment bounds (segmented layout). */
    private void noteSegmentRow(long eventTime) {
        shared.oldestSegment[side] = Math.min(shared.oldestSegment[side], segmentOf(eventTime));
        shared.newest[side] = Math.max(shared.newest[side], eventTime);
    }

    /**
     * @param watermark the global watermark
     * @param idHash the (key, id) hash of a row ({@link BufferKeyFilter#hash(byte[], byte[])})
     * @param sameId whether a buffered row value carries the row's id
     * @return whether the side holds a live row (not evictable at {@code watermark}) of this key with this id: the id
     *     filter first, then one scan of the key's live rows. Rows already evictable but not yet evicted do not count,
     *     so whether a copy is dropped does not depend on when eviction passes run.
     */
    boolean holdsId(byte[] keyBytes, long idHash, long watermark, Predicate<byte[]> sameId) {
        long from = firstLiveTime(watermark);
        if (!ids.mightContain(idHash, from, Long.MAX_VALUE)) {
            return false;
        }
        try (KeyValueIterator<Bytes, byte[]> it = rows(keyBytes, from, Long.MAX_VALUE)) {
            while (it.hasNext()) {
                if (sameId.test(it.next().value)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return whether the side holds a row with this key, time and payload (one seek) */
    boolean hasTwin(byte[] keyBytes, long eventTime, byte[] valueBytes) {
        try (KeyValueIterator<Bytes, byte[]> it = rows(keyBytes, eventTime, eventTime)) {
            while (it.hasNext()) {
                if (Codec.hasPayload(it.next().value, valueBytes)) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- writes

    /**
     * Buffers a row (changelogged; its index entry is local); {@code idHash} is its (key, id) hash on a side with
     * {@code distinctBy} (ignored otherwise). With batched changelog writes the row and its index entry reach the local
     * stores only when the side is next read ({@link #writeLocal}): one RocksDB write batch per store for the rows
     * inserted in between, instead of two RocksDB writes per row.
     */
    void insert(byte[] keyBytes, long eventTime, long seq, byte[] bufferValue, long idHash) {
        Bytes bufferKey = rowKey(keyBytes, eventTime, seq);
        if (segmentMs == 0) {
            index.add(bufferKey.get(), eventTime);
        } else {
            noteSegmentRow(eventTime);
        }
        keys.add(keyBytes, eventTime);
        if (ids != null) {
            ids.add(idHash, eventTime);
        }
        if (!batched) {
            buffer.put(bufferKey, bufferValue);
        } else if (pending.add(bufferKey, seq, bufferValue)) {
            flushPending();
        }
    }

    /**
     * Writes the rows inserted since the last call, and their index entries, to the local stores (a batch each): before
     * every read of the side's rows or index (a probe, a copy check, an eviction pass, a changelog batch), and on each
     * punctuation, so that interactive queries see a row at most one punctuation interval after it arrived. A crash
     * before it loses nothing: the rows are not in the changelog either, and their inputs are not committed.
     */
    void writeLocal() {
        if (!batched) {
            return;
        }
        List<KeyValue<Bytes, byte[]>> rows = pending.notLocal();
        if (!rows.isEmpty()) {
            local.putAll(rows);
            pending.localWritten();
            if (index != null) {
                index.flushBulk(); // the rows' index entries
            }
        }
    }

    /**
     * Writes the rows inserted since the last call to the changelog, as one {@link RowBatch} record: before each
     * commit of the task, when the batch is full, and before any other changelog write of the side (so that a restore
     * replays the side's changes in order).
     */
    void flushPending() {
        writeLocal();
        if (!pending.isEmpty()) {
            KeyValue<Bytes, byte[]> record = pending.take();
            // to the changelog only (see the constructor): the rows are in the local store already
            buffer.put(record.key, record.value);
        }
    }

    /** Rewrites buffered rows with their matched flag set (outer and semi joins), through the changelog. */
    void markMatched(List<KeyValue<Bytes, byte[]>> rows) {
        flushPending();
        for (KeyValue<Bytes, byte[]> kv : rows) {
            byte[] copy = kv.value.clone();
            copy[0] |= Codec.MATCHED;
            buffer.put(kv.key, copy);
        }
    }

    // ---------------------------------------------------------------- eviction

    /** @return the smallest event time of a row of this side that is live (not evictable) at {@code watermark} */
    long firstLiveTime(long watermark) {
        return watermark == Codec.NONE ? Long.MIN_VALUE : Codec.saturatedAdd(maxEvictableTime(watermark), 1);
    }

    /**
     * @return the largest event time of a row of this side that is evictable at {@code watermark} (left:
     *     {@code wm > t + upper}, right: {@code wm > t - lower}, Spark's state watermark for inclusive bounds; with
     *     {@code distinctRows} or {@code distinctBy} also not before {@code wm > t})
     */
    long maxEvictableTime(long watermark) {
        // evictable iff t + offset < wm  <=>  t <= wm - offset - 1
        return Codec.saturatedAdd(Codec.saturatedAdd(watermark, -evictionOffset(spec, left)), -1);
    }

    /** @return how far the watermark must pass a row of the side before it is evictable ({@code t + offset < wm}) */
    private static long evictionOffset(JoinSpec<?, ?, ?> spec, boolean left) {
        long offset = left ? spec.upperMs() : -spec.lowerMs();
        if (spec.keepsRowsUntilOwnTime()) {
            // Keep a row at least until it is itself behind the watermark, so that a later copy of it is late (with
            // lower <= 0 <= upper, as in the usual bounds, this changes nothing).
            offset = Math.max(offset, 0);
        }
        return offset;
    }

    /**
     * One bounded eviction pass: removes rows that can no longer match, in time order, handing each unmatched one to
     * {@code unmatched} first when the join emits this side's unmatched rows.
     *
     * @param minSpanMs skip the pass unless the evictable rows may span at least this many ms of event time (when
     *     the lowest buffered time is known)
     * @param unmatched receives (buffer key, row) of each evicted row that never matched; null: none are emitted
     * @return the number of rows evicted
     */
    int evict(long watermark, int budget, long minSpanMs, BiConsumer<byte[], byte[]> unmatched) {
        if (watermark == Codec.NONE) {
            return 0;
        }
        long maxTime = maxEvictableTime(watermark);
        if (segmentMs != 0) {
            return evictSegments(watermark, maxTime);
        }
        long lowest = index.lowerBound();
        if (lowest > maxTime) {
            return 0;
        }
        // evictable times are in [lowest, maxTime]: fewer than minSpanMs of them, wait for more
        if (lowest != Long.MIN_VALUE && Codec.saturatedAdd(maxTime, -lowest) < minSpanMs - 1) {
            return 0;
        }
        writeLocal();
        List<Bytes> evicted = new ArrayList<>();
        index.poll(maxTime, budget, evicted); // raises the index's lower bound to where the evicted rows ended
        if (!evicted.isEmpty()) {
            delete(evicted, watermark, unmatched);
        }
        lowest = index.lowerBound();
        if (lowest != Long.MIN_VALUE) {
            keys.dropBefore(lowest);
            if (ids != null) {
                ids.dropBefore(lowest);
            }
            if (!evicted.isEmpty()) {
                advanceEvictionMarker(Math.min(lowest - 1, watermark));
            }
        }
        return evicted.size();
    }

    /**
     * Evicts every time segment the rows of which are all evictable (those ending at or before {@code maxTime}): one
     * range deletion, local only (the eviction marker covers it in the changelog).
     *
     * @return the number of segments evicted
     */
    private int evictSegments(long watermark, long maxTime) {
        long oldest = shared.oldestSegment[side];
        if (oldest == Long.MAX_VALUE || maxTime == Long.MAX_VALUE) {
            return 0;
        }
        long kept = segmentOf(maxTime + 1); // every segment before it ends at or before maxTime
        if (kept <= oldest) {
            return 0;
        }
        writeLocal(); // so that no pending row of those segments reaches the store after the deletion
        OperatorStores.deleteRange(buffer, Codec.segmentBound(oldest), Codec.segmentBound(kept));
        shared.oldestSegment[side] = kept;
        keys.dropBefore(kept);
        if (ids != null) {
            ids.dropBefore(kept);
        }
        advanceEvictionMarker(Math.min(kept - 1, watermark));
        return (int) Math.min(Integer.MAX_VALUE, (kept - oldest) / segmentMs);
    }

    /**
     * Deletes evicted rows (their index entries are gone already). Rows at or below the watermark are deleted locally,
     * without a changelog tombstone: the eviction marker covers them (a restore deletes them itself). Rows above it
     * (evictable early with bounds that exclude the row's own time) are deleted through the changelog. Rows are read
     * first only when an outer join must emit them unmatched.
     */
    private void delete(List<Bytes> bufferKeys, long watermark, BiConsumer<byte[], byte[]> unmatched) {
        List<KeyValue<Bytes, byte[]>> localDeletes = new ArrayList<>(bufferKeys.size());
        List<KeyValue<Bytes, byte[]>> loggedDeletes = null;
        for (Bytes bufferKey : bufferKeys) {
            if (unmatched != null) {
                byte[] row = local.get(bufferKey);
                if (row != null && !Codec.matched(row)) {
                    unmatched.accept(bufferKey.get(), row);
                }
            }
            if (Codec.bufferKeyTime(bufferKey.get()) <= watermark) {
                localDeletes.add(KeyValue.pair(bufferKey, null));
            } else {
                if (loggedDeletes == null) {
                    loggedDeletes = new ArrayList<>();
                }
                loggedDeletes.add(KeyValue.pair(bufferKey, null));
            }
        }
        local.putAll(localDeletes);
        if (loggedDeletes != null) {
            flushPending();
            buffer.putAll(loggedDeletes);
        }
    }

    /**
     * Persists (changelogged, in the buffer store, before the next commit) that every row with an event time at or
     * below {@code evictedThrough} has been evicted: the index's lower bound bounds the buffered times from below, and no row at
     * or below the watermark can be inserted any more (it would be late). One write per eviction pass instead of a
     * tombstone per evicted row; a restore deletes the rows the marker covers ({@link BufferRestorer},
     * {@link #rebuild}).
     */
    private void advanceEvictionMarker(long evictedThrough) {
        if (evictedThrough > shared.evictedThrough[side]) {
            shared.evictedThrough[side] = evictedThrough;
            if (batched) {
                shared.markerUnwritten[side] = true; // written before the next commit, with the pass's emissions
            } else {
                writeMarker();
            }
        }
    }

    private void writeMarker() {
        buffer.put(Codec.evictionMarkerKey(), ByteLayout.longValue(shared.evictedThrough[side]));
    }

    /**
     * Before each commit of the task: the pending rows, then the eviction marker if it moved. The marker waits for
     * the commit so that it never persists an eviction whose outputs (unmatched rows of an outer join) were not
     * committed: a crash before the commit restores the evicted rows, which are evicted (and emitted) again.
     */
    private void beforeCommit() {
        flushPending();
        if (shared.markerUnwritten[side]) {
            shared.markerUnwritten[side] = false;
            writeMarker();
        }
    }

    // ---------------------------------------------------------------- task start

    /**
     * Rebuilds the time index and the filters from the rows: called once per task incarnation, at init, after the
     * buffer has been restored from its changelog (Kafka Streams initializes processors only then). The index is
     * local (not changelogged), so a restored or migrated task starts without it, and a persistent one may miss the
     * entries of rows written after its last flush before a crash: it is cleared and written anew. Rows evicted before
     * the restart without a tombstone (at or below the eviction marker) are deleted, unless the restore swept them
     * already. Index entries found in the buffer itself (the layout before the index had its own store) are deleted.
     * With segments there is no index: the rows give the segment bounds. Rows keyed in the other layout (written
     * before {@link EvictionIndex#SEGMENTS} was switched on or off) are rewritten under this layout's keys.
     *
     * @param rowId the serialized id of a buffered row of a key (a side with {@code distinctBy}); ignored otherwise
     */
    void rebuild(RowId rowId) {
        if (index != null) {
            index.clear();
            index.startBulk();
        }
        long evictedThrough = BufferRestorer.marker(buffer);
        shared.evictedThrough[side] = evictedThrough;
        StoreWriteBatch evicted = new StoreWriteBatch(local, REBUILD_BATCH);
        List<KeyValue<Bytes, byte[]>> otherLayout = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = buffer.range(Codec.rowsStart(), Codec.rowsEnd())) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> row = it.next();
                byte[] rowKey = row.key.get();
                if (!Codec.isRowKey(rowKey)) {
                    continue;
                }
                long eventTime = Codec.bufferKeyTime(rowKey);
                if (eventTime <= evictedThrough) {
                    evicted.put(row.key, null);
                    continue;
                }
                byte[] keyBytes = Codec.bufferKeyUserKey(rowKey);
                if (Codec.isSegmentRowKey(rowKey) != (segmentMs != 0)) {
                    otherLayout.add(row); // written before the eviction index setting changed
                    continue;
                }
                addRebuilt(keyBytes, rowKey, eventTime, row.value, rowId);
            }
        }
        evicted.flush();
        // rows of the other layout are rewritten under this side's keys, through the changelog
        StoreWriteBatch migrated = new StoreWriteBatch(buffer, REBUILD_BATCH);
        for (KeyValue<Bytes, byte[]> row : otherLayout) {
            byte[] oldKey = row.key.get();
            byte[] keyBytes = Codec.bufferKeyUserKey(oldKey);
            long eventTime = Codec.bufferKeyTime(oldKey);
            Bytes key = rowKey(keyBytes, eventTime, Codec.bufferKeySeq(oldKey));
            migrated.put(row.key, null);
            migrated.put(key, row.value);
            addRebuilt(keyBytes, key.get(), eventTime, row.value, rowId);
        }
        migrated.flush();
        if (index != null) {
            index.endBulk();
            if (batched) {
                index.startBulk(); // entries of new rows reach the index store with the rows (writeLocal)
            }
        }
        StoreWriteBatch legacyIndex = new StoreWriteBatch(buffer, REBUILD_BATCH);
        try (KeyValueIterator<Bytes, byte[]> it =
                buffer.range(Codec.indexLowerBound(), Codec.indexUpperBound(Long.MAX_VALUE))) {
            while (it.hasNext()) {
                legacyIndex.put(it.next().key, null);
            }
        }
        legacyIndex.flush();
    }

    /** Adds a buffered row found at task start to the filters, and to the time index or the segment bounds. */
    private void addRebuilt(byte[] keyBytes, byte[] rowKey, long eventTime, byte[] row, RowId rowId) {
        keys.add(keyBytes, eventTime);
        if (ids != null) {
            ids.add(BufferKeyFilter.hash(keyBytes, rowId.apply(keyBytes, row)), eventTime);
        }
        if (index != null) {
            index.add(rowKey, eventTime);
        } else {
            noteSegmentRow(eventTime);
        }
    }

    /** The serialized id of a buffered row of a side with {@code distinctBy}. */
    @FunctionalInterface
    interface RowId {
        /**
         * @param keyBytes the row's serialized key
         * @param row the row value ({@link Codec#bufferValue})
         * @return the row's serialized id
         */
        byte[] apply(byte[] keyBytes, byte[] row);
    }

    /** Sets the index's lower bound from its oldest entry (one seek); called at task init. */
    void initEvictionHint() {
        writeLocal();
        if (index != null) {
            index.seekLowerBound();
        }
    }

    /** @return the largest buffered event time (from the time index), or {@link Codec#NONE} */
    long newest() {
        writeLocal();
        return index != null ? index.newest() : shared.newest[side];
    }
}
