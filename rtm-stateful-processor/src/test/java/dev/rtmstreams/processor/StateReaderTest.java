package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The state reader against a real operator store, its changelog and its RocksDB directory. */
class StateReaderTest {

    static final long T0 = Harness.START.toEpochMilli();

    static Harness<String, String> filled(StoreBackend backend) {
        Harness<String, String> h = Harness.strings(operator(backend));
        h.pipe("a", "x1");
        h.advanceMs(1000);
        h.pipe("a", "x2");
        h.pipe("b", "y1");
        return h;
    }

    static TransformWithState<String, String, String> operator(StoreBackend backend) {
        return TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p -> {
                                    p.value = p.getHandle().getValueState("last", Serdes.String());
                                    p.list = p.getHandle()
                                            .getListState(
                                                    "seen", Serdes.String(), TtlConfig.of(Duration.ofSeconds(10)));
                                    p.map = p.getHandle().getMapState("byFirst", Serdes.String(), Serdes.String());
                                },
                                (p, k, r, tv, out) -> {
                                    p.value.update(r);
                                    p.list.appendValue(r);
                                    String first = r.substring(0, 1);
                                    String n = p.map.getValue(first);
                                    p.map.updateValue(first, n == null ? "1" : String.valueOf(Integer.parseInt(n) + 1));
                                    p.getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 60_000);
                                },
                                null,
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("readable")
                .storeBackend(backend)
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .build();
    }

    static void assertKeyA(StateReader reader) {
        StateReader.KeyState a =
                reader.read("a".getBytes(StandardCharsets.UTF_8)).orElseThrow();
        assertThat(a.key()).isEqualTo("a");
        assertThat(a.kinds())
                .containsEntry("last", "ValueState")
                .containsEntry("seen", "ListState")
                .containsEntry("byFirst", "MapState");
        assertThat(a.variables().get("last")).containsExactly(new StateReader.StoredValue(null, "x2", null));
        assertThat(a.variables().get("seen"))
                .containsExactly(
                        new StateReader.StoredValue(null, "x1", T0 + 10_000),
                        new StateReader.StoredValue(null, "x2", T0 + 11_000));
        assertThat(a.variables().get("byFirst")).containsExactly(new StateReader.StoredValue("x", "2", null));
        assertThat(a.timers()).containsExactly(T0 + 60_000, T0 + 61_000);
        assertThat(StateReader.toJson(a))
                .isEqualTo("{\"key\":\"a\",\"state\":{"
                        + "\"last\":{\"kind\":\"ValueState\",\"values\":[{\"value\":\"x2\",\"expiresAtMs\":null}]},"
                        + "\"seen\":{\"kind\":\"ListState\",\"values\":[{\"value\":\"x1\",\"expiresAtMs\":"
                        + (T0 + 10_000)
                        + "},{\"value\":\"x2\",\"expiresAtMs\":" + (T0 + 11_000) + "}]},"
                        + "\"byFirst\":{\"kind\":\"MapState\",\"values\":[{\"mapKey\":\"x\",\"value\":\"2\",\"expiresAtMs\":null}]}},"
                        + "\"timers\":[" + (T0 + 60_000) + "," + (T0 + 61_000) + "]}");
        assertThat(reader.read("nobody".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(reader.readAll()).extracting(StateReader.KeyState::key).containsExactly("a", "b");
        // spelled as Spark's operator metadata shows the modes
        assertThat(reader.description().orElseThrow().timeMode()).isEqualTo("ProcessingTime");
        assertThat(reader.description().orElseThrow().outputMode()).isEqualTo("Update");
        assertThat(reader.watermark()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldReadEveryVariableTtlAndTimersFromTheLiveStoreAndFromTheChangelog(StoreBackend backend) {
        try (Harness<String, String> h = filled(backend)) {
            assertKeyA(StateReader.of(h.store()));
            assertKeyA(StateReader.ofEntries(h.changelogSoFar()));
        }
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldAnswerTheOperatorStateQueryWhenTheLiveStoreIsQueried(StoreBackend backend) {
        try (Harness<String, String> h = filled(backend)) {
            QueryResult<List<KeyValue<Bytes, byte[]>>> all =
                    h.store().query(OperatorStateQuery.allKeys(), PositionBound.unbounded(), new QueryConfig(false));
            QueryResult<List<KeyValue<Bytes, byte[]>>> b = h.store()
                    .query(
                            OperatorStateQuery.forKey("b".getBytes(StandardCharsets.UTF_8)),
                            PositionBound.unbounded(),
                            new QueryConfig(false));

            assertThat(all.isSuccess()).isTrue();
            assertKeyA(StateReader.ofEntries(all.getResult()));
            assertThat(b.isSuccess()).isTrue();
            assertThat(StateReader.ofEntries(b.getResult()).readAll())
                    .extracting(StateReader.KeyState::key)
                    .containsExactly("b");
        }
    }

    @Test
    void shouldReadARocksDbStoreDirectoryOfAStoppedOperator(@TempDir Path stateDir) {
        // the operator on a real RocksDB store in a state directory that outlives it (TopologyTestDriver deletes its
        // own)
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "offline");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        MockProcessorContext<String, String> ctx = new MockProcessorContext<>(p, new TaskId(0, 0), stateDir.toFile());
        ctx.setCurrentSystemTimeMs(T0);
        KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore("readable-state"), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(ctx.getStateStoreContext(), store);
        ctx.addStateStore(store);
        Processor<String, String, String, String> op =
                operator(StoreBackend.ROCKS_DB).get();
        op.init(ctx);
        op.process(new Record<>("a", "x1", T0));
        ctx.setCurrentSystemTimeMs(T0 + 1000);
        op.process(new Record<>("a", "x2", T0 + 1000));
        op.process(new Record<>("b", "y1", T0 + 1000));
        op.close();
        store.close(); // flushes the memtable (Kafka Streams writes RocksDB without a WAL)

        assertKeyA(StateReader.fromRocksDbDirectory(stateDir.resolve("rocksdb").resolve("readable-state")));
    }

    @Test
    void shouldNameTheDirectoryWhenItIsNoRocksDbStore(@TempDir Path empty) {
        assertThatThrownBy(() -> StateReader.fromRocksDbDirectory(empty))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(empty.toString());
    }

    @Test
    void shouldShowBytesAsBase64WhenNoDeserializerFitsAndUseAGivenOne() {
        try (Harness<String, String> h = filled(StoreBackend.IN_MEMORY)) {
            StateReader reader = StateReader.of(h.store())
                    .withDeserializer(
                            "last", (topic, bytes) -> new String(bytes, StandardCharsets.UTF_8).toUpperCase());
            assertThat(reader.read("b".getBytes(StandardCharsets.UTF_8))
                            .orElseThrow()
                            .variables()
                            .get("last"))
                    .containsExactly(new StateReader.StoredValue(null, "Y1", null));
            assertThat(StateReader.deserializerFor("com.example.NoSuchSerializer"))
                    .isNull();
            assertThat(List.of(StateReader.deserializerFor(
                            Serdes.Long().serializer().getClass().getName())))
                    .first()
                    .isInstanceOf(org.apache.kafka.common.serialization.LongDeserializer.class);
        }
    }

    /**
     * Port of StateDataSourceTransformWithStateSuite, "state data source integration - value state with single
     * variable": reading with {@code stateVarName} set to a variable the operator never declared fails with
     * STDS_INVALID_OPTION_VALUE.WITH_MESSAGE (Spark's StateDataSource#runStateVarChecks).
     */
    @Test
    void shouldRefuseADeserializerForAVariableTheOperatorNeverDeclared() {
        try (Harness<String, String> h = filled(StoreBackend.IN_MEMORY)) {
            StateReader reader = StateReader.of(h.store());
            for (ThrowingCallable option : List.<ThrowingCallable>of(
                    () -> reader.withDeserializer("non-exist", Serdes.String().deserializer()),
                    () -> reader.withMapKeyDeserializer(
                            "non-exist", Serdes.String().deserializer()))) {
                RtmAssertions.assertCode(
                        option,
                        "STDS_INVALID_OPTION_VALUE.WITH_MESSAGE",
                        "optionName",
                        "stateVarName",
                        "message",
                        "State variable non-exist is not defined for the transformWithState operator.");
            }
            // a declared variable is accepted
            assertThat(reader.withDeserializer("last", Serdes.String().deserializer())
                            .read("a".getBytes(StandardCharsets.UTF_8)))
                    .isPresent();
        }
    }
}
