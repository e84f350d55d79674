package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.T0;
import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.RtmProcessorMetrics;
import dev.rtmstreams.processor.StateReader;
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
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code TransformWithStateTTLTest}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/TransformWithStateTTLTest.scala), the TTL scenarios Spark
 * runs for each state type; its subclasses are the per-type suites. As in Spark, the queries run with
 * {@code Trigger.ProcessingTime("1 second")} and a manual clock: a micro-batch operator with a 1 s interval here
 * (see {@link SparkTwsPort}), so a value written in the batch at clock 1000 with a 1 minute TTL expires at 61000, as
 * in Spark.
 *
 * <p>Input rows are {@code "action,value"}; output rows are Spark's {@code OutputEvent(key, value, isTTLValue,
 * ttlValue)} as {@code "key,value,isTTLValue,ttlValue"}. Spark's processors read TTL internals through the
 * {@code *ImplWithTTL} test hooks ({@code get_ttl_value_from_state}, {@code get_without_enforcing_ttl},
 * {@code get_values_in_ttl_state}); ours are not public, so those steps read the operator's store between batches
 * with {@link StateReader} (Spark's state data source), which shows every stored value with its expiry whether or
 * not it has expired: {@link #ttlValues} is {@code get_ttl_value_from_state}, {@link #rawValues}
 * {@code get_without_enforcing_ttl}, and {@link #ttlIndex} {@code get_values_in_ttl_state} (the expiries the TTL
 * index must hold for the key: each distinct expiry of its values, for a list only the earliest, as Spark's
 * min-expiry index). Their output has Spark's form.
 */
abstract class SparkTtlSuiteBase {

    static final String STATE = "ttlState";

    /** @return the state kind under test */
    abstract Kind kind();

    /** @return the name of Spark's "...WithTTLVars" metric of the kind */
    abstract String stateTtlMetricName();

    enum Kind {
        VALUE,
        LIST,
        MAP
    }

    /**
     * Spark's {@code ValueStateTTLProcessor}, {@code ListStateTTLProcessor} and {@code MapStateSingleKeyTTLProcessor}
     * (user key {@code "key"}), without their test hooks.
     */
    static final class TtlProcessor extends StatefulProcessor<String, String, String> {
        private final Kind kind;
        private final TtlConfig ttl;
        private ValueState<Integer> value;
        private ListState<Integer> list;
        private MapState<String, Integer> map;

        TtlProcessor(Kind kind, TtlConfig ttl) {
            this.kind = kind;
            this.ttl = ttl;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            switch (kind) {
                case VALUE -> value = getHandle().getValueState(STATE, Serdes.Integer(), ttl);
                case LIST -> list = getHandle().getListState(STATE, Serdes.Integer(), ttl);
                case MAP -> map = getHandle().getMapState(STATE, Serdes.String(), Serdes.Integer(), ttl);
            }
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String[] row = rows.next().split(",", 2);
                String action = row[0];
                int v = row.length > 1 && !row[1].isEmpty() ? Integer.parseInt(row[1]) : -1;
                switch (action) {
                    case "get" -> {
                        switch (kind) {
                            case VALUE -> value.getOption().ifPresent(x -> out.add(x + ",false,-1"));
                            case LIST -> list.get().forEachRemaining(x -> out.add(x + ",false,-1"));
                            case MAP -> {
                                if (map.containsKey("key")) {
                                    out.add(map.getValue("key") + ",false,-1");
                                }
                            }
                        }
                    }
                    case "put" -> {
                        switch (kind) {
                            case VALUE -> value.update(v);
                            case LIST -> list.put(List.of(v));
                            case MAP -> map.updateValue("key", v);
                        }
                    }
                    case "append" -> list.appendValue(v);
                    case "clear" -> {
                        switch (kind) {
                            case VALUE -> value.clear();
                            case LIST -> list.clear();
                            case MAP -> map.clear();
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown action " + action);
                }
            }
            return out.iterator();
        }
    }

    SparkTwsPort stream(Duration ttl) {
        return stream(ttl, "ttl");
    }

    SparkTwsPort stream(Duration ttl, String name) {
        return new SparkTwsPort(ttlOperator(ttl, name));
    }

    TransformWithState<String, String, String> ttlOperator(Duration ttl, String name) {
        Kind k = kind();
        TtlConfig c = TtlConfig.of(ttl);
        return microBatch(TransformWithState.builder(() -> new TtlProcessor(k, c), TimeMode.PROCESSING_TIME))
                .name(name)
                .outputMode(OutputMode.APPEND)
                .build();
    }

    private static List<StateReader.StoredValue> stored(SparkTwsPort p, String key) {
        StateReader r = p.reader()
                .withDeserializer(STATE, Serdes.Integer().deserializer())
                .withMapKeyDeserializer(STATE, Serdes.String().deserializer());
        return r.read(Serdes.String().serializer().serialize("", key))
                .map(s -> s.variables().getOrDefault(STATE, List.of()))
                .orElse(List.of());
    }

    /** {@code get_ttl_value_from_state}: each stored value of {@code key} with its expiry. */
    static List<String> ttlValues(SparkTwsPort p, String key) {
        List<String> out = new ArrayList<>();
        for (StateReader.StoredValue v : stored(p, key)) {
            out.add(key + "," + v.value() + ",true," + (v.expiresAtMs() - T0));
        }
        return out;
    }

    /** {@code get_without_enforcing_ttl}: each stored value of {@code key}, expired or not. */
    static List<String> rawValues(SparkTwsPort p, String key) {
        List<String> out = new ArrayList<>();
        for (StateReader.StoredValue v : stored(p, key)) {
            out.add(key + "," + v.value() + ",false,-1");
        }
        return out;
    }

    /** {@code get_values_in_ttl_state}: the expiries the TTL index holds for {@code key}. */
    List<String> ttlIndex(SparkTwsPort p, String key) {
        TreeSet<Long> expiries = new TreeSet<>();
        for (StateReader.StoredValue v : stored(p, key)) {
            expiries.add(v.expiresAtMs() - T0);
        }
        if (kind() == Kind.LIST && !expiries.isEmpty()) {
            expiries.retainAll(List.of(expiries.first()));
        }
        List<String> out = new ArrayList<>();
        expiries.forEach(e -> out.add(key + ",-1,true," + e));
        return out;
    }

    static Map<String, Long> customMetrics(SparkTwsPort p, String operator) {
        return RtmProcessorMetrics.sparkCustomMetrics(p.driver().metrics(), null)
                .getOrDefault(operator, Map.of());
    }

    @Test
    @DisplayName("TransformWithStateTTLTest: validate state is evicted at ttl expiry")
    void shouldEvictStateAtTtlExpiryAcrossRestarts() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(1))) {
            p.add("k1", "put,1");
            p.advance(1000);
            p.check();
            p.restart();
            // get this state, and make sure we get unexpired value
            p.add("k1", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1");
            p.restart();
            // ensure ttl values were added correctly
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,61000");
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,61000");
            p.advance(1000);
            p.restart();
            // advance clock so that state expires
            p.advance(60 * 1000);
            p.add("k1", "get,");
            p.advance(1000);
            // validate expired value is not returned
            p.check();
            // ensure this state does not exist any longer in State
            assertThat(rawValues(p, "k1")).isEmpty();
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).isEmpty();
            Map<String, Long> m = customMetrics(p, "ttl");
            assertThat(m.get(stateTtlMetricName())).isGreaterThan(0L);
            assertThat(m.get("numValuesRemovedDueToTTLExpiry")).isGreaterThan(0L);
            p.advance(1000);
        }
    }

    @Test
    @DisplayName("TransformWithStateTTLTest: validate state update updates the expiration timestamp")
    void shouldMoveTheExpiryWhenTheStateIsUpdated() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(1))) {
            p.add("k1", "put,1");
            p.advance(1000);
            p.check();
            p.add("k1", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1");
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,61000");
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,61000");
            p.advance(1000);
            // advance clock and update expiration time
            p.advance(30 * 1000);
            p.add("k1", "put,1");
            p.add("k1", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1");
            // validate ttl value is updated in the state
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,95000");
            p.advance(1000);
            // validate ttl state has only the newer ttl value present
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,95000");
            p.advance(1000);
            // advance clock after original expiration value; this shouldn't do anything
            p.advance(30 * 1000);
            p.add("k1", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1");
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,95000");
            p.advance(1000);
        }
    }

    @Test
    @DisplayName("TransformWithStateTTLTest: validate state is evicted at ttl expiry for no data batch")
    void shouldEvictStateInANoDataBatch() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(1))) {
            p.add("k1", "put,1");
            p.advance(1000);
            p.check();
            p.add("k1", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1");
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,61000");
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,61000");
            p.advance(1000);
            // advance clock so that state expires; run a no data batch
            p.advance(60 * 1000);
            p.check();
            // the no-data batch evicted the expired state (Spark's TTL cleanup runs when every batch commits)
            assertThat(rawValues(p, "k1")).isEmpty();
            p.add("k1", "get,");
            p.advance(1000);
            p.check();
            assertThat(rawValues(p, "k1")).isEmpty();
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).isEmpty();
            p.advance(1000);
        }
    }

    @Test
    @DisplayName("TransformWithStateTTLTest: validate only expired keys are removed from the state")
    void shouldRemoveOnlyTheExpiredKeys() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(1))) {
            p.add("k1", "put,1");
            p.advance(1000);
            p.check();
            // advance clock halfway to expiration ttl, and add another key
            p.advance(30 * 1000);
            p.add("k2", "put,2");
            p.advance(1000);
            p.check();
            // advance clock so that key k1 is expired
            p.advance(30 * 1000);
            p.add("k1", "get,1");
            p.add("k2", "get,");
            p.advance(1000);
            p.check("k2,2,false,-1");
            // validate k1 is deleted from state
            assertThat(ttlValues(p, "k1")).isEmpty();
            assertThat(ttlIndex(p, "k1")).isEmpty();
            p.advance(1000);
            // validate k2 exists in state
            assertThat(ttlValues(p, "k2")).containsExactly("k2,2,true,92000");
            assertThat(ttlIndex(p, "k2")).containsExactly("k2,-1,true,92000");
            p.advance(1000);
        }
    }

    @Test
    @DisplayName("TransformWithStateTTLTest: validate that clear only clears the current grouping key")
    void shouldClearOnlyTheCurrentGroupingKey() {
        try (SparkTwsPort p = stream(Duration.ofMinutes(1))) {
            p.add("k1", "put,1");
            p.add("k2", "put,2");
            p.add("k3", "put,3");
            p.advance(1000);
            p.check();
            p.add("k1", "clear,");
            p.advance(1000);
            p.check();
            assertThat(ttlValues(p, "k1")).isEmpty();
            assertThat(ttlIndex(p, "k1")).isEmpty();
            assertThat(ttlValues(p, "k2")).containsExactly("k2,2,true,61000");
            assertThat(ttlIndex(p, "k2")).containsExactly("k2,-1,true,61000");
            assertThat(ttlValues(p, "k3")).containsExactly("k3,3,true,61000");
            assertThat(ttlIndex(p, "k3")).containsExactly("k3,-1,true,61000");
            p.advance(1000);
        }
    }
}
