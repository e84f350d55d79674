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
     * 25 bytes of heap per buffered row. The default: it spares each row a put and a delete in a local store.
     */
    HEAP,
    /**
     * In a local (not changelogged) store per side, of the join's store backend: for buffers whose index would not fit
     * the heap (for example a long join window at a high rate), at the cost of two store writes per row.
     */
    STATE_STORE
}
