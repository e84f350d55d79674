package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.expectFailure;
import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.RtmProcessorMetrics;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.ValueState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code TransformWithListStateSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/TransformWithListStateSuite.scala). Spark runs these with
 * {@code Trigger.ProcessingTime("1 second")} and a manual clock: here the operator runs in micro-batch mode with a
 * 1 s interval (see {@link SparkTwsPort}), so the rows added before one clock advance form one batch, as in Spark.
 * Input rows are {@code "action,value"} (Spark's {@code InputRow(key, action, value)} with the key as record key);
 * output rows are {@code "key,value"}. Every expected output is Spark's.
 *
 * <p>Skipped: none. (Spark's {@code AlsoTestWithChangelogCheckpointingEnabled} reruns the suite with changelog
 * checkpointing; our store is always changelogged.)
 */
class SparkTransformWithListStateSuiteTest {

    /** Spark's {@code TestListStateProcessor}. */
    static final class TestListStateProcessor extends StatefulProcessor<String, String, String> {
        private ListState<String> listState;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            listState = getHandle().getListState("testListState", Serdes.String());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> output = new ArrayList<>();
            while (rows.hasNext()) {
                String[] row = rows.next().split(",", 2);
                String action = row[0];
                String value = row.length > 1 ? row[1] : "";
                switch (action) {
                    case "emit" -> output.add(value);
                    case "emitAllInState" -> {
                        listState.get().forEachRemaining(output::add);
                        listState.clear();
                    }
                    case "append" -> listState.appendValue(value);
                    case "appendAll" -> listState.appendList(Arrays.asList(value.split(",")));
                    case "put" -> listState.put(Arrays.asList(value.split(",")));
                    case "remove" -> listState.clear();
                    case "tryAppendingNull" -> listState.appendValue(null);
                    case "tryAppendingNullValueInList" -> listState.appendList(Arrays.asList((String) null));
                    case "tryAppendingNullList" -> listState.appendList(null);
                    case "tryPutNullList" -> listState.put(null);
                    case "tryPuttingNullInList" -> listState.put(Arrays.asList((String) null));
                    case "tryPutEmptyList" -> listState.put(List.of());
                    case "tryAppendingEmptyList" -> listState.appendList(List.of());
                    default -> {} // Spark ignores unknown actions (the suite sends "appendList")
                }
            }
            return output.iterator();
        }
    }

    /** Spark's {@code ToggleSaveAndEmitProcessor}. */
    static final class ToggleSaveAndEmitProcessor extends StatefulProcessor<String, String, String> {
        private ListState<String> listState;
        private ValueState<Boolean> valueState;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            listState = getHandle().getListState("testListState", Serdes.String());
            valueState = getHandle().getValueState("testValueState", Serdes.Boolean());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> in = new ArrayList<>();
            rows.forEachRemaining(in::add);
            if (!valueState.getOption().orElse(false)) {
                listState.appendList(in);
                valueState.update(true);
                return List.<String>of().iterator();
            }
            valueState.clear();
            List<String> out = new ArrayList<>(in);
            listState.get().forEachRemaining(out::add);
            listState.clear();
            return out.iterator();
        }
    }

    static SparkTwsPort listStream(TimeMode timeMode) {
        return new SparkTwsPort(microBatch(TransformWithState.builder(TestListStateProcessor::new, timeMode))
                .name("list")
                .outputMode(OutputMode.UPDATE)
                .build());
    }

    private static void expectIllegalValue(String action, String code) {
        try (SparkTwsPort p = listStream(TimeMode.PROCESSING_TIME)) {
            p.add("k1", action + ",");
            expectFailure(() -> p.advance(1000), code, "stateName", "testListState");
        }
    }

    @Test
    @DisplayName("TransformWithListStateSuite: test appending null value in list state throw exception")
    void shouldFailWithNullValueWhenAppendingNull() {
        expectIllegalValue("tryAppendingNull", "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE");
    }

    @Test
    @DisplayName("TransformWithListStateSuite: test putting null value in list state throw exception")
    void shouldFailWithNullValueWhenPuttingAListHoldingNull() {
        expectIllegalValue("tryPuttingNullInList", "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE");
    }

    @Test
    @DisplayName("TransformWithListStateSuite: test putting null list in list state throw exception")
    void shouldFailWithNullValueWhenPuttingANullList() {
        expectIllegalValue("tryPutNullList", "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE");
    }

    @Test
    @DisplayName("TransformWithListStateSuite: test appending null list in list state throw exception")
    void shouldFailWithNullValueWhenAppendingANullList() {
        expectIllegalValue("tryAppendingNullList", "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE");
    }

    @Test
    @DisplayName("TransformWithListStateSuite: test putting empty list in list state throw exception")
    void shouldFailWithEmptyListValueWhenPuttingAnEmptyList() {
        expectIllegalValue("tryPutEmptyList", "ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE");
    }

    @Test
    @DisplayName("TransformWithListStateSuite: test appending empty list in list state throw exception")
    void shouldFailWithEmptyListValueWhenAppendingAnEmptyList() {
        expectIllegalValue("tryAppendingEmptyList", "ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE");
    }

    @Test
    @DisplayName("TransformWithListStateSuite: test list state correctness")
    void shouldKeepAppendPutAndClearSemanticsPerKey() {
        try (SparkTwsPort p = listStream(TimeMode.EVENT_TIME)) {
            // no interaction test
            p.add("k1", "emit,v1");
            p.advance(1000);
            p.check("k1,v1");
            // check simple append
            p.add("k1", "append,v2");
            p.add("k1", "emitAllInState,");
            p.advance(1000);
            p.check("k1,v2");
            // multiple appends are correctly stored and emitted
            p.add("k2", "append,v1");
            p.add("k1", "append,v4");
            p.add("k2", "append,v2");
            p.add("k1", "emit,v5");
            p.add("k2", "emit,v3");
            p.advance(1000);
            p.check("k1,v5", "k2,v3");
            p.add("k1", "emitAllInState,");
            p.add("k2", "emitAllInState,");
            p.advance(1000);
            p.check("k2,v1", "k2,v2", "k1,v4");
            // check appendAll with append
            p.add("k3", "appendAll,v1,v2,v3");
            p.add("k3", "emit,v4");
            p.add("k3", "append,v5");
            p.advance(1000);
            p.check("k3,v4");
            p.add("k3", "emitAllInState,");
            p.advance(1000);
            p.check("k3,v1", "k3,v2", "k3,v3", "k3,v5");
            // check removal cleans up all data in state
            p.add("k4", "append,v2");
            p.add("k4", "appendList,v3,v4");
            p.add("k4", "remove,");
            p.add("k4", "emitAllInState,");
            p.advance(1000);
            p.check();
            // check put cleans up previous state and adds new state
            p.add("k5", "appendAll,v1,v2,v3");
            p.add("k5", "append,v4");
            p.add("k5", "put,v5,v6");
            p.add("k5", "emitAllInState,");
            p.advance(1000);
            p.check("k5,v5", "k5,v6");
            assertThat(RtmProcessorMetrics.sparkCustomMetrics(p.driver().metrics(), null)
                            .get("list")
                            .get("numListStateVars"))
                    .isGreaterThan(0L);
        }
    }

    @Test
    @DisplayName("TransformWithListStateSuite: test ValueState And ListState in Processor")
    void shouldToggleBetweenSavingAndEmittingWithValueAndListState() {
        try (SparkTwsPort p = new SparkTwsPort(
                microBatch(TransformWithState.builder(ToggleSaveAndEmitProcessor::new, TimeMode.PROCESSING_TIME))
                        .name("toggle")
                        .build())) {
            p.add("k1", "k1");
            p.add("k2", "k2");
            p.advance(1000);
            p.check();
            p.add("k1", "k1");
            p.add("k2", "k2");
            p.advance(1000);
            p.check("k1,k1", "k1,k1", "k2,k2", "k2,k2");
        }
    }
}
