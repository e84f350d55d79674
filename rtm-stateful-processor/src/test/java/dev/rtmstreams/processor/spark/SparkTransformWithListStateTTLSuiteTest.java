package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code TransformWithListStateTTLSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/TransformWithListStateTTLSuite.scala): the TTL scenarios of
 * {@link SparkTtlSuiteBase} (Spark's {@code TransformWithStateTTLTest}) on list state, and the suite's own tests.
 * {@code get_values_in_min_state} (Spark's min-expiry index) is the earliest expiry of the key's stored elements,
 * as {@code get_values_in_ttl_state} is for a list (see {@link SparkTtlSuiteBase#ttlIndex}). Spark's
 * {@code assertNumStateRows} and {@code numRowsUpdated}/{@code numRowsRemoved} checks count rows of Spark's state
 * store (one row per key for a list) and are not ported; what they guard is checked through the stored elements.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"SPARK-53069: stopping and restarting the query maintains correct state total rows": only checks Spark's
 *       state-store row count metric across restarts.</li>
 * </ul>
 */
@DisplayName("TransformWithListStateTTLSuite")
class SparkTransformWithListStateTTLSuiteTest extends SparkTtlSuiteBase {

    @Override
    Kind kind() {
        return Kind.LIST;
    }

    @Override
    String stateTtlMetricName() {
        return "numListStateWithTTLVars";
    }

    /** Spark's {@code MultiStatefulVariableTTLProcessor}: three variables that must stay in sync. */
    static final class MultiStatefulVariableTtlProcessor extends StatefulProcessor<String, String, String> {
        private final TtlConfig ttl;
        private ListState<String> list;
        private MapState<Long, Long> map;
        private ValueState<Long> value;

        MultiStatefulVariableTtlProcessor(TtlConfig ttl) {
            this.ttl = ttl;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            list = getHandle().getListState("listState", Serdes.String(), ttl);
            map = getHandle().getMapState("mapState", Serdes.Long(), Serdes.Long(), ttl);
            value = getHandle().getValueState("valueState", Serdes.Long(), ttl);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            assertSanity();
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String row = rows.next();
                list.appendValue(row);
                long mapSize = count(map.iterator());
                map.updateValue(mapSize + 1, mapSize + 1);
                value.update(value.getOption().orElse(0L) + 1);
                assertSanity();
                out.add(String.valueOf(count(list.get())));
            }
            return out.iterator();
        }

        private void assertSanity() {
            long listSize = count(list.get());
            assertThat(count(map.iterator())).isEqualTo(listSize);
            assertThat(value.getOption().orElse(0L)).isEqualTo(listSize);
        }

        private static long count(Iterator<?> it) {
            long n = 0;
            while (it.hasNext()) {
                it.next();
                n++;
            }
            return n;
        }
    }

    @Test
    @DisplayName("TransformWithListStateTTLSuite: verify the list state secondary index has at most one record per key")
    void shouldKeepListMapAndValueStateInSync() {
        try (SparkTwsPort p = new SparkTwsPort(microBatch(TransformWithState.builder(
                        () -> new MultiStatefulVariableTtlProcessor(TtlConfig.of(Duration.ofMinutes(10))),
                        TimeMode.PROCESSING_TIME))
                .name("ttl")
                .outputMode(OutputMode.APPEND)
                .build())) {
            String[] keys = {"k1", "k2", "k1", "k2", "k1", "k2"};
            String[] expected = {"k1,1", "k2,1", "k1,2", "k2,2", "k1,3", "k2,3"};
            for (int i = 0; i < keys.length; i++) {
                p.add(keys[i], keys[i]);
                p.advance(1000);
                p.check(expected[i]);
            }
        }
    }

    @Test
    @DisplayName("TransformWithListStateTTLSuite: verify iterator works with expired values in beginning of list")
    void shouldSkipExpiredElementsAtTheBeginningOfTheList() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(1))) {
            p.add("k1", "put,1");
            p.advance(1000);
            p.add("k1", "append,2");
            p.add("k1", "append,3");
            p.advance(1000);
            p.check();
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,61000", "k1,2,true,62000", "k1,3,true,62000");
            p.advance(1000);
            // advance clock to add elements with later TTL
            p.advance(45 * 1000); // batch timestamp: 48000
            p.add("k1", "append,4");
            p.add("k1", "append,5");
            p.add("k1", "append,6");
            p.advance(1000);
            p.check();
            assertThat(ttlValues(p, "k1"))
                    .containsExactly(
                            "k1,1,true,61000",
                            "k1,2,true,62000",
                            "k1,3,true,62000",
                            "k1,4,true,109000",
                            "k1,5,true,109000",
                            "k1,6,true,109000");
            p.advance(1000);
            p.add("k1", "get,");
            // advance clock to expire the first three elements
            p.advance(15 * 1000); // batch timestamp: 65000
            p.check("k1,4,false,-1", "k1,5,false,-1", "k1,6,false,-1");
            // ensure that expired elements are no longer in state
            assertThat(rawValues(p, "k1")).containsExactly("k1,4,false,-1", "k1,5,false,-1", "k1,6,false,-1");
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,109000");
            p.advance(1000);
        }
    }

    @Test
    @DisplayName("TransformWithListStateTTLSuite: verify iterator works with expired values in middle of list")
    void shouldSkipExpiredElementsInTheMiddleOfTheList() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(3))) {
            // add 3 elements with a duration of 3 minutes
            p.add("k1", "put,1");
            p.advance(1000);
            p.add("k1", "append,2");
            p.add("k1", "append,3");
            p.advance(1000);
            p.check();
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,181000", "k1,2,true,182000", "k1,3,true,182000");
            p.advance(1000);
            p.add("k1", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1", "k1,2,false,-1", "k1,3,false,-1");
            // restart with a TTL of 15 seconds to add elements to the middle of the list that will expire quickly
            p.restart(ttlOperator(Duration.ofSeconds(15), "ttl"));
            p.add("k1", "append,4");
            p.add("k1", "append,5");
            p.add("k1", "append,6");
            p.advance(1000);
            p.check();
            assertThat(rawValues(p, "k1"))
                    .containsExactly(
                            "k1,1,false,-1",
                            "k1,2,false,-1",
                            "k1,3,false,-1",
                            "k1,4,false,-1",
                            "k1,5,false,-1",
                            "k1,6,false,-1");
            p.advance(1000);
            assertThat(ttlValues(p, "k1"))
                    .containsExactly(
                            "k1,1,true,181000",
                            "k1,2,true,182000",
                            "k1,3,true,182000",
                            "k1,4,true,20000",
                            "k1,5,true,20000",
                            "k1,6,true,20000");
            p.advance(1000);
            // restart with the first TTL to add elements to the end with a TTL of 3 minutes
            p.restart(ttlOperator(Duration.ofMinutes(3), "ttl"));
            p.add("k1", "append,7");
            p.add("k1", "append,8");
            p.add("k1", "append,9");
            p.advance(1000);
            p.check();
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,20000");
            p.advance(1000);
            // progress batch timestamp from 9000 to 54000, expiring the middle three elements
            p.advance(45 * 1000);
            p.add("k1", "get,");
            p.advance(1000);
            p.check(
                    "k1,1,false,-1",
                    "k1,2,false,-1",
                    "k1,3,false,-1",
                    "k1,7,false,-1",
                    "k1,8,false,-1",
                    "k1,9,false,-1");
            assertThat(rawValues(p, "k1"))
                    .containsExactly(
                            "k1,1,false,-1",
                            "k1,2,false,-1",
                            "k1,3,false,-1",
                            "k1,7,false,-1",
                            "k1,8,false,-1",
                            "k1,9,false,-1");
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,181000");
            p.advance(1000);
        }
    }

    @Test
    @DisplayName("TransformWithListStateTTLSuite: verify min-expiry index doesn't insert when the new minimum is None")
    void shouldDropAllOfAKeysStateWhenAllItsElementsExpire() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(1))) {
            // add 3 elements all with different eviction timestamps
            p.add("k1", "append,1");
            p.advance(1000);
            p.check();
            p.add("k1", "append,2");
            p.advance(1000);
            p.check();
            p.add("k1", "append,3");
            p.advance(1000); // time is 3000
            p.check();
            // a separate key, not affected by k1 expiring; expiry 64000
            p.add("k2", "put,1");
            p.advance(1000); // time is 4000
            p.check();
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,61000", "k1,2,true,62000", "k1,3,true,63000");
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,61000");
            p.advance(1000); // time is 5000
            // the k1 records expire at 63000: advance the clock by 63 - 5 = 58 seconds
            p.advance((63 - 5) * 1000);
            p.check();
            assertThat(ttlIndex(p, "k1")).isEmpty();
            assertThat(rawValues(p, "k1")).isEmpty();
            assertThat(ttlIndex(p, "k2")).containsExactly("k2,-1,true,64000");
            p.advance(1000); // time is 65000
        }
    }

    @Test
    @DisplayName("TransformWithListStateTTLSuite: verify iterator works with expired values in end of list")
    void shouldSkipExpiredElementsAtTheEndOfTheList() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(2))) {
            p.add("k1", "put,1");
            p.advance(1000);
            p.add("k1", "append,2");
            p.add("k1", "append,3");
            p.advance(1000);
            p.check();
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,121000", "k1,2,true,122000", "k1,3,true,122000");
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,121000");
            p.advance(1000);
            p.add("k1", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1", "k1,2,false,-1", "k1,3,false,-1");
            // restart with a TTL of 1 minute so that the elements at the end expire before the beginning
            p.restart(ttlOperator(Duration.ofMinutes(1), "ttl"));
            p.add("k1", "append,4");
            p.add("k1", "append,5");
            p.add("k1", "append,6");
            p.advance(1000);
            p.check();
            assertThat(ttlValues(p, "k1"))
                    .containsExactly(
                            "k1,1,true,121000",
                            "k1,2,true,122000",
                            "k1,3,true,122000",
                            "k1,4,true,65000",
                            "k1,5,true,65000",
                            "k1,6,true,65000");
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,65000");
            p.advance(1000);
            // expire end values, batch timestamp from 7000 to 67000
            p.advance(60 * 1000);
            p.add("k1", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1", "k1,2,false,-1", "k1,3,false,-1");
            assertThat(rawValues(p, "k1")).containsExactly("k1,1,false,-1", "k1,2,false,-1", "k1,3,false,-1");
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,121000");
            p.advance(1000);
        }
    }
}
