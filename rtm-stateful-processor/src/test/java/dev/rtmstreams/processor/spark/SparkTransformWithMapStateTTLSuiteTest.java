package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.T0;
import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code TransformWithMapStateTTLSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/TransformWithMapStateTTLSuite.scala): the TTL scenarios of
 * {@link SparkTtlSuiteBase} (Spark's {@code TransformWithStateTTLTest}) on map state with the single user key
 * {@code "key"} (Spark's {@code MapStateSingleKeyTTLProcessor}), and the suite's own tests with Spark's
 * {@code MapStateTTLProcessor}: input {@code "action,userKey,value"}, output {@code MapOutputEvent(key, userKey,
 * value, isTTLValue, ttlValue)} as {@code "key,userKey,value,isTTLValue,ttlValue"}.
 *
 * <p>Skipped: none. (The row counts of Spark's {@code numRowsUpdated}/{@code numRowsRemoved} progress checks are
 * Spark state-store metrics and are not ported; the rows they count are checked through the state itself.)
 */
@DisplayName("TransformWithMapStateTTLSuite")
class SparkTransformWithMapStateTTLSuiteTest extends SparkTtlSuiteBase {

    @Override
    Kind kind() {
        return Kind.MAP;
    }

    @Override
    String stateTtlMetricName() {
        return "numMapStateWithTTLVars";
    }

    /** Spark's {@code MapStateTTLProcessor}. */
    static final class MapStateTtlProcessor extends StatefulProcessor<String, String, String> {
        private MapState<String, Integer> map;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            map = getHandle()
                    .getMapState(STATE, Serdes.String(), Serdes.Integer(), TtlConfig.of(Duration.ofMinutes(1)));
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String[] row = rows.next().split(",", -1);
                String action = row[0];
                String userKey = row[1];
                switch (action) {
                    case "get" -> {
                        if (map.containsKey(userKey)) {
                            out.add(userKey + "," + map.getValue(userKey) + ",false,-1");
                        }
                    }
                    case "put" -> map.updateValue(userKey, Integer.parseInt(row[2]));
                    case "iterator" ->
                        map.iterator().forEachRemaining(e -> out.add(e.getKey() + "," + e.getValue() + ",false,-1"));
                    default -> throw new IllegalArgumentException("unknown action " + action);
                }
            }
            return out.iterator();
        }
    }

    private static SparkTwsPort multiKeyStream() {
        return new SparkTwsPort(
                microBatch(TransformWithState.builder(MapStateTtlProcessor::new, TimeMode.PROCESSING_TIME))
                        .name("ttl")
                        .outputMode(OutputMode.APPEND)
                        .build());
    }

    private static List<StateReader.StoredValue> entries(SparkTwsPort p, String key) {
        return p.reader()
                .withDeserializer(STATE, Serdes.Integer().deserializer())
                .withMapKeyDeserializer(STATE, Serdes.String().deserializer())
                .read(Serdes.String().serializer().serialize("", key))
                .map(s -> s.variables().getOrDefault(STATE, List.of()))
                .orElse(List.of());
    }

    /** {@code get_values_in_ttl_state}: (userKey, expiry) of every entry of {@code key}. */
    private static List<String> valuesInTtlState(SparkTwsPort p, String key) {
        List<String> out = new ArrayList<>();
        for (StateReader.StoredValue v : entries(p, key)) {
            out.add(key + "," + v.mapKey() + ",-1,true," + (v.expiresAtMs() - T0));
        }
        return out;
    }

    /** {@code get_without_enforcing_ttl} of {@code userKey}. */
    private static List<String> withoutEnforcingTtl(SparkTwsPort p, String key, String userKey) {
        List<String> out = new ArrayList<>();
        for (StateReader.StoredValue v : entries(p, key)) {
            if (v.mapKey().equals(userKey)) {
                out.add(key + "," + userKey + "," + v.value() + ",false,-1");
            }
        }
        return out;
    }

    @Test
    @DisplayName("TransformWithMapStateTTLSuite: validate state is evicted with multiple user keys")
    void shouldEvictEachUserKeyAtItsOwnExpiry() {
        try (SparkTwsPort p = multiKeyStream()) {
            p.add("k1", "put,key1,1");
            p.advance(1000);
            p.check();
            p.add("k1", "get,key1,-1");
            p.advance(30 * 1000);
            p.check("k1,key1,1,false,-1");
            p.add("k1", "put,key2,2");
            p.advance(1000);
            p.check();
            p.add("k1", "get,key1,-1");
            p.add("k1", "get,key2,-1");
            // advance clock to expire first key
            p.advance(30 * 1000);
            p.check("k1,key2,2,false,-1");
            assertThat(withoutEnforcingTtl(p, "k1", "key1")).isEmpty(); // Spark: numRowsRemoved === 1
        }
    }

    @Test
    @DisplayName("TransformWithMapStateTTLSuite: verify iterator doesn't return expired keys")
    void shouldNotIterateOverExpiredUserKeys() {
        try (SparkTwsPort p = multiKeyStream()) {
            p.add("k1", "put,key1,1");
            p.add("k1", "put,key2,2");
            p.advance(1000); // batch timestamp: 1000
            p.check();
            p.add("k1", "get,key1,-1");
            p.add("k1", "get,key2,-1");
            p.advance(30 * 1000); // batch timestamp: 31000
            p.check("k1,key1,1,false,-1", "k1,key2,2,false,-1");
            // get values from ttl state
            assertThat(valuesInTtlState(p, "k1"))
                    .containsExactlyInAnyOrder("k1,key1,-1,true,61000", "k1,key2,-1,true,61000");
            p.advance(1000); // batch timestamp: 32000
            // advance clock to expire first two values
            p.advance(30 * 1000); // batch timestamp: 62000
            p.add("k1", "put,key3,3");
            p.add("k1", "put,key4,4");
            p.add("k1", "put,key5,5");
            p.add("k1", "iterator,,-1");
            p.advance(1000); // batch timestamp: 63000
            p.check("k1,key3,3,false,-1", "k1,key4,4,false,-1", "k1,key5,5,false,-1");
            assertThat(valuesInTtlState(p, "k1"))
                    .containsExactlyInAnyOrder(
                            "k1,key3,-1,true,123000", "k1,key4,-1,true,123000", "k1,key5,-1,true,123000");
            p.advance(1000); // batch timestamp: 64000
            // get all values without enforcing ttl
            List<String> raw = new ArrayList<>();
            for (String uk : List.of("key1", "key2", "key3", "key4", "key5")) {
                raw.addAll(withoutEnforcingTtl(p, "k1", uk));
            }
            assertThat(raw).containsExactlyInAnyOrder("k1,key3,3,false,-1", "k1,key4,4,false,-1", "k1,key5,5,false,-1");
            p.advance(1000);
            // check that updating a key updates its TTL
            p.add("k1", "put,key3,3");
            p.advance(1000);
            assertThat(valuesInTtlState(p, "k1"))
                    .containsExactlyInAnyOrder(
                            "k1,key3,-1,true,126000", "k1,key4,-1,true,123000", "k1,key5,-1,true,123000");
            p.advance(1000);
            assertThat(entries(p, "k1").stream()
                            .filter(v -> v.mapKey().equals("key3"))
                            .map(v -> "k1,key3," + v.value() + ",true," + (v.expiresAtMs() - T0))
                            .toList())
                    .containsExactly("k1,key3,3,true,126000");
            p.advance(1000);
        }
    }
}
