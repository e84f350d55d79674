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
    STATE_STORE
}
