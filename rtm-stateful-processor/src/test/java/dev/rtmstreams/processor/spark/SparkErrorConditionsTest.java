package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.StatefulProcessorHandle;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The entries of Spark's error-conditions.json (common/utils/src/main/resources/error/error-conditions.json) for
 * {@code STATEFUL_PROCESSOR_*}, {@code STATE_STORE_*}, {@code ILLEGAL_STATE_STORE_VALUE} and
 * {@code TRANSFORM_WITH_STATE_*} that our API can raise: each test triggers the error through the public API and
 * checks the code and that the parameters are exactly Spark's message parameters, with Spark's values.
 *
 * <p>{@code STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION} and {@code STATE_STORE_VALUE_SCHEMA_EVOLUTION_THRESHOLD_EXCEEDED}
 * need an evolvable serde: rtm-state-avro's {@code AvroSchemaEvolutionTest} raises them with Avro schemas and checks
 * Spark's parameters.
 *
 * <p>Entries that do not apply:
 * <ul>
 *   <li>{@code STATEFUL_PROCESSOR_UNKNOWN_TIME_MODE}: Spark parses time modes from strings (Python, Connect); ours
 *       is an enum.</li>
 *   <li>{@code STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIMEOUT_MODE},
 *       {@code STATEFUL_PROCESSOR_CANNOT_USE_TTL_DURATION_IN_EVENT_TIME_TTL_MODE} and other early-API classes: gone
 *       from Spark's released API (timeout and TTL modes became {@code TimeMode}).</li>
 *   <li>{@code STATE_STORE_UNSUPPORTED_OPERATION*}, {@code STATE_STORE_MULTIPLE_COLUMN_FAMILIES},
 *       {@code STATE_STORE_*_ORDERING_COLS*}, {@code STATE_STORE_KEY_ROW_FORMAT_VALIDATION_FAILURE},
 *       {@code STATE_STORE_VALUE_ROW_FORMAT_VALIDATION_FAILURE}, {@code STATE_STORE_PROVIDER_DOES_NOT_SUPPORT_*},
 *       {@code STATE_STORE_STATE_SCHEMA_FILES_THRESHOLD_EXCEEDED}, {@code STATE_STORE_CHECKPOINT_*},
 *       {@code STATE_STORE_*_SNAPSHOT*}: Spark state-store providers, row encoders and checkpoint files.</li>
 *   <li>{@code STATE_STORE_CANNOT_USE_COLUMN_FAMILY_WITH_INVALID_NAME}: Spark's column-family name rule (empty,
 *       surrounding blanks, {@code default}); our state names are checked by
 *       {@code STATEFUL_PROCESSOR_INVALID_STATE_NAME}.</li>
 *   <li>{@code TRANSFORM_WITH_STATE_SCHEMA_MUST_BE_NULLABLE}: Avro state encoding of Spark SQL schemas.</li>
 * </ul>
 */
class SparkErrorConditionsTest {

