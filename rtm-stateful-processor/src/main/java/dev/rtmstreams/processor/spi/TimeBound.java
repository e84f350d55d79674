package dev.rtmstreams.processor.spi;

/**
 * A lower bound of the times of a time-ordered queue's entries, and the one rule that moves it: lowered by every
 * entry added below it, raised after a pass that removed entries in time order to where they ended. Scans start at the
 * bound instead of the queue's start: removed entries leave tombstones that RocksDB would otherwise step over on every
 * pass until a compaction drops them. Used by {@link TimeSection} (queues in a store: the join's store-backed index,
 * transformWithState's timers and TTL index) and by the heap queue.
 */
final class TimeBound {

    /** Every entry is at this time or later. */
    private long from = Long.MIN_VALUE;
    /** The smallest time added since the current pass started. */
    private long addedInPass = Long.MAX_VALUE;

    long get() {
        return from;
    }

    /** An entry was added at {@code time}. */
    void added(long time) {
        if (time < from) {
            from = time;
        }
        if (time < addedInPass) {
            addedInPass = time;
        }
    }

    /** Sets the bound: {@code time} must be at or below every entry's time. */
    void set(long time) {
        from = time;
    }

    /** A pass starts: entries added from now until {@link #passed} keep the bound at or below their time. */
    void startPass() {
        addedInPass = Long.MAX_VALUE;
    }

    /**
     * The entries a pass took have been removed: what stays is at the last taken time or later (the pass stopped on
     * its budget), or after the pass's largest time (it took all up to there): at the next entry it saw, if any.
     * Entries added meanwhile keep the bound at or below their time.
     */
    void passed(TimeSection.Pass pass) {
        long rest;
        if (pass.more()) {
            rest = pass.taken() > 0 ? pass.lastTime() : from;
        } else if (pass.next() != Long.MAX_VALUE) {
            rest = pass.next();
        } else {
            rest = pass.maxTime() == Long.MAX_VALUE ? Long.MAX_VALUE : pass.maxTime() + 1;
        }
        from = Math.min(Math.max(from, rest), addedInPass);
        addedInPass = Long.MAX_VALUE;
    }
}
