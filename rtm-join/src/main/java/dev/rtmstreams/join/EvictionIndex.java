package dev.rtmstreams.join;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Where an {@link IntervalJoin} keeps the time order of each side's buffered rows, which eviction follows. Either way
 * the index is derived from the buffer (never changelogged) and rebuilt from it when a task starts, and the join's
 * output is the same.
 */
@InterfaceStability.Evolving
public enum EvictionIndex {
    /**
     * On the JVM heap, in per-second arrays of the rows' buffer keys (no object per row): about the key's size plus
     * 25 bytes of heap per buffered row. It spares each row a put and a delete in a local store, but in three A/B runs
     * at 10k events/s it did not lower the service's CPU beyond the runs' noise and doubled the GC pause time, so it is
     * not the default.
     */
    HEAP,
    /**
     * In a local (not changelogged) store per side, of the join's store backend: two store writes per row, and no heap
     * however large the buffer. The default.
     */
    STATE_STORE,
    /**
     * No per-row index: each side's rows are keyed by time segment first (segments of half the join interval's width,
     * at least a second), a probe reads the segments its time range overlaps, and eviction deletes a segment once the
     * watermark has passed all of it, with one range deletion (RocksDB then drops whole files, and the buffer stores
     * use level compaction, which rewrites little of a store whose writes go to its newest segments). A row may stay
     * buffered up to one segment longer than with the other indexes; the output is the same. Only for
     * {@link JoinType#INNER} joins (outer and semi joins emit each unmatched row when the watermark passes it, which
     * needs the per-row order). Switching a join to or from it is a restart like any other: the rows are rewritten
     * under the new layout's keys when the task starts.
     */
    SEGMENTS
}
