package dev.rtmstreams.join.internals;

import java.util.List;
import org.apache.kafka.common.utils.Bytes;

/**
 * The time order of one side's buffered rows, for eviction ({@link SideBuffer}): which rows have an event time at or
 * below a bound, oldest first. Derived from the buffer (never changelogged) and rebuilt from it when a task starts.
 * Rows of equal time come in the order of their index key ({@link Codec#indexKeyFromBufferKey}: key length, key,
 * sequence), whatever the implementation, so eviction (and an outer join's unmatched output) does not depend on it.
 */
interface TimeIndex {

    /** Adds a buffered row, by its buffer key ({@link Codec#bufferKey}), at its event time. */
    void add(byte[] bufferKey, long eventTime);

    /**
     * Removes up to {@code max} rows with an event time at or below {@code maxTime}, oldest first.
     *
     * @param from a lower bound of the indexed times (a hint: no row is older)
     * @param maxTime the largest event time to remove
     * @param max how many rows at most
     * @param out receives the removed rows' buffer keys, in order
     * @return whether rows at or below {@code maxTime} remain
     */
    boolean poll(long from, long maxTime, int max, List<Bytes> out);

    /** @return the smallest indexed event time, or {@link Long#MAX_VALUE} when empty */
    long oldest();

    /** @return the largest indexed event time, or {@link Codec#NONE} when empty */
    long newest();

    /** Removes every row. */
    void clear();

    /** Starts a run of {@link #add}s that need not be visible until {@link #endBulk} (a rebuild). */
    default void startBulk() {}

    /** Ends a run of adds started by {@link #startBulk}. */
    default void endBulk() {}
}
