package dev.rtmstreams.join.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinType;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code StreamingOuterJoinSuite} (sql/core/src/test/scala/org/apache/spark/sql/streaming/
 * StreamingJoinSuite.scala) to {@link IntervalJoin}; see {@link SparkJoinPort} for how Spark's inputs and conditions
 * are expressed. Every expected output is Spark's.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"left outer early state exclusion on left", "left outer early state exclusion on right", "right outer early
 *       state exclusion on left", "right outer early state exclusion on right": a one-side predicate in the join
 *       condition ({@code leftValue > 4}); the join has no residual condition (filter the input instead).</li>
 *   <li>"windowed left outer join", "windowed right outer join": the window struct as join key, whose rows Spark
 *       evicts (and emits unmatched) when {@code window.end <= watermark}; the time-range join evicts a row by its
 *       own time, so the outer rows of one window come out at different watermarks.</li>
 *   <li>"left outer join with non-key condition violated": residual non-key condition, as above.</li>
 *   <li>"SPARK-26187 restore the stream-stream outer join query from Spark 2.4": Spark checkpoint format.</li>
 *   <li>"SPARK-29438: ensure UNION doesn't lead stream-stream join to use shifted partition IDs": Spark partition
 *       ids of a union.</li>
 *   <li>"left-outer: joining non-nullable left join key with nullable right join key", "left-outer: joining
 *       nullable left join key with non-nullable right join key", "left-outer: joining nullable left join key with
 *       nullable right join key": windowed outer joins (as above) on null-safe keys ({@code <=>}); a Kafka Streams
 *       join drops records with a null key.</li>
 *   <li>"SPARK-38684: outer join works correctly even if processing input rows and evicting state rows for same
 *       grouping key happens in the same micro-batch": runs with {@code noDataMicroBatches.enabled=false} (eviction
 *       one batch later); the join always evicts at the batch end, as Spark's default no-data batch.</li>
 * </ul>
 */
class SparkStreamingOuterJoinSuiteTest {

    @Test
    @DisplayName("StreamingOuterJoinSuite: left outer with watermark range condition")
    void shouldEmitTheUnmatchedLeftRowWhenTheWatermarkPassesTheRange() {
        rangeCondition(JoinType.LEFT_OUTER, "3,null,5,null");
    }

    @Test
    @DisplayName("StreamingOuterJoinSuite: right outer with watermark range condition")
    void shouldEmitTheUnmatchedRightRowWhenTheWatermarkPassesTheRange() {
        rangeCondition(JoinType.RIGHT_OUTER, "null,2,null,5");
    }

    private static void rangeCondition(JoinType type, String outerResult) {
        try (SparkJoinPort p = SparkJoinPort.rangeCondition(
                type, Duration.ofSeconds(10), Duration.ofSeconds(5), SparkJoinPort.KEYS_THEN_TIMES)) {
            p.left(1, 5).left(3, 5);
            assertThat(p.batch()).isEmpty();
            p.right(1, 10).right(2, 5);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,5,10");
            p.right(1, 11);
            assertThat(p.batch()).isEmpty(); // no match as left time is too low
            // Increase event time watermark to 20s by adding data with time = 30s on both inputs
            p.left(1, 7).left(1, 30);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,7,10", "1,1,7,11");
            p.right(0, 30); // watermark = 30 - 10 = 20, no-data-batch computes nulls
            assertThat(p.batch()).containsExactlyInAnyOrder(outerResult);
        }
        // Spark runs the second part twice, with the bound written "interval 3 minutes 30 seconds" and
        // "interval '3:30' minute to second": one Duration here.
        try (SparkJoinPort p = SparkJoinPort.rangeCondition(
                type, Duration.ofMinutes(10), Duration.ofSeconds(210), SparkJoinPort.KEYS_THEN_TIMES)) {
            p.left(1, 210).left(3, 5);
            assertThat(p.batch()).isEmpty();
            p.right(1, 300).right(2, 5);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,210,300");
            p.right(1, 450);
            assertThat(p.batch()).isEmpty();
            p.left(1, 260).left(1, 1800);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,260,300", "1,1,260,450");
            p.right(0, 1800);
            assertThat(p.batch()).containsExactlyInAnyOrder(outerResult);
        }
    }

