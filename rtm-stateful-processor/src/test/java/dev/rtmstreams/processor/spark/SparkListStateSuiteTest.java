package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.T0;
import static dev.rtmstreams.processor.spark.SparkTwsPort.expectFailure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code ListStateSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/execution/streaming/state/ListStateSuite.scala). Spark unit-tests
 * {@code ListStateImpl} on a handle it drives by hand; here each test body runs inside an operator
 * ({@link StateBody}).
 *
 * <p>Skipped:
 * <ul>
 *   <li>"list state - value ordering - case class type", "ListState TTL with non-primitive types": Spark SQL encoders
 *       of case classes and beans (our elements are any type with a Serde).</li>
 * </ul>
 * "test List state TTL" reads Spark's TTL test hooks inside the batch in which the elements expired, before their
 * cleanup; ours are not public, so the expiries are read with {@link StateReader} after the writing batch, and inside
 * the later batch only what the processor sees is checked.
 */
class SparkListStateSuiteTest {

    private static <T> List<T> list(Iterator<T> it) {
        List<T> l = new ArrayList<>();
        it.forEachRemaining(l::add);
        return l;
    }

    private static StateBody longList(AtomicReference<ListState<Long>> ref) {
        return new StateBody(TimeMode.NONE, h -> ref.set(h.getListState("testState", Serdes.Long())));
    }

