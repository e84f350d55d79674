package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.expectFailure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.RtmProcessorMetrics;
import dev.rtmstreams.processor.StatefulProcessorHandle;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import java.time.Duration;
import java.util.ArrayList;
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
 * Port of Spark's {@code StatefulProcessorHandleSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/execution/streaming/state/StatefulProcessorHandleSuite.scala). Spark
 * unit-tests {@code StatefulProcessorHandleImpl} and sets its handle state by hand; our handle is internal, so each
 * state is reached through the processor phase that has it ({@link HandleProbe}): CREATED in {@code init},
 * INITIALIZED in {@code handleInitialState}, DATA_PROCESSED in {@code handleInputRows}, CLOSED after {@code close}.
 * Spark's tests over several time modes are one parameterized test each (one invocation per Spark test). The
 * operator runs in real-time mode: these tests are about the handle, not batches.
 *
 * <p>Not ported, within ported tests:
 * <ul>
 *   <li>the TIMER_PROCESSED cases of "value state creation with timeMode=... and invalid state should fail" and
 *       "registering timeouts with timeMode=... and invalid state should fail": in Spark TIMER_PROCESSED is the
 *       state after the timer phase of a batch (and while {@code close} runs), which user code of our API cannot
 *       reach; inside {@code handleExpiredTimer} Spark's handle is DATA_PROCESSED (docs/spark-migration.md, handle states).</li>
 * </ul>
 * The "ttl States are populated ..." tests read Spark's internal {@code handle.ttlStates}; here Spark's custom
 * metrics {@code num*StateWithTTLVars} that count them.
 */
class SparkStatefulProcessorHandleSuiteTest {

    private static SparkTwsPort probe(TimeMode mode, Consumer<HandleProbe> setup) {
        Supplier<HandleProbe> s = () -> {
            HandleProbe p = new HandleProbe();
            setup.accept(p);
            return p;
        };
        return new SparkTwsPort(
                TransformWithState.builder(s, mode).name("handle").build(), true);
    }

    @ParameterizedTest(name = "value state creation with timeMode={0} should succeed")
    @EnumSource(TimeMode.class)
    @DisplayName("StatefulProcessorHandleSuite: value state creation with timeMode=$timeMode should succeed")
    void shouldDeclareValueStateInInitInEveryTimeMode(TimeMode mode) {
        List<String> seen = new ArrayList<>();
        try (SparkTwsPort p = probe(
                mode,
                h -> h.onInit = handle -> {
                    seen.add("created");
                    handle.getValueState("testState", Serdes.Long(), TtlConfig.NONE);
                })) {
            assertThat(seen).containsExactly("created");
        }
    }

