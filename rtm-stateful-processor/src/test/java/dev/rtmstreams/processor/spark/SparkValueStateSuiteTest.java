package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.T0;
import static dev.rtmstreams.processor.spark.SparkTwsPort.expectFailure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code ValueStateSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/execution/streaming/state/ValueStateSuite.scala). Spark unit-tests
 * {@code ValueStateImpl} on a handle it drives by hand; here each test body runs inside an operator
 * ({@link StateBody}): the variables are declared in {@code init}, the body runs while handling a row of
 * {@code test_key}.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"colFamily with HDFSBackedStateStoreProvider should fail": a Spark state-store provider.</li>
 *   <li>"test SQL encoder - Value state operations for case class instances", "test SQL encoder - Value state
 *       operations for POJO instances", "Value state TTL with non-primitive type": Spark SQL encoders of case
 *       classes and beans (our values are any type with a Serde).</li>
 * </ul>
 * "test Value state TTL" reads Spark's TTL test hooks ({@code getTTLValue}, {@code getWithoutEnforcingTTL}) inside the
 * batch in which the value expired, before its cleanup; ours are not public, so the expiry is read with
 * {@link StateReader} after the writing batch, and inside the later batch only what the processor sees is checked.
 */
class SparkValueStateSuiteTest {

    @Test
    @DisplayName("ValueStateSuite: Implicit key operations")
    void shouldFailWithoutAnImplicitGroupingKey() {
        AtomicReference<ValueState<Long>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getValueState("testState", Serdes.Long())))) {
            expectFailure(
                    () -> ref.get().update(123L),
                    "INTERNAL_ERROR_TWS",
                    "message",
                    "Implicit key not found in state store for stateName=testState");
            b.run(() -> {
                ref.get().update(123L);
                assertThat(ref.get().get()).isEqualTo(123L);
            });
            expectFailure(
                    () -> ref.get().update(123L),
                    "INTERNAL_ERROR_TWS",
                    "message",
                    "Implicit key not found in state store for stateName=testState");
        }
    }

    @Test
    @DisplayName("ValueStateSuite: Value state operations for single instance")
    void shouldUpdateGetAndClearOneValueState() {
        AtomicReference<ValueState<Long>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getValueState("testState", Serdes.Long())))) {
            b.run(() -> {
                ValueState<Long> s = ref.get();
                s.update(123L);
                assertThat(s.get()).isEqualTo(123L);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(s.get()).isNull();
                s.update(456L);
                assertThat(s.get()).isEqualTo(456L);
                assertThat(s.get()).isEqualTo(456L);
                s.update(123L);
                assertThat(s.get()).isEqualTo(123L);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(s.get()).isNull();
            });
        }
    }

    @Test
    @DisplayName("ValueStateSuite: Value state operations for multiple instances")
    void shouldKeepTwoValueStatesApart() {
        AtomicReference<ValueState<Long>> r1 = new AtomicReference<>();
        AtomicReference<ValueState<Long>> r2 = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> {
            r1.set(h.getValueState("testState1", Serdes.Long()));
            r2.set(h.getValueState("testState2", Serdes.Long()));
        })) {
            b.run(() -> {
                ValueState<Long> s1 = r1.get();
                ValueState<Long> s2 = r2.get();
                s1.update(123L);
                assertThat(s1.get()).isEqualTo(123L);
                s1.clear();
                assertThat(s1.exists()).isFalse();
                assertThat(s1.get()).isNull();
                s2.update(456L);
                assertThat(s2.get()).isEqualTo(456L);
                s2.clear();
                assertThat(s2.exists()).isFalse();
                assertThat(s2.get()).isNull();
                s1.update(456L);
                assertThat(s1.get()).isEqualTo(456L);
                assertThat(s1.get()).isEqualTo(456L);
                s1.update(123L);
                assertThat(s1.get()).isEqualTo(123L);
                s2.update(123L);
                assertThat(s2.get()).isEqualTo(123L);
                assertThat(s2.get()).isEqualTo(123L);
                s2.update(456L);
                assertThat(s2.get()).isEqualTo(456L);
                s1.clear();
                assertThat(s1.exists()).isFalse();
                assertThat(s1.get()).isNull();
                s2.clear();
                assertThat(s2.exists()).isFalse();
                assertThat(s2.get()).isNull();
            });
        }
    }

    @Test
    @DisplayName("ValueStateSuite: Value state operations for unsupported type name should fail")
    void shouldRejectAStateNameWithTheReservedPrefix() {
        expectFailure(
                () -> new StateBody(TimeMode.NONE, h -> h.getValueState("$testState", Serdes.Long())).close(),
                "STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS",
                "colFamilyName",
                "$testState");
    }

    @Test
    @DisplayName("ValueStateSuite: test SQL encoder - Value state operations for Primitive(Double) instances")
    void shouldKeepDoubleValues() {
        AtomicReference<ValueState<Double>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getValueState("testState", Serdes.Double())))) {
            b.run(() -> {
                ValueState<Double> s = ref.get();
                s.update(1.0);
                assertThat(s.get()).isEqualTo(1.0);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(s.get()).isNull();
                s.update(2.0);
                assertThat(s.get()).isEqualTo(2.0);
                s.update(3.0);
                assertThat(s.get()).isEqualTo(3.0);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(s.get()).isNull();
            });
        }
    }

    @Test
    @DisplayName("ValueStateSuite: test SQL encoder - Value state operations for Primitive(Long) instances")
    void shouldKeepLongValues() {
        AtomicReference<ValueState<Long>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getValueState("testState", Serdes.Long())))) {
            b.run(() -> {
                ValueState<Long> s = ref.get();
                s.update(1L);
                assertThat(s.get()).isEqualTo(1L);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(s.get()).isNull();
                s.update(2L);
                assertThat(s.get()).isEqualTo(2L);
                s.update(3L);
                assertThat(s.get()).isEqualTo(3L);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(s.get()).isNull();
            });
        }
    }

    @Test
    @DisplayName("ValueStateSuite: test Value state TTL")
    void shouldHideTheValueOnceItsTtlExpired() {
        AtomicReference<ValueState<String>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(
                TimeMode.PROCESSING_TIME,
                h -> ref.set(h.getValueState("testState", Serdes.String(), TtlConfig.of(Duration.ofMinutes(1)))),
                true)) {
            b.runInBatch(
                    () -> {
                        ref.get().update("v1");
                        assertThat(ref.get().get()).isEqualTo("v1");
                    },
                    1000); // batch timestamp 1000
            long ttlExpirationMs = 1000 + 60000;
            List<StateReader.StoredValue> stored = b.port.reader()
                    .withDeserializer("testState", Serdes.String().deserializer())
                    .read(Serdes.String().serializer().serialize("", "test_key"))
                    .orElseThrow()
                    .variables()
                    .get("testState");
            assertThat(stored).extracting(v -> v.expiresAtMs() - T0).containsExactly(ttlExpirationMs);
            assertThat(stored).extracting(StateReader.StoredValue::value).containsExactly("v1");
            // the next batch runs at the expiry: the expired value is not returned
            b.runInBatch(
                    () -> {
                        assertThat(ref.get().exists()).isFalse();
                        assertThat(ref.get().get()).isNull();
                        ref.get().clear();
                        assertThat(ref.get().exists()).isFalse();
                        assertThat(ref.get().get()).isNull();
                    },
                    ttlExpirationMs - b.port.now());
        }
    }

    @Test
    @DisplayName("ValueStateSuite: test null or zero TTL duration throws error")
    void shouldRejectANullOrNegativeTtl() {
        for (Duration ttl : Arrays.asList(null, Duration.ofMinutes(-1))) {
            expectFailure(
                    () -> new StateBody(
                                    TimeMode.PROCESSING_TIME,
                                    h -> h.getValueState("testState", Serdes.String(), TtlConfig.of(ttl)))
                            .close(),
                    "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                    "operationType",
                    "update",
                    "stateName",
                    "testState");
        }
    }

    /**
     * The zero duration of the test above's name: Spark's handle declares a variable with a zero TTL without TTL
     * ({@code StatefulProcessorHandleImpl.getValueState}: {@code ttlEnabled} is false for a zero duration, so
     * {@code validateTTLConfig} and its time-mode check do not run), which is what {@code TTLConfig.NONE} is; Spark's
     * test checks only null and negative durations.
     */
    @Test
    @DisplayName("ValueStateSuite: test null or zero TTL duration throws error (zero: no TTL, in any time mode)")
    void shouldDeclareAZeroTtlWithoutTtlInAnyTimeMode() {
        for (TimeMode mode : TimeMode.values()) {
            AtomicReference<ValueState<String>> ref = new AtomicReference<>();
            try (StateBody b = new StateBody(
                    mode, h -> ref.set(h.getValueState("testState", Serdes.String(), TtlConfig.of(Duration.ZERO))))) {
                b.run(() -> ref.get().update("v1"));
                b.port.advance(Duration.ofDays(1).toMillis());
                b.run(() -> assertThat(ref.get().get()).isEqualTo("v1"));
                assertThat(b.port.reader()
                                .read(Serdes.String().serializer().serialize("", "test_key"))
                                .orElseThrow()
                                .variables()
                                .get("testState"))
                        .extracting(StateReader.StoredValue::expiresAtMs)
                        .containsOnlyNulls();
            }
        }
    }
}
