package dev.rtmstreams.processor;

import static dev.rtmstreams.processor.LifecycleTest.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
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
import org.junit.jupiter.api.Test;

/**
 * The behaviours where rtm-streams changed to match Spark's transformWithState (docs/spark-migration.md).
 * Each test names the Spark source it follows.
 */
class SparkBehaviourChangesTest {

    static final long T0 = Harness.START.toEpochMilli();

    /** Spark: TimerStateImpl#getExpiredTimers and TransformWithStateExec#handleTimerRows (delete after handler). */
    @Test
    void shouldListFiringTimerInsideHandlerAndDeleteItAfterwardsEvenWhenReRegistered() {
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                ProcessingTimeTimersTest::commands,
                                (p, key, tv, expiry, out) -> {
                                    List<Long> ts = new ArrayList<>();
                                    p.getHandle().listTimers().forEachRemaining(t -> ts.add(t - T0));
                                    out.add("in handler timers=" + ts);
                                    p.getHandle().registerTimer(expiry); // deleted after the handler, as in Spark
                                },
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("spark-timers")
                .timerResolution(Duration.ofMillis(10))
                .build())) {
            h.pipe("a", "at:100");
            h.pipe("a", "at:300");
            h.advanceMs(200);
            assertThat(h.drainValues()).containsExactly("in handler timers=[100, 300]");
            h.pipe("a", "list");
            assertThat(h.drainValues()).containsExactly("timers=[300]");
            h.advanceMs(1000);
            assertThat(h.drainValues()).containsExactly("in handler timers=[300]");
            h.pipe("a", "list");
            assertThat(h.drainValues()).containsExactly("timers=[]");
        }
    }

    /** Spark: a due timer deleted by an earlier handler of the same pass does not fire. */
    @Test
    void shouldNotFireTimerDeletedByAnEarlierHandlerOfTheSamePass() {
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                ProcessingTimeTimersTest::commands,
                                (p, key, tv, expiry, out) -> {
                                    out.add("fired:" + (expiry - T0));
                                    p.getHandle().deleteTimer(T0 + 200);
                                },
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("spark-timers-del")
                .timerResolution(Duration.ofMillis(10))
                .build())) {
            h.pipe("a", "at:100");
            h.pipe("a", "at:200");
            h.advanceMs(500);
            assertThat(h.drainValues()).containsExactly("fired:100");
        }
    }

    /** Spark: WatermarkSupport#watermarkExpression is {@code eventTime <= watermark}: a row at the watermark is late. */
    @Test
    void shouldDropRowWhoseEventTimeEqualsTheWatermark() {
        try (Harness<String, String> h = Harness.strings(EventTimeTest.builder().build())) {
            h.pipe("a", "wm", 2000); // wm -> 1900
            h.pipe("a", "wm", 1900); // at the watermark: late
            h.pipe("a", "wm", 1901); // above it: processed
            assertThat(h.drainValues()).containsExactly("wm=0", "wm=1900");
        }
    }

    /** Spark: TransformWithStateSuite "Use statefulProcessor without transformWithState - handle should be absent". */
    @Test
    void shouldReportHandleNotInitializedWhenGetHandleCalledOutsideTransformWithState() {
        ScriptProcessor p = new ScriptProcessor(null, null, null, null);
        assertCode(p::getHandle, "STATE_STORE_HANDLE_NOT_INITIALIZED");
    }

    /** Spark: TransformWithStateExecBase#withStatefulProcessorErrorHandling. */
    @Test
    void shouldWrapUserExceptionsWithFunctionNameAndPassCodedErrorsThrough() {
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                (p, k, r, tv, out) -> {
                                    if (r.equals("boom")) {
                                        throw new IllegalArgumentException("bad row " + r);
                                    }
                                    p.getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 10);
                                },
                                (p, k, tv, expiry, out) -> {
                                    throw new IllegalStateException("timer failed");
                                },
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("spark-errors")
                .timerResolution(Duration.ofMillis(10))
                .build())) {
            assertCode(
                    () -> h.pipe("a", "boom"),
                    "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                    "function",
                    "handleInputRows",
                    "reason",
                    "bad row boom");
        }
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                (p, k, r, tv, out) ->
                                        p.getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 10),
                                (p, k, tv, expiry, out) -> {
                                    throw new IllegalStateException("timer failed");
                                },
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("spark-errors-timer")
                .timerResolution(Duration.ofMillis(10))
                .build())) {
            h.pipe("a", "x");
            assertCode(
                    () -> h.advanceMs(100),
                    "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                    "function",
                    "handleExpiredTimer",
                    "reason",
                    "timer failed");
        }
        // an error that already has a code is not wrapped
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                (p, k, r, tv, out) -> p.getHandle().getValueState("late", Serdes.String()),
                                null,
                                null),
                        TimeMode.NONE)
                .name("spark-errors-coded")
                .build())) {
            assertCode(
                    () -> h.pipe("a", "x"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                    "operationType",
                    "get_value_state");
        }
    }

    /** A processor that counts per key, seeded from initial state. */
    static final class Seeded extends StatefulProcessorWithInitialState<String, String, String, Long> {
        ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
        }

        @Override
        public void handleInitialState(String key, Long initialState, TimerValues timerValues) {
            if (initialState < 0) {
                throw new IllegalArgumentException("negative initial count " + initialState);
            }
            count.update(initialState);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long c = count.getOption().orElse(0L);
            while (rows.hasNext()) {
                rows.next();
                c++;
            }
            count.update(c);
            return List.of(key + "=" + c).iterator();
        }
    }

    private static TopologyTestDriver seededDriver() {
        TransformWithState<String, String, String> tws = TransformWithState.builder(Seeded::new, TimeMode.NONE)
                .name("seeded")
                .build();
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, Long> initial = b.stream("initial", Consumed.with(Serdes.String(), Serdes.Long()));
        initial.process(tws.initialStateProcessor());
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(tws)
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "seeded");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        return new TopologyTestDriver(b.build(), p, Harness.START);
    }

    /**
     * Spark: TransformWithStateInitialStateSuite "transformWithStateWithInitialState - streaming with initial state
     * with duplicate keys should fail" (STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY), and
     * TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR for handleInitialState.
     */
    @Test
    void shouldRejectSecondInitialStateRowForAKeyAndWrapInitialStateErrors() {
        try (TopologyTestDriver d = seededDriver()) {
            TestInputTopic<String, Long> init = d.createInputTopic(
                    "initial", Serdes.String().serializer(), Serdes.Long().serializer());
            TestInputTopic<String, String> in = d.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            init.pipeInput("a", 5L);
            init.pipeInput("b", 7L);
            in.pipeInput("a", "x");
            assertThat(out.readValuesToList()).containsExactly("a=6");
            assertCode(
                    () -> init.pipeInput("a", 9L),
                    "STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY",
                    "groupingKey",
                    "a");
        }
        try (TopologyTestDriver d = seededDriver()) {
            TestInputTopic<String, Long> init = d.createInputTopic(
                    "initial", Serdes.String().serializer(), Serdes.Long().serializer());
            assertCode(
                    () -> init.pipeInput("a", -1L),
                    "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                    "function",
                    "handleInitialState",
                    "reason",
                    "negative initial count -1");
        }
    }
}
