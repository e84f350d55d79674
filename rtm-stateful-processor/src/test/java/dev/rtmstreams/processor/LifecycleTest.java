package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class LifecycleTest {

    static void assertCode(ThrowingCallable call, String code, String... params) {
        RtmAssertions.assertCode(call, code, params);
    }

    static Harness<String, String> run(TimeMode mode, Consumer<ScriptProcessor> init, ScriptProcessor.RowHandler rows) {
        return Harness.strings(TransformWithState.builder(ScriptProcessor.supplier(init, rows, null, null), mode)
                .name("lifecycle")
                .build());
    }

    @Test
    void shouldRejectStateDeclarationWhenOutsideInit() {
        try (Harness<String, String> h =
                run(TimeMode.NONE, null, (p, k, r, tv, out) -> p.getHandle().getValueState("late", Serdes.String()))) {
            assertCode(
                    () -> h.pipe("a", "x"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                    "operationType",
                    "get_value_state",
                    "handleState",
                    "DATA_PROCESSED");
        }
    }

    @Test
    void shouldRejectTimerRegistrationWhenInInit() {
        assertCode(
                () -> run(TimeMode.PROCESSING_TIME, p -> p.getHandle().registerTimer(1), null)
                        .close(),
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                "operationType",
                "register_timer",
                "handleState",
                "CREATED");
    }

    @Test
    void shouldRejectTimersWhenTimeModeIsNone() {
        try (Harness<String, String> h =
                run(TimeMode.NONE, null, (p, k, r, tv, out) -> p.getHandle().registerTimer(5))) {
            assertCode(
                    () -> h.pipe("a", "x"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                    "operationType",
                    "register_timer",
                    "timeMode",
                    "NoTime");
        }
    }

    @Test
    void shouldRejectTtlWhenNotProcessingTime() {
        TtlConfig ttl = TtlConfig.of(Duration.ofSeconds(1));
        for (TimeMode mode : List.of(TimeMode.NONE, TimeMode.EVENT_TIME)) {
            assertCode(
                    () -> run(mode, p -> p.getHandle().getListState("l", Serdes.String(), ttl), null)
                            .close(),
                    "STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
                    "stateName",
                    "l",
                    "timeMode",
                    mode == TimeMode.NONE ? "NoTime" : "EventTime");
        }
    }

    @Test
    void shouldRejectNegativeOrNullTtlWhenStateDeclaredAndTreatZeroAsNone() {
        // Spark: TTLConfig(Duration.ZERO) disables TTL; null or negative fails when the variable is declared
        assertThat(TtlConfig.of(Duration.ZERO)).isEqualTo(TtlConfig.NONE);
        for (Duration bad : java.util.Arrays.asList(Duration.ofMillis(-1), null)) {
            assertCode(
                    () -> run(
                                    TimeMode.PROCESSING_TIME,
                                    p -> p.getHandle().getValueState("v", Serdes.String(), TtlConfig.of(bad)),
                                    null)
                            .close(),
                    "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                    "operationType",
                    "update",
                    "stateName",
                    "v");
        }
    }

    @Test
    void shouldRejectDuplicateStateNameWhenDeclaredTwice() {
        assertCode(
                () -> run(
                                TimeMode.NONE,
                                p -> {
                                    p.getHandle().getValueState("s", Serdes.String());
                                    p.getHandle().getMapState("s", Serdes.String(), Serdes.String());
                                },
                                null)
                        .close(),
                "STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED",
                "stateVarName",
                "s");
    }

    /** Spark: RocksDBStateStoreProvider reserves names starting with '$' for internal column families. */
    @Test
    void shouldRejectStateNameWhenItStartsWithTheReservedDollar() {
        assertCode(
                () -> run(TimeMode.NONE, p -> p.getHandle().getListState("$l", Serdes.String()), null)
                        .close(),
                "STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS",
                "colFamilyName",
                "$l");
    }

    @Test
    void shouldRejectStateAccessWithHandleStateErrorWhenInInit() {
        assertCode(
                () -> run(
                                TimeMode.NONE,
                                p -> {
                                    p.value = p.getHandle().getValueState("v", Serdes.String());
                                    p.value.getOption();
                                },
                                null)
                        .close(),
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                "operationType",
                "get_option",
                "handleState",
                "CREATED");
    }

    @Test
    void shouldRejectStateAccessWhenNoGroupingKeyOutsideTheProcessorCalls() {
        AtomicReference<ScriptProcessor> ref = new AtomicReference<>();
        try (Harness<String, String> h = run(
                TimeMode.NONE,
                p -> {
                    p.value = p.getHandle().getValueState("v", Serdes.String());
                    ref.set(p);
                },
                (p, k, r, tv, out) -> p.value.update(r))) {
            h.pipe("a", "x");
            // after the call returned no grouping key is current (e.g. state used from another thread)
            assertCode(
                    () -> ref.get().value.exists(),
                    "INTERNAL_ERROR_TWS",
                    "message",
                    "Implicit key not found in state store for stateName=v");
        }
    }

    @Test
    void shouldRejectUseWhenClosed() {
        AtomicReference<ScriptProcessor> ref = new AtomicReference<>();
        Harness<String, String> h = run(
                TimeMode.PROCESSING_TIME,
                p -> {
                    p.value = p.getHandle().getValueState("v", Serdes.String());
                    ref.set(p);
                },
                (p, k, r, tv, out) -> p.value.update(r));
        h.pipe("a", "x");
        h.close();
        assertCode(
                () -> ref.get().value.get(),
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                "operationType",
                "get",
                "handleState",
                "CLOSED");
        assertCode(
                () -> ref.get().getHandle().registerTimer(1),
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                "handleState",
                "CLOSED");
    }

    @Test
    void shouldRejectDeleteIfExistsWhenOutsideInit() {
        try (Harness<String, String> h =
                run(TimeMode.NONE, null, (p, k, r, tv, out) -> p.getHandle().deleteIfExists("old"))) {
            assertCode(
                    () -> h.pipe("a", "x"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                    "operationType",
                    "delete_if_exists",
                    "handleState",
                    "DATA_PROCESSED");
        }
    }

    @Test
    void shouldRejectInvalidBuilderOptionsWithMessageNamingValue() {
        assertThatThrownBy(() -> TransformWithState.builder(
                                () -> new ScriptProcessor(null, null, null, null), TimeMode.NONE)
                        .timerResolution(Duration.ZERO)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0S");
        assertThatThrownBy(() -> TransformWithState.builder(
                                () -> new ScriptProcessor(null, null, null, null), TimeMode.NONE)
                        .watermarkDelay(Duration.ofMillis(-5))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT-0.005S");
        assertThatThrownBy(() -> ExecutionMode.fromConfig("turbo"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("turbo");
    }

    /** A processor that is not iterator-lazy-safe would break here: output iterators may use state while drained. */
    @Test
    void shouldAllowStateAccessWhileOutputIteratorIsDrained() {
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        () -> new StatefulProcessor<String, String, String>() {
                            ValueState<String> v;

                            @Override
                            public void init(OutputMode outputMode, TimeMode timeMode) {
                                v = getHandle().getValueState("v", Serdes.String());
                            }

                            @Override
                            public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
                                return new Iterator<>() {
                                    @Override
                                    public boolean hasNext() {
                                        return rows.hasNext();
                                    }

                                    @Override
                                    public String next() {
                                        String r = rows.next();
                                        String prev = v.getOption().orElse("-");
                                        v.update(r);
                                        return prev + ">" + r;
                                    }
                                };
                            }
                        },
                        TimeMode.NONE)
                .name("lazy")
                .build())) {
            h.pipe("a", "1");
            h.pipe("a", "2");
            assertThat(h.drainValues()).containsExactly("->1", "1>2");
        }
    }
}
