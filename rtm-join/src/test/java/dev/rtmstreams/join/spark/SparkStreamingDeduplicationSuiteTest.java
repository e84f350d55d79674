package dev.rtmstreams.join.spark;

import static dev.rtmstreams.join.spark.SparkDedupPort.FOREVER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.join.Deduplicate;
import dev.rtmstreams.processor.ExecutionMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code StreamingDeduplicationSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/StreamingDeduplicationSuite.scala) to {@link Deduplicate};
 * see {@link SparkDedupPort} for how {@code dropDuplicates} is expressed. Every expected output is Spark's. (Spark
 * runs the suite again on RocksDB, {@code RocksDBStateStoreStreamingDeduplicationSuite}: RocksDB is the default store
 * backend here.)
 *
 * <p>Skipped:
 * <ul>
 *   <li>"SPARK-35896: metrics in StateOperatorProgress are output correctly": Spark progress metrics.</li>
 *   <li>"deduplicate with aggregate - append mode": a windowed aggregation in append mode, not part of this
 *       module.</li>
 *   <li>"deduplicate with aggregate - complete mode": Spark's complete output mode.</li>
 *   <li>"deduplicate with file sink": Spark's parquet sink.</li>
 *   <li>"test no-data flag": Spark's {@code noDataMicroBatches.enabled} setting and state row counts.</li>
 *   <li>"SPARK-29438: ensure UNION doesn't lead streaming deduplication to use shifted partition IDs": Spark
 *       partition ids of a union.</li>
 *   <li>"SPARK-35880: custom metric numDroppedDuplicateRows in state operator progress": a Spark progress metric.</li>
 *   <li>"SPARK-39650: duplicate with specific keys should allow input to change schema", "SPARK-39650: recovery from
 *       checkpoint having all columns as value schema with sparkVersion=3.3.0 / 3.5.1", "SPARK-39650: recovery from
 *       checkpoint with changes on key schema are not allowed with sparkVersion=3.3.0 / 3.5.1": Spark checkpoints and
 *       state schema evolution.</li>
 *   <li>"non-binary collation aware deduplication not supported": Spark collations.</li>
 *   <li>"test that avro encoding is not supported": Spark state-store encoding.</li>
 * </ul>
 */
class SparkStreamingDeduplicationSuiteTest {

    @Test
    @DisplayName("StreamingDeduplicationSuite: deduplicate with all columns")
    void shouldDropARepeatedRowWhenThereIsNoWatermark() {
        try (SparkDedupPort p = new SparkDedupPort(in ->
                in.process(SparkDedupPort.byKey("dedup").withinTtl(FOREVER).build()))) {
            p.add("a", "a", 1);
            assertThat(p.batch()).containsExactly("a");
            p.add("a", "a", 1);
            assertThat(p.batch()).isEmpty();
            p.add("b", "b", 1);
            assertThat(p.batch()).containsExactly("b");
        }
    }

    @Test
    @DisplayName("StreamingDeduplicationSuite: deduplicate with some columns")
    void shouldDropARowWithARepeatedKeyWhenOtherColumnsDiffer() {
        try (SparkDedupPort p = new SparkDedupPort(in ->
                in.process(SparkDedupPort.byKey("dedup").withinTtl(FOREVER).build()))) {
            p.add("a", "a,1", 1);
            assertThat(p.batch()).containsExactly("a,1");
            p.add("a", "a,2", 1); // dropped
            assertThat(p.batch()).isEmpty();
            p.add("b", "b,1", 1);
            assertThat(p.batch()).containsExactly("b,1");
        }
    }

    @Test
    @DisplayName("StreamingDeduplicationSuite: multiple deduplicates")
    void shouldApplyBothStepsWhenTwoDeduplicationsAreChained() {
        // dropDuplicates() (all columns: the value, scoped to its key _1), then dropDuplicates("_1")
        try (SparkDedupPort p = new SparkDedupPort(in -> in.process(
                        Deduplicate.<String, String, String>byId((k, v) -> v, Serdes.String())
                                .keySerde(Serdes.String())
                                .valueSerde(Serdes.String())
                                .executionMode(ExecutionMode.MICRO_BATCH)
                                .withinTtl(FOREVER)
                                .name("all-columns")
                                .build())
                .process(SparkDedupPort.byKey("first-column").withinTtl(FOREVER).build()))) {
            p.add("a", "a,1", 1);
            assertThat(twoBatches(p)).containsExactly("a,1");
            p.add("a", "a,2", 1); // dropped from the second dropDuplicates
            assertThat(twoBatches(p)).isEmpty();
            p.add("b", "b,1", 1);
            assertThat(twoBatches(p)).containsExactly("b,1");
        }
    }

    /**
     * Two micro-batch operators in a row: a row passes the second one in the same or the next batch (depending on the
     * order in which Kafka Streams runs their punctuators), so one Spark batch is two here.
     */
    private static List<String> twoBatches(SparkDedupPort p) {
        List<String> out = new ArrayList<>(p.batch());
        out.addAll(p.batch());
        return out;
    }

