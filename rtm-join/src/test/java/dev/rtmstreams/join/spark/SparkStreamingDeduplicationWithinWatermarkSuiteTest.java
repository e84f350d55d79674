package dev.rtmstreams.join.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.join.Deduplicate;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code StreamingDeduplicationWithinWatermarkSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/StreamingDeduplicationWithinWatermarkSuite.scala) to
 * {@link Deduplicate.Builder#withinWatermark}; see {@link SparkDedupPort}. Every expected output is Spark's.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"deduplicate in batch DataFrame": Spark batch DataFrames.</li>
 *   <li>"incremental cleanup factor does not change dropDuplicatesWithinWatermark output": a Spark state-store cleanup
 *       setting (the sequence is the one of "deduplicate with subset of columns ...", ported).</li>
 *   <li>"SPARK-39650: duplicate with specific keys should allow input to change schema": Spark state schema
 *       evolution.</li>
 *   <li>"SPARK-46676: canonicalization of StreamingDeduplicateWithinWatermarkExec should work": Spark plan.</li>
 *   <li>"Partition key extraction - DedupeWithinWatermark": Spark state store schema.</li>
 * </ul>
 */
class SparkStreamingDeduplicationWithinWatermarkSuiteTest {

    @Test
    @DisplayName(
            "StreamingDeduplicationWithinWatermarkSuite: deduplicate without event time column should result in error")
    void shouldRejectTheBuilderWhenNoWatermarkNorTtlIsGiven() {
        assertThatThrownBy(() -> SparkDedupPort.byKey("dedup").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("withinWatermark");
    }

    @Test
    @DisplayName(
            "StreamingDeduplicationWithinWatermarkSuite: deduplicate with all columns with event time column in DataFrame")
    void shouldDropCopiesAndLateRowsWhenDeduplicatingOnAllColumns() {
        try (SparkDedupPort p = new SparkDedupPort(in -> in.process(SparkDedupPort.byKey("dedup")
                .withinWatermark((k, v, ts) -> ts, Duration.ofSeconds(10))
                .build()))) {
            // Advance watermark to 5 secs, no-data-batch does not drop state rows
            for (int copy = 1; copy <= 5; copy++) {
                for (int v = 10; v <= 15; v++) {
                    p.add(String.valueOf(v), String.valueOf(v), v);
                }
            }
            assertThat(p.batch()).containsExactly("10", "11", "12", "13", "14", "15");
            // Advance watermark to 7 secs, no-data-batch does not drop state rows
            for (int v = 13; v <= 17; v++) {
                p.add(String.valueOf(v), String.valueOf(v), v);
            }
            assertThat(p.batch()).containsExactly("16", "17"); // 13 to 15 are duplicated
            p.add("5", "5", 5);
            assertThat(p.batch()).isEmpty(); // should not emit anything as data less than watermark
            // Advance watermark to 25 secs, no-data-batch drops state rows having expired time <= 25
            p.add("35", "35", 35);
            assertThat(p.batch()).containsExactly("35");
            // Advance watermark to 45 seconds, no-data-batch drops state rows having expired time <= 45
            p.add("55", "55", 55);
            assertThat(p.batch()).containsExactly("55");
        }
    }

    @Test
    @DisplayName(
            "StreamingDeduplicationWithinWatermarkSuite: deduplicate with subset of columns which event time column is not in subset")
    void shouldForgetAnIdOnceTheWatermarkReachesItsExpiryWhenTheEventTimeIsNotInTheKey() {
        try (SparkDedupPort p = new SparkDedupPort(in -> in.process(SparkDedupPort.byKey("dedup")
                .withinWatermark((k, v, ts) -> ts, Duration.ofSeconds(2))
                .build()))) {
            p.add("a", "a,17", 17); // advances watermark to 15; expired time is set to 19
            assertThat(p.batch()).containsExactly("a,17");
            p.add("a", "a,16", 16); // watermark does not advance
            assertThat(p.batch()).isEmpty();
            p.add("a", "a,13", 13); // should not emit anything as data less than watermark
            assertThat(p.batch()).isEmpty();
            // Advances watermark to 20. no-data batch drops state row ("a" -> 19)
            p.add("b", "b,22", 22).add("c", "c,21", 21);
            assertThat(p.batch()).containsExactly("b,22", "c,21");
            // "a" is identified as new event since previous batch dropped state row ("a" -> 19)
            p.add("a", "a,21", 21);
            assertThat(p.batch()).containsExactly("a,21");
            // Advances watermark to 23. no-data batch drops state row ("a" -> 23), ("c" -> 23)
            p.add("d", "d,25", 25);
            assertThat(p.batch()).containsExactly("d,25");
        }
    }

    @Test
    @DisplayName(
            "StreamingDeduplicationWithinWatermarkSuite: SPARK-50492: drop event time column after dropDuplicatesWithinWatermark")
    void shouldEmitTheRowWhenTheEventTimeIsNotPartOfTheOutput() {
        // (first = 1 s, _2 = 2), deduplicated by _2, output _2
        try (SparkDedupPort p = new SparkDedupPort(in -> in.process(SparkDedupPort.byKey("dedup")
                .withinWatermark((k, v, ts) -> ts, Duration.ofSeconds(10))
                .build()))) {
            p.add("2", "2", 1);
            assertThat(p.batch()).containsExactly("2");
        }
    }
}
