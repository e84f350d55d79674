package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.expectFailure;
import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;

import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code TransformWithMapStateSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/TransformWithMapStateSuite.scala). Spark's queries here run
 * with the default trigger (each {@code CheckNewAnswer} processes what was added): here a micro-batch operator with
 * a 1 s interval and one clock advance before each check (see {@link SparkTwsPort}). Input rows are
 * {@code "action,userKey,value"} (Spark's {@code InputMapRow(key, action, (userKey, value))}; {@code <null>} stands for
 * a null); output rows are {@code "key,a,b"} for Spark's {@code (key, a, b)} tuples. Every expected output is Spark's.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"transformWithMapState - batch should succeed": a Spark batch (non-streaming) Dataset query.</li>
 * </ul>
 */
class SparkTransformWithMapStateSuiteTest {

    static final String NULL = "<null>";

    private static String orNull(String s) {
        return NULL.equals(s) ? null : s;
    }

    /** Spark's {@code TestMapStateProcessor}. */
    static final class TestMapStateProcessor extends StatefulProcessor<String, String, String> {
        private MapState<String, String> mapState;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            mapState = getHandle().getMapState("sessionState", Serdes.String(), Serdes.String());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> output = new ArrayList<>();
            while (rows.hasNext()) {
                String[] row = rows.next().split(",", -1);
                String action = row[0];
                String uk = orNull(row[1]);
                String uv = orNull(row[2]);
                switch (action) {
                    case "exists" -> output.add("exists," + mapState.exists());
                    case "getValue" -> output.add(uk + "," + mapState.getValue(uk));
                    case "containsKey" -> output.add(uk + "," + mapState.containsKey(uk));
                    case "updateValue" -> mapState.updateValue(uk, uv);
                    case "iterator" ->
                        mapState.iterator().forEachRemaining(e -> output.add(e.getKey() + "," + e.getValue()));
                    case "keys" -> mapState.keys().forEachRemaining(k -> output.add(k + "," + uv));
                    case "values" -> mapState.values().forEachRemaining(v -> output.add(uk + "," + v));
                    case "removeKey" -> mapState.removeKey(uk);
                    case "clear" -> mapState.clear();
                    default -> throw new IllegalArgumentException("unknown action " + action);
                }
            }
            return output.iterator();
        }
    }

    static SparkTwsPort mapStream(OutputMode outputMode) {
        return new SparkTwsPort(microBatch(TransformWithState.builder(TestMapStateProcessor::new, TimeMode.NONE))
                .name("map")
                .outputMode(outputMode)
                .build());
    }

    @Test
    @DisplayName("TransformWithMapStateSuite: Test retrieving value with non-existing user key")
    void shouldReturnNullWhenTheUserKeyDoesNotExist() {
        try (SparkTwsPort p = mapStream(OutputMode.UPDATE)) {
            p.add("k1", "getValue,v1,");
            p.advance(1000);
            p.check("k1,v1,null");
        }
    }

    private static void expectNullUserKeyFailure(String action) {
        try (SparkTwsPort p = mapStream(OutputMode.UPDATE)) {
            p.add("k1", action + "," + NULL + ",");
            expectFailure(() -> p.advance(1000), "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE", "stateName", "sessionState");
        }
    }

    @Test
    @DisplayName("TransformWithMapStateSuite: Test getValue with null user key")
    void shouldFailWithNullValueWhenGetValueHasANullUserKey() {
        expectNullUserKeyFailure("getValue");
    }

    @Test
    @DisplayName("TransformWithMapStateSuite: Test containsKey with null user key")
    void shouldFailWithNullValueWhenContainsKeyHasANullUserKey() {
        expectNullUserKeyFailure("containsKey");
    }

    @Test
    @DisplayName("TransformWithMapStateSuite: Test updateValue with null user key")
    void shouldFailWithNullValueWhenUpdateValueHasANullUserKey() {
        expectNullUserKeyFailure("updateValue");
    }

    @Test
    @DisplayName("TransformWithMapStateSuite: Test removeKey with null user key")
    void shouldFailWithNullValueWhenRemoveKeyHasANullUserKey() {
        expectNullUserKeyFailure("removeKey");
    }

    @Test
    @DisplayName("TransformWithMapStateSuite: Test put value with null value")
    void shouldFailWithNullValueWhenUpdateValueHasANullValue() {
        try (SparkTwsPort p = mapStream(OutputMode.UPDATE)) {
            p.add("k1", "updateValue,k1," + NULL);
            expectFailure(() -> p.advance(1000), "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE", "stateName", "sessionState");
        }
    }

    @Test
    @DisplayName("TransformWithMapStateSuite: Test map state correctness")
    void shouldKeepMapSemanticsPerGroupingKey() {
        try (SparkTwsPort p = mapStream(OutputMode.APPEND)) {
            // Test exists()
            p.add("k1", "updateValue,v1,10");
            p.add("k1", "exists,,");
            p.add("k2", "exists,,");
            p.advance(1000);
            p.check("k1,exists,true", "k2,exists,false");
            // Test get and put with composite key
            p.add("k1", "updateValue,v2,5");
            p.add("k2", "updateValue,v2,3");
            p.add("k2", "updateValue,v2,12");
            p.add("k2", "updateValue,v4,1");
            // Different grouping key, same user key
            p.add("k1", "getValue,v2,");
            p.advance(1000);
            p.check("k1,v2,5");
            // Same grouping key, same user key, update value should reflect
            p.add("k2", "getValue,v2,");
            p.advance(1000);
            p.check("k2,v2,12");
            // Test get full map for a given grouping key - prefixScan
            p.add("k2", "iterator,,");
            p.advance(1000);
            p.check("k2,v2,12", "k2,v4,1");
            p.add("k2", "keys,,");
            p.advance(1000);
            p.check("k2,v2,", "k2,v4,");
            p.add("k2", "values,,");
            p.advance(1000);
            p.check("k2,,12", "k2,,1");
            // Test remove functionalities
            p.add("k1", "removeKey,v2,");
            p.add("k1", "containsKey,v2,");
            p.advance(1000);
            p.check("k1,v2,false");
            p.add("k2", "clear,,");
            p.add("k2", "iterator,,");
            p.advance(1000);
            p.check();
            p.add("k2", "exists,,");
            p.advance(1000);
            p.check("k2,exists,false");
        }
    }
}
