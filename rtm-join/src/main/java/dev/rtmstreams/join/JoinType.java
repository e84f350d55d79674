package dev.rtmstreams.join;

/**
 * Kind of {@link IntervalJoin}. Outer joins emit an unmatched buffered row with {@code null} for the other side
 * exactly once, when the global watermark proves that no match can come any more (the row is evicted).
 */
public enum JoinType {
    /** Only matched pairs. */
    INNER,
    /** Matched pairs, plus every left row that never matched, joined with {@code null}. */
    LEFT_OUTER,
    /** Matched pairs, plus every right row that never matched, joined with {@code null}. */
    RIGHT_OUTER,
    /** Matched pairs, plus unmatched rows of both sides, each joined with {@code null}. */
    FULL_OUTER;

    /** @return true when unmatched left rows are emitted */
    public boolean emitsUnmatchedLeft() {
        return this == LEFT_OUTER || this == FULL_OUTER;
    }

    /** @return true when unmatched right rows are emitted */
    public boolean emitsUnmatchedRight() {
        return this == RIGHT_OUTER || this == FULL_OUTER;
    }
}
