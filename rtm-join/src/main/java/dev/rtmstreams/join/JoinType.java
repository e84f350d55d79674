package dev.rtmstreams.join;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Kind of {@link IntervalJoin}. Outer joins emit an unmatched buffered row with {@code null} for the other side
 * exactly once, when the global watermark proves that no match can come any more (the row is evicted). A left semi
 * join emits each left row once, on its first match.
 */
@InterfaceStability.Evolving
public enum JoinType {
    /** Only matched pairs. */
    INNER,
    /** Matched pairs, plus every left row that never matched, joined with {@code null}. */
    LEFT_OUTER,
    /** Matched pairs, plus every right row that never matched, joined with {@code null}. */
    RIGHT_OUTER,
    /** Matched pairs, plus unmatched rows of both sides, each joined with {@code null}. */
    FULL_OUTER,
    /**
     * Each left row that has at least one match, emitted once, as soon as its first match is present (Spark's
     * {@code left_semi} stream-stream join, {@code StreamingSymmetricHashJoinExec}). A left row that finds a match on
     * arrival is emitted and not buffered; an unmatched one is buffered, emitted with the first right row that
     * matches it and never again, and evicted silently when the watermark passes it. Right rows are buffered as in an
     * inner join, since later left rows may match them. Use {@link IntervalJoin#semiJoin} for the left values
     * themselves (Spark's output); {@link IntervalJoin#join} calls its joiner with the right row of that first match.
     */
    LEFT_SEMI;

    /** @return true when unmatched left rows are emitted */
    public boolean emitsUnmatchedLeft() {
        return this == LEFT_OUTER || this == FULL_OUTER;
    }

    /** @return true when unmatched right rows are emitted */
    public boolean emitsUnmatchedRight() {
        return this == RIGHT_OUTER || this == FULL_OUTER;
    }
}
