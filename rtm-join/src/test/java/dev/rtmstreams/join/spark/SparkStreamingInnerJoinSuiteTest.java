package dev.rtmstreams.join.spark;

import static dev.rtmstreams.join.spark.SparkJoinPort.NEVER;
import static dev.rtmstreams.join.spark.SparkJoinPort.part;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.WatermarkPolicy;
import dev.rtmstreams.processor.ExecutionMode;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code StreamingInnerJoinSuite} (sql/core/src/test/scala/org/apache/spark/sql/streaming/
 * StreamingJoinSuite.scala) to {@link IntervalJoin}; see {@link SparkJoinPort} for how Spark's inputs and conditions
 * are expressed. Every expected output is Spark's.
 *
 * <p>Skipped (Spark-only):
 * <ul>
 *   <li>"stream stream inner join without equality predicate": the join is always an equi-join on the record key.</li>
 *   <li>"locality preferences of StateStoreAwareZippedRDD": Spark scheduling internals.</li>
 *   <li>"streaming join should require StatefulOpClusteredDistribution from children": Spark plan check.</li>
 *   <li>"SPARK-26187 restore the stream-stream inner join query from Spark 2.4": Spark checkpoint format.</li>
 *   <li>"SPARK-48687 ... changing the join condition (key schema) should fail the query": Spark state schema.</li>
 *   <li>"SPARK-48687 ... changing the value schema should fail the query": Spark state schema.</li>
 *   <li>"SPARK-35896: metrics in StateOperatorProgress are output correctly": Spark progress metrics.</li>
 *   <li>"joining nullable left join key with nullable right join key": Spark's null-safe {@code <=>} matches null
 *       keys; a Kafka Streams join (ours too) drops records with a null key.</li>
 * </ul>
 */
class SparkStreamingInnerJoinSuiteTest {

    /** {@code (key, leftValue, rightValue)} with {@code leftValue = 2 * key}, {@code rightValue = 3 * key}. */
    private static final SparkJoinPort.RowFormat KEY_VALUES =
            (k, l, r) -> k + "," + 2 * Long.parseLong(part(l, 0)) + "," + 3 * Long.parseLong(part(r, 0));

    @Test
    @DisplayName("StreamingInnerJoinSuite: stream stream inner join on non-time column")
    void shouldJoinEveryPairOfEqualKeysWhenThereIsNoWatermark() {
        try (SparkJoinPort p = new SparkJoinPort(SparkJoinPort.unbounded(JoinType.INNER), KEY_VALUES)) {
            p.left(1, 1);
            assertThat(p.batch()).isEmpty();
            p.right(1, 1).right(10, 10); // 1 arrived on input1 first, then input2, should join
            assertThat(p.batch()).containsExactlyInAnyOrder("1,2,3");
            p.left(10, 10); // 10 arrived on input2 first, then input1, should join
            assertThat(p.batch()).containsExactlyInAnyOrder("10,20,30");
            p.right(1, 1); // another 1 in input2 should join with 1 input1
            assertThat(p.batch()).containsExactlyInAnyOrder("1,2,3");
            // StopStream, StartStream
            p.left(1, 1); // multiple 1s should be kept in state causing multiple (1, 2, 3)
            assertThat(p.batch()).containsExactlyInAnyOrder("1,2,3", "1,2,3");
            // StopStream, StartStream
            p.left(100, 100).right(100, 100);
            assertThat(p.batch()).containsExactlyInAnyOrder("100,200,300");
        }
    }

    @Test
    @DisplayName("StreamingInnerJoinSuite: stream stream inner join on windows - without watermark")
    void shouldKeepWindowStateWhenThereIsNoWatermark() {
        try (SparkJoinPort p =
                SparkJoinPort.windowed(JoinType.INNER, NEVER, NEVER, WatermarkPolicy.MIN, SparkJoinPort.WINDOWED)) {
            p.leftValues(1);
            assertThat(p.batch()).isEmpty();
            p.rightValues(1);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,10,2,3");
            p.leftValues(25);
            assertThat(p.batch()).isEmpty();
            p.rightValues(25);
            assertThat(p.batch()).containsExactlyInAnyOrder("25,30,50,75");
            p.leftValues(1);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,10,2,3"); // state for 1 still around: no watermark
            p.leftValues(5);
            assertThat(p.batch()).isEmpty();
            p.rightValues(5);
            assertThat(p.batch()).containsExactlyInAnyOrder("5,10,10,15"); // no filter by any watermark
        }
    }