    @ParameterizedTest(name = "value state creation with timeMode={0} and invalid state should fail")
    @EnumSource(TimeMode.class)
    @DisplayName(
            "StatefulProcessorHandleSuite: value state creation with timeMode=$timeMode and invalid state should fail")
    void shouldRejectValueStateCreationOutsideInit(TimeMode mode) {
        Consumer<StatefulProcessorHandle> create = handle -> handle.getValueState("testState", Serdes.Long());
        try (SparkTwsPort p = probe(mode, h -> h.onInitialState = create)) {
            expectFailure(
                    () -> p.addInitial("k", "x"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                    "operationType",
                    "get_value_state",
                    "handleState",
                    "INITIALIZED");
        }
        try (SparkTwsPort p = probe(mode, h -> h.onRow = (handle, row, out) -> create.accept(handle))) {
            expectFailure(
                    () -> p.add("k", "x"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                    "operationType",
                    "get_value_state",
                    "handleState",
                    "DATA_PROCESSED");
        }
        SparkTwsPort p = probe(mode, h -> {});
        p.add("k", "x");
        p.close();
        expectFailure(
                () -> create.accept(HandleProbe.last.getHandle()),
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                "operationType",
                "get_value_state",
                "handleState",
                "CLOSED");
    }

    @Test
    @DisplayName(
            "StatefulProcessorHandleSuite: registering processing/event time timeouts with None timeMode should fail")
    void shouldRejectTimersWhenTimeModeIsNone() {
        try (SparkTwsPort p = probe(
                TimeMode.NONE,
                h -> h.onRow = (handle, row, out) -> {
                    if (row.equals("register")) {
                        handle.registerTimer(10000L);
                    } else {
                        handle.deleteTimer(10000L);
                    }
                })) {
            expectFailure(
                    () -> p.add("k", "register"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                    "operationType",
                    "register_timer",
                    "timeMode",
                    "NoTime"); // Spark: TimeMode.None().toString
        }
        try (SparkTwsPort p = probe(TimeMode.NONE, h -> h.onRow = (handle, row, out) -> handle.deleteTimer(10000L))) {
            expectFailure(
                    () -> p.add("k", "delete"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                    "operationType",
                    "delete_timer",
                    "timeMode",
                    "NoTime"); // Spark: TimeMode.None().toString
        }
    }

    @ParameterizedTest(name = "registering timeouts with timeMode={0} should succeed")
    @EnumSource(
            value = TimeMode.class,
            names = {"PROCESSING_TIME", "EVENT_TIME"})
    @DisplayName("StatefulProcessorHandleSuite: registering timeouts with timeMode=$timeMode should succeed")
    void shouldRegisterAndDeleteTimersWhenInitialized(TimeMode mode) {
        List<String> listed = new ArrayList<>();
        try (SparkTwsPort p = probe(
                mode,
                h -> h.onInitialState = handle -> {
                    handle.registerTimer(10000L);
                    handle.deleteTimer(10000L);
                    handle.listTimers().forEachRemaining(t -> listed.add(String.valueOf(t)));
                })) {
            p.addInitial("test_key", "x");
            assertThat(listed).isEmpty();
        }
    }

    @ParameterizedTest(name = "verify listing of registered timers with timeMode={0}")
    @EnumSource(
            value = TimeMode.class,
            names = {"PROCESSING_TIME", "EVENT_TIME"})
    @DisplayName("StatefulProcessorHandleSuite: verify listing of registered timers with timeMode=$timeMode")
    void shouldListTheTimersOfTheCurrentKey(TimeMode mode) {
        Map<String, List<Long>> timers = Map.of(
                "test_key1",
                List.of(931L, 8000L, 452300L, 4200L, 90L, 1L, 2L, 8L, 3L, 35L, 6L, 9L, 5L),
                "test_key2",
                List.of(12000L, 14500L, 16000L));
        // far in the future in both time modes, so that none fires while listing
        long base = SparkTwsPort.T0 + Duration.ofDays(365).toMillis();
        try (SparkTwsPort p = probe(
                mode,
                h -> h.onRow = (handle, key, out) -> {
                    timers.get(key).forEach(t -> handle.registerTimer(base + t));
                    List<Long> listed = new ArrayList<>();
                    handle.listTimers().forEachRemaining(t -> listed.add(t - base));
                    out.add(listed.toString());
                })) {
            p.addAt("test_key1", "test_key1", 0);
            p.addAt("test_key2", "test_key2", 1); // a later event time: not late in event time
            assertThat(p.drain())
                    .containsExactly(
                            "test_key1,"
                                    + timers.get("test_key1").stream().sorted().toList(),
                            "test_key2,"
                                    + timers.get("test_key2").stream().sorted().toList());
        }
    }

    @ParameterizedTest(name = "registering timeouts with timeMode={0} and invalid state should fail")
    @EnumSource(
            value = TimeMode.class,
            names = {"PROCESSING_TIME", "EVENT_TIME"})
    @DisplayName(
            "StatefulProcessorHandleSuite: registering timeouts with timeMode=$timeMode and invalid state should fail")
    void shouldRejectTimerRegistrationInInitAndAfterClose(TimeMode mode) {
        expectFailure(
                () -> probe(mode, h -> h.onInit = handle -> handle.registerTimer(1000L))
                        .close(),
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                "operationType",
                "register_timer",
                "handleState",
                "CREATED");
        SparkTwsPort p = probe(mode, h -> {});
        p.add("k", "x");
        p.close();
        expectFailure(
                () -> HandleProbe.last.getHandle().registerTimer(1000L),
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                "operationType",
                "register_timer",
                "handleState",
                "CLOSED");
    }

    private static Map<String, Long> metricsAfterInit(TimeMode mode, Consumer<StatefulProcessorHandle> declare) {
        try (SparkTwsPort p = probe(mode, h -> h.onInit = declare)) {
            p.add("k", "x"); // the metrics are registered with the first record's task
            return RtmProcessorMetrics.sparkCustomMetrics(p.driver().metrics(), null)
                    .get("handle");
        }
    }

    private static final TtlConfig HOUR = TtlConfig.of(Duration.ofHours(1));

    @Test
    @DisplayName("StatefulProcessorHandleSuite: ttl States are populated for valueState and timeMode=ProcessingTime")
    void shouldCountValueStateWithTtl() {
        Map<String, Long> m = metricsAfterInit(TimeMode.PROCESSING_TIME, handle -> {
            handle.getValueState("testState", Serdes.String(), HOUR);
            // another state without TTL: not counted as a TTL state
            handle.getValueState("testState2", Serdes.String(), TtlConfig.NONE);
        });
        assertThat(m).containsEntry("numValueStateWithTTLVars", 1L);
    }

    @Test
    @DisplayName("StatefulProcessorHandleSuite: ttl States are populated for listState and timeMode=ProcessingTime")
    void shouldCountListStateWithTtl() {
        Map<String, Long> m = metricsAfterInit(TimeMode.PROCESSING_TIME, handle -> {
            handle.getListState("testState", Serdes.String(), HOUR);
            handle.getListState("testState2", Serdes.String(), TtlConfig.NONE);
        });
        assertThat(m).containsEntry("numListStateWithTTLVars", 1L);
    }

    @Test
    @DisplayName("StatefulProcessorHandleSuite: ttl States are populated for mapState and timeMode=ProcessingTime")
    void shouldCountMapStateWithTtl() {
        Map<String, Long> m = metricsAfterInit(TimeMode.PROCESSING_TIME, handle -> {
            handle.getMapState("testState", Serdes.String(), Serdes.String(), HOUR);
            handle.getMapState("testState2", Serdes.String(), Serdes.String(), TtlConfig.NONE);
        });
        assertThat(m).containsEntry("numMapStateWithTTLVars", 1L);
    }

    @Test
    @DisplayName("StatefulProcessorHandleSuite: ttl States are not populated for timeMode=None")
    void shouldCountNoTtlStateWhenTimeModeIsNone() {
        Map<String, Long> m = metricsAfterInit(TimeMode.NONE, handle -> {
            handle.getValueState("testValueState", Serdes.String(), TtlConfig.NONE);
            handle.getListState("testListState", Serdes.String(), TtlConfig.NONE);
            handle.getMapState("testMapState", Serdes.String(), Serdes.String(), TtlConfig.NONE);
        });
        assertThat(m)
                .containsEntry("numValueStateWithTTLVars", 0L)
                .containsEntry("numListStateWithTTLVars", 0L)
                .containsEntry("numMapStateWithTTLVars", 0L);
    }
}
