package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.MicroBatchBuffer;
import dev.rtmstreams.processor.spi.TimeQueue;

/**
 * The in-memory join state of one task, shared by its two side processors through the shell's task-shared object
 * ({@link dev.rtmstreams.processor.spi.TaskShared}): the
 * live {@link Meta} (side maxima, global watermark, sequence high mark). It is loaded from the changelogged meta store
 * (and, when that may be stale, from the buffers) the first time a side processor of a task incarnation needs it.
 */
final class JoinTaskState {
    /** The live metadata; null until loaded. */
    Meta meta;
    /** Whether both sides' time indexes and key filters have been rebuilt from the buffers in this task incarnation. */
    boolean indexesBuilt;
    /** Per side (0 = left, 1 = right): which keys its buffer may hold; set when the indexes are built. */
    BufferKeyFilter[] filters;
    /**
     * Per side: which (key, id) pairs its buffer may hold, for a side with {@code distinctBy}; null for a side without.
     * Set when the indexes are built.
     */
    BufferKeyFilter[] idFilters;
    /** Per side: the time index of its rows, for eviction; set when the indexes are built. */
    TimeQueue[] timeIndexes;
    /** Micro-batch: the inputs of both sides waiting for the next batch; set by the task's first side processor. */
    MicroBatchBuffer<MicroBatchInputs.Input> pendingInputs;
    /**
     * Micro-batch: the global watermark the last batch ran with (with or without inputs), which the next batch drops
     * late rows with, as Spark's watermark for late events; {@link Codec#NONE} for none. Not persisted: meaningful
     * once {@link #batchRan}.
     */
    long lastBatchWatermark = Codec.NONE;
    /** Micro-batch: whether a batch ran in this task incarnation (before that, the current watermark judges). */
    boolean batchRan;
    /**
     * Per side (0 = left, 1 = right): the persisted eviction marker (every row at or below it has been evicted), or
     * {@link Codec#NONE}; read when the indexes are built.
     */
    final long[] evictedThrough = {Codec.NONE, Codec.NONE};
    /** Per side: whether {@link #evictedThrough} moved since it was last written. */
    final boolean[] markerUnwritten = new boolean[2];
    /**
     * Per side, with segmented buffers ({@code EvictionIndex.SEGMENTS}): the start of the oldest time segment that may
     * hold rows, or {@link Long#MAX_VALUE} for none.
     */
    final long[] oldestSegment = {Long.MAX_VALUE, Long.MAX_VALUE};
    /** Per side, with segmented buffers: the largest buffered event time, or {@link Codec#NONE}. */
    final long[] newest = {Codec.NONE, Codec.NONE};
    /** Per side: rows written locally but not yet to the changelog ({@link RowBatch}). */
    final RowBatch[] pending = {new RowBatch(), new RowBatch()};
}