    @Test
    @DisplayName("StreamingInnerJoinSuite: stream stream inner join on windows - with watermark")
    void shouldDropWindowStateAndLateRowsWhenTheLeftWatermarkPassesThem() {
        // watermark on the left input only: Spark's global watermark is the left one
        try (SparkJoinPort p = SparkJoinPort.windowed(
                JoinType.INNER, Duration.ofSeconds(10), NEVER, WatermarkPolicy.MAX, SparkJoinPort.WINDOWED)) {
            p.leftValues(1);
            assertThat(p.batch()).isEmpty();
            p.rightValues(1);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,10,2,3");
            p.leftValues(25); // watermark = 15
            assertThat(p.batch()).isEmpty();
            p.rightValues(25);
            assertThat(p.batch()).containsExactlyInAnyOrder("25,30,50,75");
            p.rightValues(1);
            assertThat(p.batch()).isEmpty(); // should not join as < 15 removed
            p.leftValues(5);
            assertThat(p.batch()).isEmpty(); // same reason as above
        }
    }

    @Test
    @DisplayName(
            "StreamingInnerJoinSuite: stream stream inner join with time range - with watermark - one side condition")
    void shouldDropRowsAtTheWatermarkAndEvictByTheOneSidedConditionWhenOnlyALowerBoundIsGiven() {
        // leftTime < rightTime - 5 s  <=>  right.time >= left.time + 5 s + 1 ms (second-granular data), no upper bound
        try (SparkJoinPort p = new SparkJoinPort(
                SparkJoinPort.range(
                        JoinType.INNER,
                        Duration.ofSeconds(5).plusMillis(1),
                        NEVER,
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(10)),
                (k, l, r) -> part(l, 0) + "," + part(l, 1) + "," + part(r, 1))) {
            p.left(1, 5);
            assertThat(p.batch()).isEmpty();
            p.right(1, 11);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,5,11");
            p.right(1, 10);
            assertThat(p.batch()).isEmpty(); // no match as leftTime 5 is not < rightTime 10 - 5
            // Increase event time watermark to 20s by adding data with time = 30s on both inputs
            p.left(1, 3).left(1, 30);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,3,10", "1,3,11");
            p.right(0, 30);
            assertThat(p.batch()).isEmpty();
            // (1, 20) ==> filtered by event time watermark = 20
            // (1, 21) ==> passed filter, matched with left (1, 3) and (1, 5)
            // (1, 28) ==> passed filter, matched with left (1, 3) and (1, 5)
            p.right(1, 20).right(1, 21).right(1, 28);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,3,21", "1,5,21", "1,3,28", "1,5,28");
            // New data to left input with leftTime <= 20 should be filtered due to event time watermark
            p.left(1, 20).left(1, 21);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,21,28");
        }
    }

    @Test
    @DisplayName(
            "StreamingInnerJoinSuite: stream stream inner join with time range - with watermark - two side conditions")
    void shouldDropRowsAtTheWatermarkAndEvictByBothBoundsWhenTheConditionIsARange() {
        // leftTime BETWEEN rightTime - 10 s AND rightTime + 5 s  <=>  right.time in [left.time - 5 s, left.time + 10 s]
        try (SparkJoinPort p = new SparkJoinPort(
                SparkJoinPort.range(
                        JoinType.INNER,
                        Duration.ofSeconds(-5),
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(20),
                        Duration.ofSeconds(30)),
                (k, l, r) -> part(l, 0) + "," + part(l, 1) + "," + part(r, 1))) {
            // If leftTime = 20, then it match only with rightTime = [15, 30]
            p.left(1, 20);
            assertThat(p.batch()).isEmpty();
            p.right(1, 14).right(1, 15).right(1, 25).right(1, 26).right(1, 30).right(1, 31);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,20,15", "1,20,25", "1,20,26", "1,20,30");
            // If rightTime = 60, then it matches only leftTime = [50, 65]
            p.right(1, 60);
            assertThat(p.batch()).isEmpty(); // matches with nothing on the left
            p.left(1, 49).left(1, 50).left(1, 65).left(1, 66);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,50,60", "1,65,60");
            // Event time watermark = min(left: 66 - delay 20 = 46, right: 60 - delay 30 = 30) = 30
            p.left(1, 30).left(1, 31); // 30 should not be processed or added to state
            assertThat(p.batch()).containsExactlyInAnyOrder("1,31,26", "1,31,30", "1,31,31");
            // Advance the watermark
            p.right(1, 80);
            assertThat(p.batch()).isEmpty();
            // Event time watermark = min(left: 66 - delay 20 = 46, right: 80 - delay 30 = 50) = 46
            p.right(1, 46).right(1, 50); // 46 should not be processed or added to state
            assertThat(p.batch()).containsExactlyInAnyOrder("1,49,50", "1,50,50");
        }
    }