    @Test
    @DisplayName(
            "StreamingOuterJoinSuite: SPARK-26187 self left outer join should not return outer nulls for already matched rows")
    void shouldNotEmitNullsForMatchedRowsWhenSelfLeftOuter() {
        try (SparkJoinPort p = SparkJoinPort.selfJoin(JoinType.LEFT_OUTER, SparkJoinPort.LEFT_THEN_RIGHT)) {
            p.selfRows(1, 5); // batch 1 - global watermark = 0
            assertThat(p.batch()).containsExactlyInAnyOrder("2,2,2,2", "4,4,4,4");
            p.selfRows(6, 10); // batch 2 - global watermark = 5
            assertThat(p.batch()).containsExactlyInAnyOrder("6,6,6,6", "8,8,8,8", "10,10,10,10");
            p.selfRows(11, 15); // batch 3: left (1, 1L), (2, 2L), (3, 3L) evicted
            assertThat(p.batch())
                    .containsExactlyInAnyOrder("12,12,12,12", "14,14,14,14", "1,1,null,null", "3,3,null,null");
        }
    }

    @Test
    @DisplayName(
            "StreamingOuterJoinSuite: SPARK-26187 self right outer join should not return outer nulls for already matched rows")
    void shouldNotEmitNullsForMatchedRowsWhenSelfRightOuter() {
        // left and right flipped: the even rows on the left, all rows on the right,
        // leftTime BETWEEN rightTime AND rightTime + 5 s  <=>  right.time in [left.time - 5 s, left.time]
        try (SparkJoinPort p = new SparkJoinPort(
                SparkJoinPort.range(
                        JoinType.RIGHT_OUTER,
                        Duration.ofSeconds(-5),
                        Duration.ZERO,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(5)),
                SparkJoinPort.LEFT_THEN_RIGHT)) {
            flippedSelfRows(p, 1, 5);
            assertThat(p.batch()).containsExactlyInAnyOrder("2,2,2,2", "4,4,4,4");
            flippedSelfRows(p, 6, 10);
            assertThat(p.batch()).containsExactlyInAnyOrder("6,6,6,6", "8,8,8,8", "10,10,10,10");
            flippedSelfRows(p, 11, 15);
            assertThat(p.batch())
                    .containsExactlyInAnyOrder("12,12,12,12", "14,14,14,14", "null,null,1,1", "null,null,3,3");
        }
    }

    private static void flippedSelfRows(SparkJoinPort p, int from, int to) {
        for (int v = from; v <= to; v++) {
            if (v % 2 == 0) {
                p.left(v, v);
            }
            p.right(v, v);
        }
    }

    @Test
    @DisplayName("StreamingOuterJoinSuite: SPARK-32148 stream-stream join regression on Spark 3.0.0")
    void shouldEmitMatchesAndTheUnmatchedLeftRowWhenAllRowsArriveInOneBatch() {
        // left.eventTime BETWEEN right.eventTime - 30 s AND right.eventTime + 30 s; watermark delays 2 and 4 minutes
        try (SparkJoinPort p = new SparkJoinPort(
                SparkJoinPort.range(
                        JoinType.LEFT_OUTER,
                        Duration.ofSeconds(-30),
                        Duration.ofSeconds(30),
                        Duration.ofMinutes(2),
                        Duration.ofMinutes(4)),
                (k, l, r) -> l + "," + r)) {
            p.leftRaw("abc", "has no join partner", at("2020-01-01T00:00:00Z"))
                    .leftRaw("abc", "joined with A", at("2020-01-02T00:00:00Z"))
                    .leftRaw("abc", "joined with B", at("2020-01-02T01:00:00Z"));
            p.rightRaw("abc", "A", at("2020-01-02T00:00:10Z"))
                    .rightRaw("abc", "B", at("2020-01-02T00:59:59Z"))
                    .rightRaw("abc", "C", at("2020-01-02T02:00:00Z"));
            assertThat(p.batch())
                    .containsExactlyInAnyOrder("has no join partner,null", "joined with A,A", "joined with B,B");
        }
    }

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }
}
