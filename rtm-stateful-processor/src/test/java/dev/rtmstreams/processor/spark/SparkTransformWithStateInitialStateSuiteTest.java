package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;

import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessorWithInitialState;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code TransformWithStateInitialStateSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/TransformWithStateInitialStateSuite.scala). Spark applies
 * the initial-state Dataset in the query's first batch, before any input; here its rows are piped into the
 * initial-state input ({@code tws.initialStateProcessor()}) before the first input row. Queries run in micro-batch
 * mode with a 1 s interval ({@link SparkTwsPort}). Spark's {@code InitInputRow(key, action, value)} is
 * {@code "action,value"}, its output {@code (key, action, value)} is {@code "key,action,value"} (doubles as Java
 * prints them). Spark's checks that the custom metric {@code initialStateProcessingTimeMs} is above 0 are not ported:
 * it is a duration in whole milliseconds, and handling two initial rows here takes well under one.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"transformWithStateWithInitialState - batch should succeed": a Spark batch (non-streaming) query.</li>
 *   <li>"state data source reader dataframe as initial state (flatten option=..., shuffle partition ...)" (6
 *       variants): Spark's state data source DataFrames, unioned into several initial-state rows per grouping key;
 *       our initial-state input accepts one row per key (STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY, as
 *       aligned with Spark's per-key rule; docs/spark-migration.md).</li>
 * </ul>
 */
class SparkTransformWithStateInitialStateSuiteTest {

    /** Spark's {@code StatefulProcessorWithInitialStateTestClass} with {@code InitialStateInMemoryTestClass}. */
    static class InMemoryInitialState extends StatefulProcessorWithInitialState<String, String, String, String> {
        ValueState<Double> valState;
        ListState<Double> listState;
        MapState<Double, Integer> mapState;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            valState = getHandle().getValueState("testValueInit", Serdes.Double());
            listState = getHandle().getListState("testListInit", Serdes.Double());
            mapState = getHandle().getMapState("testMapInit", Serdes.Double(), Serdes.Integer());
        }

        /** {@code InputRowForInitialState(key, value, entries, mapping)} as {@code "value;e1|e2;k=v|k=v"}. */
        @Override
        public void handleInitialState(String key, String initialState, TimerValues timerValues) {
            String[] parts = initialState.split(";");
            valState.update(Double.parseDouble(parts[0]));
            List<Double> entries = new ArrayList<>();
            for (String e : parts[1].split("\\|")) {
                entries.add(Double.parseDouble(e));
            }
            listState.appendList(entries);
            for (String kv : parts[2].split("\\|")) {
                String[] p = kv.split("=");
                mapState.updateValue(Double.parseDouble(p[0]), Integer.parseInt(p[1]));
            }
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String[] row = rows.next().split(",");
                String action = row[0];
                double value = Double.parseDouble(row[1]);
                switch (action) {
                    case "getOption" ->
                        out.add(action + "," + valState.getOption().orElse(-1.0));
                    case "update" -> valState.update(value);
                    case "remove" -> valState.clear();
                    case "getList" -> listState.get().forEachRemaining(e -> out.add(action + "," + e));
                    case "appendList" -> listState.appendValue(value);
                    case "clearList" -> listState.clear();
                    case "getCount" ->
                        out.add(action + "," + (double) (mapState.containsKey(value) ? mapState.getValue(value) : 0));
                    case "incCount" ->
                        mapState.updateValue(value, (mapState.containsKey(value) ? mapState.getValue(value) : 0) + 1);
                    case "clearCount" -> mapState.removeKey(value);
                    default -> throw new IllegalArgumentException("unknown action " + action);
                }
            }
            return out.iterator();
        }
    }

    /** Spark's {@code AccumulateStatefulProcessorWithInitState}: initial state {@code (key, double)}. */
    static final class Accumulate extends InMemoryInitialState {
        @Override
        public void handleInitialState(String key, String initialState, TimerValues timerValues) {
            valState.update(Double.parseDouble(initialState));
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String[] row = rows.next().split(",");
                switch (row[0]) {
                    case "getOption" ->
                        out.add(row[0] + "," + valState.getOption().orElse(0.0));
                    case "add" -> valState.update(valState.getOption().orElse(0.0) + Double.parseDouble(row[1]));
                    case "remove" -> valState.clear();
                    default -> throw new IllegalArgumentException("unknown action " + row[0]);
                }
            }
            return out.iterator();
        }
    }

    @Test
    @DisplayName("TransformWithStateInitialStateSuite: transformWithStateWithInitialState - correctness test, run with"
            + " multiple state variables - in-memory type")
    void shouldSeedValueListAndMapStateFromInitialState() {
        try (SparkTwsPort p = new SparkTwsPort(
                microBatch(TransformWithState.builder(InMemoryInitialState::new, TimeMode.NONE))
                        .name("init")
                        .outputMode(OutputMode.APPEND)
                        .build(),
                true)) {
            p.addInitial("init_1", "40.0;40.0;40.0=1");
            p.addInitial("init_2", "100.0;100.0;100.0=1");
            // non-exist key test
            p.add("k1", "update,37.0");
            p.add("k2", "update,40.0");
            p.add("non-exist", "getOption,-1.0");
            p.advance(1000);
            p.check("non-exist,getOption,-1.0");
            p.add("k1", "appendList,37.0");
            p.add("k2", "appendList,40.0");
            p.add("non-exist", "getList,-1.0");
            p.advance(1000);
            p.check();
            p.add("k1", "incCount,37.0");
            p.add("k2", "incCount,40.0");
            p.add("non-exist", "getCount,-1.0");
            p.advance(1000);
            p.check("non-exist,getCount,0.0");
            p.add("k2", "incCount,40.0");
            p.add("k2", "getCount,40.0");
            p.advance(1000);
            p.check("k2,getCount,2.0");
            // test every row in initial State is processed
            p.add("init_1", "getOption,-1.0");
            p.advance(1000);
            p.check("init_1,getOption,40.0");
            p.add("init_2", "getOption,-1.0");
            p.advance(1000);
            p.check("init_2,getOption,100.0");
            p.add("init_1", "getList,-1.0");
            p.advance(1000);
            p.check("init_1,getList,40.0");
            p.add("init_2", "getList,-1.0");
            p.advance(1000);
            p.check("init_2,getList,100.0");
            p.add("init_1", "getCount,40.0");
            p.advance(1000);
            p.check("init_1,getCount,1.0");
            p.add("init_2", "getCount,100.0");
            p.advance(1000);
            p.check("init_2,getCount,1.0");
            // Update row with key in initial row will work
            p.add("init_1", "update,50.0");
            p.add("init_1", "getOption,-1.0");
            p.advance(1000);
            p.check("init_1,getOption,50.0");
            p.add("init_1", "remove,-1.0");
            p.add("init_1", "getOption,-1.0");
            p.advance(1000);
            p.check("init_1,getOption,-1.0");
            p.add("init_1", "appendList,50.0");
            p.add("init_1", "getList,-1.0");
            p.advance(1000);
            p.check("init_1,getList,50.0", "init_1,getList,40.0");
            p.add("init_1", "incCount,40.0");
            p.add("init_1", "getCount,40.0");
            p.advance(1000);
            p.check("init_1,getCount,2.0");
            // test remove
            p.add("k1", "remove,-1.0");
            p.add("k1", "getOption,-1.0");
            p.advance(1000);
            p.check("k1,getOption,-1.0");
            p.add("init_1", "clearCount,-1.0");
            p.add("init_1", "getCount,-1.0");
            p.advance(1000);
            p.check("init_1,getCount,0.0");
            p.add("init_1", "clearList,-1.0");
            p.add("init_1", "getList,-1.0");
            p.advance(1000);
            p.check();
        }
    }

    @Test
    @DisplayName("TransformWithStateInitialStateSuite: transformWithStateWithInitialState - correctness test,"
            + " processInitialState should only run once")
    void shouldApplyInitialStateOnlyOnce() {
        try (SparkTwsPort p = new SparkTwsPort(
                microBatch(TransformWithState.builder(Accumulate::new, TimeMode.NONE))
                        .name("init")
                        .outputMode(OutputMode.APPEND)
                        .build(),
                true)) {
            p.addInitial("init_1", "40.0");
            p.addInitial("init_2", "100.0");
            p.add("init_1", "add,50.0");
            p.add("init_2", "add,60.0");
            p.add("init_1", "add,50.0");
            // if the initial state were applied more than once, these would fail
            p.add("init_1", "getOption,-1.0");
            p.add("init_2", "getOption,-1.0");
            p.advance(1000);
            p.check("init_2,getOption,160.0", "init_1,getOption,140.0");
            // and a restart does not apply it again (Spark: only in the query's first batch)
            p.restart();
            p.add("init_1", "getOption,-1.0");
            p.advance(1000);
            p.check("init_1,getOption,140.0");
        }
    }

    /** Spark's {@code StatefulProcessorWithInitialStateProcTimerClass}. */
    static final class ProcTimer extends StatefulProcessorWithInitialState<String, String, String, String> {
        private ValueState<Long> timerState;
        private ValueState<Long> countState;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            countState = getHandle().getValueState("countState", Serdes.Long());
            timerState = getHandle().getValueState("timerState", Serdes.Long());
        }

        private void processUnexpiredRows(String key, long currCount, long count, TimerValues tv) {
            countState.update(count);
            if (key.equals("a")) {
                if (currCount == 0) {
                    long next = tv.getCurrentProcessingTimeInMs() + 5000;
                    getHandle().registerTimer(next);
                    timerState.update(next);
                } else if (currCount == 1) {
                    // Scala unboxes Spark's null (no value) to 0L: deleteTimer(0) deletes nothing
                    Long registered = timerState.get();
                    getHandle().deleteTimer(registered == null ? 0L : registered);
                    long next = tv.getCurrentProcessingTimeInMs() + 7500;
                    getHandle().registerTimer(next);
                    timerState.update(next);
                }
            }
        }

        @Override
        public void handleInitialState(String key, String initialState, TimerValues timerValues) {
            processUnexpiredRows(key, 0L, 1L, timerValues);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long curr = countState.getOption().orElse(0L);
            long n = 0;
            while (rows.hasNext()) {
                rows.next();
                n++;
            }
            processUnexpiredRows(key, curr, curr + n, timerValues);
            return List.of(String.valueOf(curr + n)).iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            timerState.clear();
            return List.of("-1").iterator();
        }
    }

    @Test
    @DisplayName("TransformWithStateInitialStateSuite: transformWithStateWithInitialState - streaming with processing"
            + " time timer, can emit expired initial state rows when grouping key is not received for new input rows")
    void shouldFireTimersRegisteredByInitialStateInProcessingTime() {
        try (SparkTwsPort p = new SparkTwsPort(
                microBatch(TransformWithState.builder(ProcTimer::new, TimeMode.PROCESSING_TIME))
                        .name("init")
                        .build(),
                true)) {
            // Spark handles the initial state in the first batch, at ts = 1000: timers for "a" at 6000. Ours applies
            // it when it arrives (docs/stateful-processor.md, "Initial state"), so it arrives just before that batch:
            // timer at 5999
            p.advance(1000 - 1);
            p.addInitial("a", "a");
            p.addInitial("b", "b");
            p.add("c", "c");
            p.advance(1);
            p.check("c,1");
            p.add("c", "c");
            p.advance(6 * 1000); // ts = 7000, "a" expires
            // "a" is never received for new input rows, but emit here because it expires
            p.check("a,-1", "c,2");
            p.add("a", "a");
            p.add("a", "a");
            p.advance(1000); // ts = 8000, register timer for "a" as ts = 15500
            p.check("a,3");
            p.add("b", "b");
            p.advance(8 * 1000); // ts = 16000, timer for "a" expired
            p.check("a,-1", "b,2"); // initial state for "b" is also processed
        }
    }

    /** Spark's {@code StatefulProcessorWithInitialStateEventTimerClass}; rows and initial state are seconds. */
    static final class EventTimer extends StatefulProcessorWithInitialState<String, String, String, String> {
        private ValueState<Long> maxEventTimeState;
        private ValueState<Long> timerState;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            maxEventTimeState = getHandle().getValueState("maxEventTimeState", Serdes.Long());
            timerState = getHandle().getValueState("timerState", Serdes.Long());
        }

        private void processUnexpiredRows(long maxEventTimeSec) {
            long timeoutTimestampMs = (maxEventTimeSec + 5) * 1000;
            maxEventTimeState.update(maxEventTimeSec);
            long registered = timerState.getOption().orElse(0L);
            if (registered < timeoutTimestampMs) {
                getHandle().deleteTimer(registered);
                getHandle().registerTimer(timeoutTimestampMs);
                timerState.update(timeoutTimestampMs);
            }
        }

        @Override
        public void handleInitialState(String key, String initialState, TimerValues timerValues) {
            processUnexpiredRows(Math.max(
                    Long.parseLong(initialState), maxEventTimeState.getOption().orElse(0L)));
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long max = Long.MIN_VALUE;
            while (rows.hasNext()) {
                max = Math.max(max, Long.parseLong(rows.next()));
            }
            long m = Math.max(max, maxEventTimeState.getOption().orElse(0L));
            processUnexpiredRows(m);
            return List.of(String.valueOf(m)).iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            maxEventTimeState.clear();
            return List.of("-1").iterator();
        }
    }

    @Test
    @DisplayName("TransformWithStateInitialStateSuite: transformWithStateWithInitialState - streaming with event time"
            + " timer, can emit expired initial state rows when grouping key is not received for new input rows")
    void shouldFireTimersRegisteredByInitialStateInEventTime() {
        try (SparkTwsPort p = new SparkTwsPort(
                microBatch(TransformWithState.builder(EventTimer::new, TimeMode.EVENT_TIME))
                        .name("init")
                        .eventTimeExtractor((k, v, ts) -> Long.parseLong(v) * 1000)
                        .watermarkDelay(Duration.ofSeconds(10))
                        .build(),
                true)) {
            p.addInitial("a", "11");
            p.addInitial("b", "5");
            p.add("a", "13");
            p.add("a", "15");
            p.advance(1000);
            p.check("a,15"); // output = max event time of a
            p.add("c", "7"); // older than the watermark for "a" and "b"
            p.advance(1000);
            p.check("c,7");
            p.add("d", "31"); // newer than the watermark
            // Spark's CheckNewAnswer also runs the no-data batch that the moved watermark triggers
            p.advance(1000);
            p.advance(1000);
            // "b" is never received for new input rows, but emit here because it expired
            p.check("a,-1", "b,-1", "c,-1", "d,31");
        }
    }
}