    @Test
    @DisplayName("StreamingInnerJoinSuite: stream stream self join")
    void shouldJoinAStreamWithItselfWhenBothInputsAreTheSameRows() {
        // df.select(value % 5 as key, value) joined with itself on key; output (key, leftValue, rightValue)
        try (SparkJoinPort p = new SparkJoinPort(
                SparkJoinPort.unbounded(JoinType.INNER), (k, l, r) -> k + "," + part(l, 0) + "," + part(r, 0))) {
            for (int v : new int[] {1, 2}) {
                p.leftRaw(String.valueOf(v % 5), v + ":" + v, v * 1000L)
                        .rightRaw(String.valueOf(v % 5), v + ":" + v, v * 1000L);
            }
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,1", "2,2,2");
            // StopStream, StartStream
            for (int v : new int[] {3, 6}) {
                p.leftRaw(String.valueOf(v % 5), v + ":" + v, v * 1000L)
                        .rightRaw(String.valueOf(v % 5), v + ":" + v, v * 1000L);
            }
            // Spark's CheckAnswer is cumulative: (3,3,3), (1,1,1), (1,1,6), (2,2,2), (1,6,1), (1,6,6); the new rows:
            assertThat(p.batch()).containsExactlyInAnyOrder("3,3,3", "1,1,6", "1,6,1", "1,6,6");
        }
    }

    @Test
    @DisplayName("StreamingInnerJoinSuite: joining non-nullable left join key with nullable right join key")
    void shouldNotMatchANullRightKeyWhenTheLeftKeysAreNotNull() {
        try (SparkJoinPort p = new SparkJoinPort(
                SparkJoinPort.unbounded(JoinType.INNER),
                (k, l, r) -> part(l, 0) + "," + part(r, 0) + "," + 2 * Long.parseLong(part(l, 0)) + ","
                        + 3 * Long.parseLong(part(r, 0)))) {
            p.left(1, 1).left(5, 5);
            p.right(1, 1).right(5, 5).right(10, 10).rightRaw(null, "null-key", 0L);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,2,3", "5,5,10,15");
        }
    }

    @Test
    @DisplayName("StreamingInnerJoinSuite: joining nullable left join key with non-nullable right join key")
    void shouldNotMatchANullLeftKeyWhenTheRightKeysAreNotNull() {
        try (SparkJoinPort p = new SparkJoinPort(
                SparkJoinPort.unbounded(JoinType.INNER),
                (k, l, r) -> part(l, 0) + "," + part(r, 0) + "," + 2 * Long.parseLong(part(l, 0)) + ","
                        + 3 * Long.parseLong(part(r, 0)))) {
            p.left(1, 1).left(5, 5).left(10, 10).leftRaw(null, "null-key", 0L);
            p.right(1, 1).right(5, 5);
            assertThat(p.batch()).containsExactlyInAnyOrder("1,1,2,3", "5,5,10,15");
        }
    }

    @Test
    @DisplayName("StreamingInnerJoinSuite: join between three streams")
    void shouldChainTwoJoinsWhenThreeStreamsAreJoined() {
        // (left join middle on key) join right on key; values are 2, 3 and 5 times the key
        StreamsBuilder sb = new StreamsBuilder();
        KStream<String, String> in1 = sb.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> in2 = sb.stream("in2", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> in3 = sb.stream("in3", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> first = unboundedInner("first").join(in1, in2, (k, l, m) -> l + "," + m);
        unboundedInner("second")
                .join(first, in3, (k, lm, r) -> lm + "," + r)
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "spark-three-streams");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        try (TopologyTestDriver d = new TopologyTestDriver(sb.build(), props)) {
            TestInputTopic<String, String> t1 = d.createInputTopic(
                    "in1", Serdes.String().serializer(), Serdes.String().serializer());
            TestInputTopic<String, String> t2 = d.createInputTopic(
                    "in2", Serdes.String().serializer(), Serdes.String().serializer());
            TestInputTopic<String, String> t3 = d.createInputTopic(
                    "in3", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            for (int v : new int[] {1, 5}) {
                t1.pipeInput(String.valueOf(v), v + "," + 2 * v, v * 1000L);
            }
            for (int v : new int[] {1, 5, 10}) {
                t2.pipeInput(String.valueOf(v), v + "," + 3 * v, v * 1000L);
            }
            for (int v : new int[] {5, 10}) {
                t3.pipeInput(String.valueOf(v), v + "," + 5 * v, v * 1000L);
            }
            d.advanceWallClockTime(Duration.ofSeconds(2)); // a batch of each join
            assertThat(out.readValuesToList()).containsExactly("5,10,5,15,5,25");
        }
    }

    private static IntervalJoin<String, String, String> unboundedInner(String name) {
        return IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .lowerBound(NEVER.negated())
                .upperBound(NEVER)
                .leftWatermarkDelay(NEVER)
                .rightWatermarkDelay(NEVER)
                .executionMode(ExecutionMode.MICRO_BATCH)
                .repartitionIfKeyChanged(false)
                .name(name)
                .build();
    }
}
