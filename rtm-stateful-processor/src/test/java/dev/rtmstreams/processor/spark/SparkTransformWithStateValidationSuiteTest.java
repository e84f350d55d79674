package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.expectFailure;
import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;

import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Port of Spark's {@code TransformWithStateValidationSuite} (in
 * sql/core/src/test/scala/org/apache/spark/sql/streaming/TransformWithStateSuite.scala). Spark's "classified" error
 * is {@code StateStoreErrors.multipleColumnFamiliesNotSupported("dummy val")}, a Spark error with its own class: here
 * an {@link RtmException} with the same code and parameter, which must pass through unwrapped; an "unclassified"
 * error is a plain exception, wrapped in {@code TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR}. Queries with Spark's
 * processing-time trigger run in micro-batch mode with a 1 s interval ({@link SparkTwsPort}).
 *
 * <p>Skipped:
 * <ul>
 *   <li>"transformWithState - streaming with hdfsStateStoreProvider should fail",
 *       "transformWithStateWithInitialState - streaming with hdfsStateStoreProvider should fail": Spark state-store
 *       providers.</li>
 *   <li>"transformWithState - validate timeModes": Spark's internal {@code TransformWithStateVariableUtils}
 *       check that batch time values exist.</li>
 *   <li>"transformWithState - ValueState.exists() should fail in init", "... MapState.exists() ...",
 *       "... ListState.exists() ...": Spark reports these from its driver-side schema pass, with
 *       {@code handleState=PRE_INIT} and {@code operationType=valueState.exists}; our init-time error has the same
 *       class with {@code handleState=CREATED} and the method's snake-case name ({@code exists}), the handle-state
 *       parameters already aligned with Spark's executor-side handle (docs/spark-migration.md).</li>
 * </ul>
 */
class SparkTransformWithStateValidationSuiteTest {

    static final String CLASSIFIED = "UNSUPPORTED_FEATURE.STATE_STORE_MULTIPLE_COLUMN_FAMILIES";

    static RtmException classified() {
        return new RtmException(
                CLASSIFIED,
                Map.of("stateStoreProvider", "dummy val"),
                "Creating multiple column families with dummy val is not supported.");
    }

    private static SparkTwsPort probe(TimeMode mode, boolean initialState, Consumer<HandleProbe> setup) {
        Supplier<HandleProbe> s = () -> {
            HandleProbe p = new HandleProbe();
            setup.accept(p);
            return p;
        };
        return new SparkTwsPort(
                microBatch(TransformWithState.builder(s, mode))
                        .name("validation")
                        .build(),
                initialState);
    }

    @Test
    @DisplayName("TransformWithStateValidationSuite: transformWithState - check that error within handleInputRows is"
            + " classified")
    void shouldWrapAPlainExceptionFromHandleInputRows() {
        try (SparkTwsPort p = probe(
                TimeMode.NONE,
                false,
                h -> h.onRow = (handle, row, out) -> {
                    throw new IllegalStateException("dummy unclassified error");
                })) {
            p.add("a", "a");
            expectFailure(
                    () -> p.advance(1000),
                    "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                    "reason",
                    "dummy unclassified error",
                    "function",
                    "handleInputRows");
        }
    }

    @Test
    @DisplayName("TransformWithStateValidationSuite: transformWithState - check that classified error is thrown from"
            + " handleInputRows")
    void shouldPassAClassifiedErrorFromHandleInputRowsThrough() {
        try (SparkTwsPort p = probe(
                TimeMode.NONE,
                false,
                h -> h.onRow = (handle, row, out) -> {
                    throw classified();
                })) {
            p.add("a", "a");
            expectFailure(() -> p.advance(1000), CLASSIFIED, "stateStoreProvider", "dummy val");
        }
    }

    @Test
    @DisplayName("TransformWithStateValidationSuite: transformWithState - check that error within handleInitialState is"
            + " classified")
    void shouldWrapAPlainExceptionFromHandleInitialState() {
        try (SparkTwsPort p = probe(
                TimeMode.NONE,
                true,
                h -> h.onInitialState = handle -> {
                    throw new IllegalStateException("dummy unclassified error");
                })) {
            expectFailure(
                    () -> p.addInitial("init_1", "init_1"),
                    "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                    "reason",
                    "dummy unclassified error",
                    "function",
                    "handleInitialState");
        }
    }

