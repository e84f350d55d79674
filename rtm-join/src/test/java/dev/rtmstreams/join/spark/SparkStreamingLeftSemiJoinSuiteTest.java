package dev.rtmstreams.join.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.WatermarkPolicy;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code StreamingLeftSemiJoinSuite} (sql/core/src/test/scala/org/apache/spark/sql/streaming/
 * StreamingJoinSuite.scala) to {@link IntervalJoin} with {@link JoinType#LEFT_SEMI}; see {@link SparkJoinPort}.
 * Every expected output is Spark's.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"left semi early state exclusion on left", "left semi early state exclusion on right": a one-side predicate
 *       in the join condition; the join has no residual condition (filter the input instead).</li>
 * </ul>
 */
class SparkStreamingLeftSemiJoinSuiteTest {

    @Test
    @DisplayName("StreamingLeftSemiJoinSuite: windowed left semi join")
    void shouldEmitEachMatchedLeftRowOnceWhenWindowed() {
        try (SparkJoinPort p = SparkJoinPort.windowed(
                JoinType.LEFT_SEMI,
                Duration.ofSeconds(10),
                Duration.ofSeconds(10),
                WatermarkPolicy.MIN,
                SparkJoinPort.WINDOWED_SEMI)) {
            p.leftValues(1, 2, 3, 4, 5).rightValues(3, 4, 5, 6, 7);
            assertThat(p.batch()).containsExactlyInAnyOrder("3,10,6", "4,10,8", "5,10,10");
            p.leftValues(21).rightValues(22); // watermark = 11, should remove rows having window=[0,10]
            assertThat(p.batch()).isEmpty();
            p.leftValues(22);
            assertThat(p.batch()).containsExactlyInAnyOrder("22,30,44");
            // StopStream, StartStream
            p.leftValues(1);
            assertThat(p.batch()).isEmpty(); // row not added as 1 < state key watermark = 12
            p.rightValues(5);
            assertThat(p.batch()).isEmpty(); // row not added as 5 < state key watermark = 12
        }
    }

    @Test
    @DisplayName("StreamingLeftSemiJoinSuite: left semi join with watermark range condition")
    void shouldEmitALeftRowOnlyOnItsFirstMatchWhenRangeCondition() {
        try (SparkJoinPort p = SparkJoinPort.rangeCondition(
                JoinType.LEFT_SEMI, Duration.ofSeconds(10), Duration.ofSeconds(5), SparkJoinPort.LEFT_ONLY)) {
            p.left(1, 5).left(3, 5);
            assertThat(p.batch()).isEmpty();
            p.right(1, 10).right(2, 5);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,5"); // match left row in the state
            p.right(1, 9);
            assertThat(p.batch()).isEmpty(); // no match as left row is already matched
            // Increase event time watermark to 20s by adding data with time = 30s on both inputs
            p.left(1, 7).left(1, 30);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,7");
            p.right(0, 30); // watermark = 30 - 10 = 20, no matched row
            assertThat(p.batch()).isEmpty();
        }
    }

    @Test
    @DisplayName("StreamingLeftSemiJoinSuite: self left semi join")
    void shouldEmitEachMatchedLeftRowOnceWhenSelfJoined() {
        try (SparkJoinPort p = SparkJoinPort.selfJoin(JoinType.LEFT_SEMI, SparkJoinPort.LEFT_ONLY)) {
            p.selfRows(1, 5); // batch 1 - global watermark = 0
            assertThat(p.batch()).containsExactlyInAnyOrder("2,2", "4,4");
            p.selfRows(6, 10); // batch 2 - global watermark = 5
            assertThat(p.batch()).containsExactlyInAnyOrder("6,6", "8,8", "10,10");
            p.selfRows(11, 15); // batch 3 - global watermark = 9
            assertThat(p.batch()).containsExactlyInAnyOrder("12,12", "14,14");
        }
    }
}