    @Test
    @DisplayName("ListStateSuite: Test list operation(appendList) with null")
    void shouldFailWithNullValueWhenAppendingANullList() {
        AtomicReference<ListState<Long>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getListState("listState", Serdes.Long())))) {
            expectFailure(
                    () -> b.run(() -> ref.get().appendList(null)),
                    "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE",
                    "stateName",
                    "listState");
        }
    }

    @Test
    @DisplayName("ListStateSuite: Test list operation(put) with null")
    void shouldFailWithNullValueWhenPuttingANullList() {
        AtomicReference<ListState<Long>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getListState("listState", Serdes.Long())))) {
            expectFailure(
                    () -> b.run(() -> ref.get().put(null)),
                    "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE",
                    "stateName",
                    "listState");
        }
    }

    @Test
    @DisplayName("ListStateSuite: List state operations for single instance")
    void shouldAppendGetAndClearOneList() {
        AtomicReference<ListState<Long>> ref = new AtomicReference<>();
        try (StateBody b = longList(ref)) {
            b.run(() -> {
                ListState<Long> s = ref.get();
                // simple put and get test
                s.appendValue(123L);
                assertThat(list(s.get())).containsExactly(123L);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(list(s.get())).isEmpty();
                // put list test
                s.appendList(List.of(123L, 456L));
                assertThat(list(s.get())).containsExactly(123L, 456L);
                s.appendValue(789L);
                assertThat(list(s.get())).containsExactly(123L, 456L, 789L);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(list(s.get())).isEmpty();
            });
        }
    }

    @Test
    @DisplayName("ListStateSuite: list state - value ordering - long type")
    void shouldKeepInsertionOrderOfLongs() {
        AtomicReference<ListState<Long>> ref = new AtomicReference<>();
        try (StateBody b = longList(ref)) {
            b.run(() -> {
                ListState<Long> s = ref.get();
                List<Long> seq = new ArrayList<>(List.of(
                        931L, 8000L, 452300L, 4200L, -1L, 90L, 1L, 2L, 8L, -230L, -14569L, -92L, -7434253L, 35L, 6L, 9L,
                        -323L, 5L));
                s.put(seq);
                assertThat(list(s.get())).isEqualTo(seq);
                s.appendValue(100L);
                s.appendValue(9L);
                s.appendValue(48972L);
                seq.addAll(List.of(100L, 9L, 48972L));
                assertThat(list(s.get())).isEqualTo(seq);
                s.appendList(List.of(-1L, 2942450L, 7L));
                seq.addAll(List.of(-1L, 2942450L, 7L));
                assertThat(list(s.get())).isEqualTo(seq);
                s.clear();
                s.appendValue(3451L);
                s.appendValue(24L);
                s.appendValue(-14342429L);
                seq = new ArrayList<>(List.of(3451L, 24L, -14342429L));
                assertThat(list(s.get())).isEqualTo(seq);
                List<Long> append = List.of(
                        931L, 8000L, 452300L, 4200L, -1L, 90L, 1L, 2L, 8L, -230L, -14569L, -92L, -7434253L, 35L, 6L, 9L,
                        -323L, 5L);
                s.appendList(append);
                seq.addAll(append);
                assertThat(list(s.get())).isEqualTo(seq);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(list(s.get())).isEmpty();
            });
        }
    }

    @Test
    @DisplayName("ListStateSuite: list state - value ordering - string type")
    void shouldKeepInsertionOrderOfStrings() {
        AtomicReference<ListState<String>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> ref.set(h.getListState("testState", Serdes.String())))) {
            b.run(() -> {
                ListState<String> s = ref.get();
                List<String> seq =
                        new ArrayList<>(List.of("test", "actual", "state", "value", "ordering", "string", "", "type"));
                s.put(seq);
                assertThat(list(s.get())).isEqualTo(seq);
                s.appendValue("hello");
                s.appendValue("world");
                s.appendValue("verification");
                seq.addAll(List.of("hello", "world", "verification"));
                assertThat(list(s.get())).isEqualTo(seq);
                List<String> append = List.of("test string", "stateful", "processor", "handle");
                s.appendList(append);
                seq.addAll(append);
                assertThat(list(s.get())).isEqualTo(seq);
                s.clear();
                s.appendValue(" validate space in front");
                s.appendValue("validate space in back ");
                s.appendValue(" validate space in both ");
                seq = new ArrayList<>(
                        List.of(" validate space in front", "validate space in back ", " validate space in both "));
                assertThat(list(s.get())).isEqualTo(seq);
                append = List.of(
                        "test",
                        "actual",
                        "state",
                        "value",
                        "ordering",
                        "string",
                        "",
                        "type",
                        "hello",
                        "world",
                        "verification");
                s.appendList(append);
                seq.addAll(append);
                assertThat(list(s.get())).isEqualTo(seq);
                s.clear();
                assertThat(s.exists()).isFalse();
                assertThat(list(s.get())).isEmpty();
            });
        }
    }

    @Test
    @DisplayName("ListStateSuite: List state operations for multiple instance")
    void shouldKeepTwoListsApart() {
        AtomicReference<ListState<Long>> r1 = new AtomicReference<>();
        AtomicReference<ListState<Long>> r2 = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> {
            r1.set(h.getListState("testState1", Serdes.Long()));
            r2.set(h.getListState("testState2", Serdes.Long()));
        })) {
            b.run(() -> {
                ListState<Long> s1 = r1.get();
                ListState<Long> s2 = r2.get();
                s1.appendValue(123L);
                s2.appendValue(456L);
                assertThat(list(s1.get())).containsExactly(123L);
                assertThat(list(s2.get())).containsExactly(456L);
                s1.clear();
                assertThat(s1.exists()).isFalse();
                assertThat(s2.exists()).isTrue();
                assertThat(list(s1.get())).isEmpty();
                s1.appendList(List.of(123L, 456L));
                assertThat(list(s1.get())).containsExactly(123L, 456L);
                s2.appendList(List.of(123L));
                assertThat(list(s2.get())).containsExactly(456L, 123L);
                s1.appendValue(789L);
                assertThat(list(s1.get())).containsExactly(123L, 456L, 789L);
                assertThat(list(s2.get())).containsExactly(456L, 123L);
                s2.clear();
                assertThat(s2.exists()).isFalse();
                assertThat(s1.exists()).isTrue();
                assertThat(list(s2.get())).isEmpty();
            });
        }
    }

    @Test
    @DisplayName("ListStateSuite: List state operations with list, value, another list instances")
    void shouldKeepListsAndAValueApart() {
        AtomicReference<ListState<Long>> l1 = new AtomicReference<>();
        AtomicReference<ListState<Long>> l2 = new AtomicReference<>();
        AtomicReference<ValueState<Long>> v = new AtomicReference<>();
        try (StateBody b = new StateBody(TimeMode.NONE, h -> {
            l1.set(h.getListState("listState1", Serdes.Long()));
            l2.set(h.getListState("listState2", Serdes.Long()));
            v.set(h.getValueState("valueState", Serdes.Long()));
        })) {
            b.run(() -> {
                v.get().update(123L);
                l1.get().appendValue(123L);
                l2.get().appendValue(456L);
                assertThat(list(l1.get().get())).containsExactly(123L);
                assertThat(list(l2.get().get())).containsExactly(456L);
                assertThat(v.get().get()).isEqualTo(123L);
                l1.get().clear();
                v.get().clear();
                assertThat(l1.get().exists()).isFalse();
                assertThat(l2.get().exists()).isTrue();
                assertThat(v.get().exists()).isFalse();
                assertThat(list(l1.get().get())).isEmpty();
            });
        }
    }

    @Test
    @DisplayName("ListStateSuite: test List state TTL")
    void shouldHideElementsOnceTheirTtlExpired() {
        AtomicReference<ListState<String>> ref = new AtomicReference<>();
        try (StateBody b = new StateBody(
                TimeMode.PROCESSING_TIME,
                h -> ref.set(h.getListState("testState", Serdes.String(), TtlConfig.of(Duration.ofMinutes(1)))),
                true)) {
            b.runInBatch(
                    () -> {
                        ref.get().put(List.of("v1", "v2", "v3"));
                        assertThat(list(ref.get().get())).containsExactly("v1", "v2", "v3");
                    },
                    1000); // batch timestamp 1000
            long ttlExpirationMs = 1000 + 60000;
            List<StateReader.StoredValue> stored = b.port.reader()
                    .withDeserializer("testState", Serdes.String().deserializer())
                    .read(Serdes.String().serializer().serialize("", "test_key"))
                    .orElseThrow()
                    .variables()
                    .get("testState");
            assertThat(stored).extracting(StateReader.StoredValue::value).containsExactly("v1", "v2", "v3");
            assertThat(stored).allSatisfy(x -> assertThat(x.expiresAtMs() - T0).isEqualTo(ttlExpirationMs));
            // the next batch runs at the expiry: the expired elements are not returned
            b.runInBatch(
                    () -> {
                        assertThat(ref.get().exists()).isFalse();
                        assertThat(list(ref.get().get())).isEmpty();
                        ref.get().clear();
                        assertThat(ref.get().exists()).isFalse();
                        assertThat(list(ref.get().get())).isEmpty();
                    },
                    ttlExpirationMs - b.port.now());
        }
    }

    @Test
    @DisplayName("ListStateSuite: test null or negative TTL duration throws error")
    void shouldRejectANullOrNegativeTtl() {
        for (Duration ttl : Arrays.asList(null, Duration.ofMinutes(-1))) {
            expectFailure(
                    () -> new StateBody(
                                    TimeMode.PROCESSING_TIME,
                                    h -> h.getListState("testState", Serdes.String(), TtlConfig.of(ttl)))
                            .close(),
                    "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                    "operationType",
                    "update",
                    "stateName",
                    "testState");
        }
    }
}