    @Test
    @DisplayName("TransformWithStateValidationSuite: transformWithState - check that classified error is thrown from"
            + " handleInitialState")
    void shouldPassAClassifiedErrorFromHandleInitialStateThrough() {
        try (SparkTwsPort p = probe(
                TimeMode.NONE,
                true,
                h -> h.onInitialState = handle -> {
                    throw classified();
                })) {
            expectFailure(() -> p.addInitial("init_1", "init_1"), CLASSIFIED, "stateStoreProvider", "dummy val");
        }
    }

    @Test
    @DisplayName("TransformWithStateValidationSuite: transformWithState - check that error within handleExpiredTimer is"
            + " classified")
    void shouldWrapAPlainExceptionFromHandleExpiredTimer() {
        try (SparkTwsPort p = new SparkTwsPort(microBatch(TransformWithState.builder(
                        () -> new TimerErrorProcessor(new IllegalStateException("dummy unclassified error")),
                        TimeMode.PROCESSING_TIME))
                .name("validation")
                .build())) {
            p.add("a", "a");
            p.advance(1000);
            p.check();
            expectFailure(
                    () -> p.advance(2000),
                    "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                    "reason",
                    "dummy unclassified error",
                    "function",
                    "handleExpiredTimer");
        }
    }

    @Test
    @DisplayName("TransformWithStateValidationSuite: transformWithState - check that classified error is thrown from"
            + " handleExpiredTimer")
    void shouldPassAClassifiedErrorFromHandleExpiredTimerThrough() {
        try (SparkTwsPort p = new SparkTwsPort(microBatch(TransformWithState.builder(
                        () -> new TimerErrorProcessor(classified()), TimeMode.PROCESSING_TIME))
                .name("validation")
                .build())) {
            p.add("a", "a");
            p.advance(1000);
            p.check();
            expectFailure(() -> p.advance(2000), CLASSIFIED, "stateStoreProvider", "dummy val");
        }
    }

    /** Spark's {@code UnclassifiedTimerErrorProcessor} / {@code ClassifiedTimerErrorProcessor}. */
    static final class TimerErrorProcessor extends StatefulProcessor<String, String, String> {
        private final RuntimeException error;

        TimerErrorProcessor(RuntimeException error) {
            this.error = error;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            getHandle().getValueState("testState", Serdes.String());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + 1000);
            return List.<String>of().iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(
                String key, TimerValues timerValues, dev.rtmstreams.processor.ExpiredTimerInfo info) {
            throw error;
        }
    }

    /** Spark's {@code MinEventTimeStatefulProcessor}: outputs the minimum event time (seconds) seen per key. */
    static final class MinEventTimeProcessor extends StatefulProcessor<String, String, String> {
        private ValueState<Long> min;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            min = getHandle().getValueState("minEventTime", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long m = min.getOption().orElse(Long.MAX_VALUE);
            while (rows.hasNext()) {
                m = Math.min(m, Long.parseLong(rows.next()));
            }
            min.update(m);
            return List.of(String.valueOf(m)).iterator();
        }
    }

    @ParameterizedTest(
            name = "transformWithState - using watermark but time mode as {0} should not perform late record filtering")
    @EnumSource(
            value = TimeMode.class,
            names = {"NONE", "PROCESSING_TIME"})
    @DisplayName("TransformWithStateValidationSuite: transformWithState - using watermark but time mode as $timeMode"
            + " should not perform late record filtering")
    void shouldNotDropLateRowsUnlessInEventTime(TimeMode mode) {
        try (SparkTwsPort p = new SparkTwsPort(microBatch(TransformWithState.builder(MinEventTimeProcessor::new, mode))
                .name("validation")
                .eventTimeExtractor((k, v, ts) -> Long.parseLong(v) * 1000)
                .watermarkDelay(Duration.ofSeconds(10))
                .build())) {
            p.add("a", "11");
            p.add("a", "13");
            p.add("a", "15");
            p.advance(1000);
            // min event time = 11; a watermark would be 15 - 10 = 5
            p.check("a,11");
            p.add("a", "4"); // older than the watermark would be
            p.advance(1000);
            p.check("a,4"); // not filtered
            p.add("a", "1");
            p.advance(1000);
            p.check("a,1");
            p.add("a", "85");
            p.advance(1000);
            p.check("a,1");
        }
    }
}