    @Test
    @DisplayName("StreamingDeduplicationSuite: deduplicate with watermark")
    void shouldDropCopiesAndLateRowsWhenTheEventTimeIsAKeyColumn() {
        try (SparkDedupPort p = new SparkDedupPort(in -> in.process(SparkDedupPort.byKey("dedup")
                .withinWatermark((k, v, ts) -> ts, Duration.ofSeconds(10))
                .build()))) {
            for (int copy = 1; copy <= 5; copy++) {
                for (int v = 10; v <= 15; v++) {
                    p.add(String.valueOf(v), String.valueOf(v), v);
                }
            }
            assertThat(p.batch()).containsExactly("10", "11", "12", "13", "14", "15");
            p.add("25", "25", 25); // advance watermark to 15 secs, no-data-batch drops rows <= 15
            assertThat(p.batch()).containsExactly("25");
            p.add("10", "10", 10); // should not emit anything as data less than watermark
            assertThat(p.batch()).isEmpty();
            p.add("45", "45", 45); // advance watermark to 35 seconds, no-data-batch drops row 25
            assertThat(p.batch()).containsExactly("45");
        }
    }

    @Test
    @DisplayName("StreamingDeduplicationSuite: deduplicate with aggregate - update mode")
    void shouldFeedOnlyDistinctRowsToAnAggregationWhenUpdateMode() {
        // dropDuplicates() on (str, num), then groupBy(str).agg(sum(num)) in update mode
        try (SparkDedupPort p = new SparkDedupPort(in -> in.process(
                        Deduplicate.<String, String, String>byId((k, v) -> v, Serdes.String())
                                .keySerde(Serdes.String())
                                .valueSerde(Serdes.String())
                                .executionMode(ExecutionMode.MICRO_BATCH)
                                .withinTtl(FOREVER)
                                .name("dedup")
                                .build())
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(
                        () -> 0L,
                        (str, row, sum) -> sum + Long.parseLong(row.substring(row.indexOf(',') + 1)),
                        Materialized.with(Serdes.String(), Serdes.Long()))
                .toStream()
                .mapValues((str, sum) -> str + "," + sum))) {
            p.add("a", "a,1", 1);
            assertThat(p.batch()).containsExactly("a,1");
            p.add("a", "a,1", 1); // dropped
            assertThat(p.batch()).isEmpty();
            p.add("a", "a,2", 1);
            assertThat(p.batch()).containsExactly("a,3");
            p.add("b", "b,1", 1);
            assertThat(p.batch()).containsExactly("b,1");
        }
    }

    @Test
    @DisplayName("StreamingDeduplicationSuite: SPARK-19841: watermarkPredicate should filter based on keys")
    void shouldDropLateRowsWhenTheKeyHoldsIdAndTime() {
        // dropDuplicates("id", "time") with a 1 s watermark; output id
        try (SparkDedupPort p = new SparkDedupPort(in -> in.process(SparkDedupPort.byKey("dedup")
                .withinWatermark((k, v, ts) -> ts, Duration.ofSeconds(1))
                .build()))) {
            rows(p, 1, 1, 1, 1, 1, 2);
            assertThat(p.batch()).containsExactly("1", "2");
            rows(p, 1, 1, 2, 3, 2, 4);
            assertThat(p.batch()).containsExactly("3", "4");
            rows(p, 0, 1, 1, 1, 3, 5, 3, 6); // drop (1 -> 0, 1 -> 1) due to watermark
            assertThat(p.batch()).containsExactly("5", "6");
            rows(p, 0, 1, 4, 7); // drop (1 -> 0) due to watermark
            assertThat(p.batch()).containsExactly("7");
        }
    }

    /** Adds Spark's rows {@code (time, id)}, given as pairs, keyed by both. */
    private static void rows(SparkDedupPort p, int... timeIdPairs) {
        for (int i = 0; i < timeIdPairs.length; i += 2) {
            int time = timeIdPairs[i];
            int id = timeIdPairs[i + 1];
            p.add(id + "@" + time, String.valueOf(id), time);
        }
    }

    @Test
    @DisplayName("StreamingDeduplicationSuite: SPARK-21546: dropDuplicates should ignore watermark when it's not a key")
    void shouldKeepTheFirstRowOfAnIdWhenTheEventTimeIsNotAKeyColumn() {
        // dropDuplicates("id") with a watermark on time, which is not a key: state is not bounded by it
        try (SparkDedupPort p = new SparkDedupPort(in ->
                in.process(SparkDedupPort.byKey("dedup").withinTtl(FOREVER).build()))) {
            p.add("1", "1,1", 1).add("1", "1,2", 2).add("2", "2,2", 2);
            assertThat(p.batch()).containsExactly("1,1", "2,2");
        }
    }

    @Test
    @DisplayName("StreamingDeduplicationSuite: collation aware deduplication")
    void shouldTreatKeysAsDistinctWhenTheirBytesDiffer() {
        try (SparkDedupPort p = new SparkDedupPort(in ->
                in.process(SparkDedupPort.byKey("dedup").withinTtl(FOREVER).build()))) {
            p.add("a", "a,1", 1);
            assertThat(p.batch()).containsExactly("a,1");
            p.add("a", "a,2", 1); // dropped
            assertThat(p.batch()).isEmpty();
            p.add("ä", "ä,1", 1);
            assertThat(p.batch()).containsExactly("ä,1");
        }
    }
}
