package dev.rtmstreams.join.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinType;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code StreamingFullOuterJoinSuite} (sql/core/src/test/scala/org/apache/spark/sql/streaming/
 * StreamingJoinSuite.scala) to {@link IntervalJoin}; see {@link SparkJoinPort}. Every expected output is Spark's.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"windowed full outer join": the window struct as join key, evicted by {@code window.end}; the time-range join
 *       evicts a row by its own time, so the outer rows of one window come out at different watermarks.</li>
 *   <li>"full outer early state exclusion on left", "full outer early state exclusion on right": a one-side
 *       predicate in the join condition; the join has no residual condition (filter the input instead).</li>
 * </ul>
 */
class SparkStreamingFullOuterJoinSuiteTest {

    @Test
    @DisplayName("StreamingFullOuterJoinSuite: full outer join with watermark range condition")
    void shouldEmitUnmatchedRowsOfBothSidesWhenTheWatermarkPassesTheRange() {
        try (SparkJoinPort p = SparkJoinPort.rangeCondition(
                JoinType.FULL_OUTER, Duration.ofSeconds(10), Duration.ofSeconds(5), SparkJoinPort.KEYS_THEN_TIMES)) {
            p.left(1, 5).left(3, 5);
            assertThat(p.batch()).isEmpty();
            p.right(1, 10).right(2, 5);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,5,10"); // match left row in the state
            p.right(1, 9);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,5,9"); // match left row in the state
            // Increase event time watermark to 20s by adding data with time = 30s on both inputs
            p.left(1, 7).left(1, 30);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,7,9", "1,1,7,10");
            // Watermark = 30 - 10 = 20, no matched row: outer rows for all non-matched rows
            p.right(0, 30);
            assertThat(p.batch()).containsExactlyInAnyOrder("3,null,5,null", "null,2,null,5");
        }
    }

    @Test
    @DisplayName("StreamingFullOuterJoinSuite: self full outer join")
    void shouldEmitOnlyTheUnmatchedRowsWhenSelfFullOuter() {
        try (SparkJoinPort p = SparkJoinPort.selfJoin(JoinType.FULL_OUTER, SparkJoinPort.LEFT_THEN_RIGHT)) {
            p.selfRows(1, 5); // batch 1 - global watermark = 0
            assertThat(p.batch()).containsExactlyInAnyOrder("2,2,2,2", "4,4,4,4");
            p.selfRows(6, 10); // batch 2 - global watermark = 5
            assertThat(p.batch()).containsExactlyInAnyOrder("6,6,6,6", "8,8,8,8", "10,10,10,10");
            p.selfRows(11, 15); // batch 3: left (1, 1L), (2, 2L), (3, 3L) evicted
            assertThat(p.batch())
                    .containsExactlyInAnyOrder("12,12,12,12", "14,14,14,14", "1,1,null,null", "3,3,null,null");
        }
    }
}