    /** Asserts that {@code call} fails with {@code code} and exactly these parameters (found in the cause chain). */
    static void assertError(ThrowingCallable call, String code, String... params) {
        Map<String, String> expected = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) {
            expected.put(params[i], params[i + 1]);
        }
        assertThatThrownBy(call).satisfies(t -> {
            Throwable c = t;
            while (c != null && !(c instanceof RtmException)) {
                c = c.getCause();
            }
            assertThat(c).as("an RtmException in the cause chain of %s", t).isInstanceOf(RtmException.class);
            RtmException e = (RtmException) c;
            assertThat(e.errorCode()).isEqualTo(code);
            assertThat(e.parameters()).containsExactlyInAnyOrderEntriesOf(expected);
        });
    }

    private static SparkTwsPort probe(TimeMode mode, Consumer<HandleProbe> setup) {
        Supplier<HandleProbe> s = () -> {
            HandleProbe p = new HandleProbe();
            setup.accept(p);
            return p;
        };
        return new SparkTwsPort(
                TransformWithState.builder(s, mode).name("errors").build(), true);
    }

    private static void inInit(TimeMode mode, Consumer<StatefulProcessorHandle> init) {
        probe(mode, h -> h.onInit = init).close();
    }

    @Test
    @DisplayName("error-conditions.json: STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE")
    void shouldReportTheOperationAndHandleState() {
        try (SparkTwsPort p =
                probe(TimeMode.NONE, h -> h.onRow = (handle, r, out) -> handle.getListState("l", Serdes.String()))) {
            assertError(
                    () -> p.add("k", "x"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                    "operationType",
                    "get_list_state",
                    "handleState",
                    "DATA_PROCESSED");
        }
    }

    @Test
    @DisplayName("error-conditions.json: STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE")
    void shouldReportTheOperationAndTimeMode() {
        try (SparkTwsPort p = probe(TimeMode.NONE, h -> h.onRow = (handle, r, out) -> handle.listTimers())) {
            assertError(
                    () -> p.add("k", "x"),
                    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                    "operationType",
                    "list_timers",
                    "timeMode",
                    "NoTime");
        }
    }

    @Test
    @DisplayName("error-conditions.json: STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY")
    void shouldReportTheGroupingKeySeededTwice() {
        try (SparkTwsPort p = probe(TimeMode.NONE, h -> {})) {
            p.addInitial("k", "1");
            assertError(
                    () -> p.addInitial("k", "2"),
                    "STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY",
                    "groupingKey",
                    "k");
        }
    }

    @Test
    @DisplayName("error-conditions.json: STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED")
    void shouldReportTheDuplicateName() {
        assertError(
                () -> inInit(TimeMode.NONE, h -> {
                    h.getValueState("s", Serdes.String());
                    h.getListState("s", Serdes.String());
                }),
                "STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED",
                "stateVarName",
                "s");
    }

    @Test
    @DisplayName("error-conditions.json: STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL")
    void shouldReportTheStateAndTimeModeOfAMisplacedTtl() {
        assertError(
                () -> inInit(
                        TimeMode.EVENT_TIME,
                        h -> h.getMapState("m", Serdes.String(), Serdes.String(), TtlConfig.of(Duration.ofMinutes(1)))),
                "STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
                "stateName",
                "m",
                "timeMode",
                "EventTime");
    }

    @Test
    @DisplayName("error-conditions.json: STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE")
    void shouldReportTheOperationAndStateOfANegativeTtl() {
        assertError(
                () -> inInit(
                        TimeMode.PROCESSING_TIME,
                        h -> h.getMapState("m", Serdes.String(), Serdes.String(), TtlConfig.of(Duration.ofMillis(-1)))),
                "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                "operationType",
                "update",
                "stateName",
                "m");
    }

    @Test
    @DisplayName("error-conditions.json: STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS")
    void shouldReportTheReservedName() {
        assertError(
                () -> inInit(TimeMode.NONE, h -> h.getMapState("$m", Serdes.String(), Serdes.String())),
                "STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS",
                "colFamilyName",
                "$m");
    }

    @Test
    @DisplayName("error-conditions.json: STATE_STORE_HANDLE_NOT_INITIALIZED")
    void shouldReportAMissingHandleWithoutParameters() {
        assertError(() -> new HandleProbe().getHandle(), "STATE_STORE_HANDLE_NOT_INITIALIZED");
    }

    private static TransformWithState<String, String, String> withValue(
            TimeMode mode, Consumer<StatefulProcessorHandle> declare) {
        Supplier<HandleProbe> s = () -> {
            HandleProbe p = new HandleProbe();
            p.onInit = declare;
            return p;
        };
        return microBatch(TransformWithState.builder(s, mode)).name("errors").build();
    }

    @Test
    @DisplayName("error-conditions.json: STATE_STORE_INVALID_CONFIG_AFTER_RESTART")
    void shouldReportTheChangedConfig() {
        try (SparkTwsPort p = new SparkTwsPort(withValue(TimeMode.EVENT_TIME, h -> {}))) {
            p.add("k", "x");
            p.advance(1000);
            // refused when the restarted operator starts, before any record (Spark: before the first batch)
            assertError(
                    () -> p.restart(withValue(TimeMode.NONE, h -> {})),
                    "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
                    "configName",
                    "timeMode",
                    "oldConfig",
                    "EventTime",
                    "newConfig",
                    "NoTime");
        }
    }

    @Test
    @DisplayName("error-conditions.json: STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE")
    void shouldReportTheVariableAndItsKinds() {
        try (SparkTwsPort p =
                new SparkTwsPort(withValue(TimeMode.NONE, h -> h.getMapState("s", Serdes.String(), Serdes.String())))) {
            p.add("k", "x");
            p.advance(1000);
            // refused when the restarted operator starts, before any record (Spark: before the first batch)
            assertError(
                    () -> p.restart(withValue(TimeMode.NONE, h -> h.getValueState("s", Serdes.String()))),
                    "STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE",
                    "stateVarName",
                    "s",
                    "oldType",
                    "MapState",
                    "newType",
                    "ValueState");
        }
    }

    @Test
    @DisplayName("error-conditions.json: STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE")
    void shouldReportTheStoredAndNewValueSchema() {
        try (SparkTwsPort p = new SparkTwsPort(withValue(TimeMode.NONE, h -> h.getValueState("s", Serdes.String())))) {
            p.add("k", "x");
            p.advance(1000);
            // Spark's parameters; their values describe our serdes (the variable, its value serde), not SQL schemas
            assertError(
                    () -> p.restart(withValue(TimeMode.NONE, h -> h.getValueState("s", Serdes.Long()))),
                    "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                    "storedValueSchema",
                    "s: value: " + StringSerializer.class.getName(),
                    "newValueSchema",
                    "s: value: " + LongSerializer.class.getName());
        }
    }

    @Test
    @DisplayName("error-conditions.json: STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE")
    void shouldReportTheStoredAndNewKeySchemaOfAMapState() {
        try (SparkTwsPort p =
                new SparkTwsPort(withValue(TimeMode.NONE, h -> h.getMapState("s", Serdes.String(), Serdes.String())))) {
            p.add("k", "x");
            p.advance(1000);
            // a map state's key schema is the grouping key plus the user key (Spark's composite key schema)
            assertError(
                    () -> p.restart(withValue(TimeMode.NONE, h -> h.getMapState("s", Serdes.Long(), Serdes.String()))),
                    "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                    "storedKeySchema",
                    "s: key: " + StringSerializer.class.getName() + ", userKey: " + StringSerializer.class.getName(),
                    "newKeySchema",
                    "s: key: " + StringSerializer.class.getName() + ", userKey: " + LongSerializer.class.getName());
        }
    }

    @Test
    @DisplayName("error-conditions.json: ILLEGAL_STATE_STORE_VALUE.NULL_VALUE")
    void shouldReportTheStateOfANullValue() {
        AtomicReference<ValueState<String>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getValueState("v", Serdes.String())))) {
            assertError(
                    () -> b.run(() -> ref.get().update(null)),
                    "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE",
                    "stateName",
                    "v");
        }
    }

    @Test
    @DisplayName("error-conditions.json: ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE")
    void shouldReportTheStateOfAnEmptyList() {
        AtomicReference<dev.rtmstreams.processor.ListState<String>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getListState("l", Serdes.String())))) {
            assertError(
                    () -> b.run(() -> ref.get().put(List.of())),
                    "ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE",
                    "stateName",
                    "l");
        }
    }

    @Test
    @DisplayName("error-conditions.json: TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR")
    void shouldReportTheFunctionAndReasonOfAUserError() {
        try (SparkTwsPort p = probe(
                TimeMode.NONE,
                h -> h.onRow = (handle, r, out) -> {
                    throw new IllegalArgumentException("bad row " + r);
                })) {
            assertError(
                    () -> p.add("k", "x"),
                    "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                    "function",
                    "handleInputRows",
                    "reason",
                    "bad row x");
        }
    }

    @Test
    @DisplayName("error-conditions.json: INTERNAL_ERROR_TWS (StateStoreErrors.implicitKeyNotFound)")
    void shouldReportAMissingImplicitKeyAsSparksInternalError() {
        AtomicReference<ValueState<String>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getValueState("v", Serdes.String())))) {
            assertError(
                    () -> ref.get().get(),
                    "INTERNAL_ERROR_TWS",
                    "message",
                    "Implicit key not found in state store for stateName=v");
        }
    }
}
