package dev.rtmstreams.processor;

import static dev.rtmstreams.processor.RtmAssertions.assertOperatorCode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.testing.ChangelogRestore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.junit.jupiter.api.Test;

/**
 * Restart-time validation against real state (Spark's operator state metadata and state schema check,
 * TransformWithStateValidationSuite and the schema evolution tests of TransformWithStateSuite): the operator restarts
 * from its changelog with a new version of the processor, and a refused restart fails when the operator starts,
 * before any record, as Spark refuses the restarted query before its first batch.
 */
class RestartValidationTest {

    private static final String STRING_SER = StringSerializer.class.getName();

    private static TransformWithState<String, String, String> version(TimeMode mode, Consumer<ScriptProcessor> init) {
        return version(mode, null, init);
    }

    private static TransformWithState<String, String, String> version(
            TimeMode mode, Serde<String> keySerde, Consumer<ScriptProcessor> init) {
        return TransformWithState.builder(
                        ScriptProcessor.supplier(
                                init,
                                (p, k, r, tv, out) -> {
                                    if (p.value != null) {
                                        String before = p.value.get();
                                        p.value.update(r);
                                        out.add(k + ":" + before + "->" + r);
                                    } else {
                                        out.add(k + ":" + r);
                                    }
                                },
                                null,
                                null),
                        mode)
                .name("evolving")
                .keySerde(keySerde)
                .build();
    }

    /** Asserts that restarting {@code h} with {@code next} is refused with {@code code} naming operator "evolving". */
    private static void assertRefused(
            Harness<String, String> h, TransformWithState<String, String, String> next, String code, String... params) {
        assertOperatorCode(() -> h.restartFromChangelog(next), "evolving", code, params);
    }

    private static Harness<String, String> withValueState() {
        Harness<String, String> h = Harness.strings(version(
                TimeMode.NONE, p -> p.value = p.getHandle().getValueState("v", Serdes.String())));
        h.pipe("a", "1");
        assertThat(h.drainValues()).containsExactly("a:null->1");
        return h;
    }

    @Test
    void shouldRefuseRestartWhenAVariableChangesKindBeforeAnyRecord() {
        try (Harness<String, String> h = withValueState()) {
            assertRefused(
                    h,
                    version(TimeMode.NONE, p -> p.list = p.getHandle().getListState("v", Serdes.String())),
                    "STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE",
                    "stateVarName",
                    "v",
                    "oldType",
                    "ValueState",
                    "newType",
                    "ListState");
        }
    }

    @Test
    void shouldRefuseRestartWhenTheTimeModeChanges() {
        try (Harness<String, String> h = withValueState()) {
            assertRefused(
                    h,
                    version(
                            TimeMode.PROCESSING_TIME,
                            p -> p.value = p.getHandle().getValueState("v", Serdes.String())),
                    "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
                    "configName",
                    "timeMode",
                    "oldConfig",
                    "NoTime",
                    "newConfig",
                    "ProcessingTime");
        }
    }

    @Test
    void shouldRefuseRestartWhenAVariableSerdeChanges() {
        try (Harness<String, String> h = withValueState()) {
            assertRefused(
                    h,
                    version(TimeMode.NONE, p -> p.getHandle().getValueState("v", Serdes.Long())),
                    "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                    "storedValueSchema",
                    "v: value: " + STRING_SER,
                    "newValueSchema",
                    "v: value: " + LongSerializer.class.getName());
        }
    }

    /** Port of TransformWithStateUnsafeRowSuite, "test that introducing TTL after restart fails query". */
    @Test
    void shouldRefuseRestartWhenATtlIsAddedOrRemoved() {
        TtlConfig ttl = TtlConfig.of(Duration.ofMinutes(1));
        try (Harness<String, String> h = Harness.strings(version(
                TimeMode.PROCESSING_TIME, p -> p.value = p.getHandle().getValueState("v", Serdes.String())))) {
            h.pipe("a", "1");
            // Spark: storedValueSchema the value, newValueSchema the value with its ttlExpirationMs
            assertRefused(
                    h,
                    version(TimeMode.PROCESSING_TIME, p -> p.getHandle().getValueState("v", Serdes.String(), ttl)),
                    "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                    "storedValueSchema",
                    "v: value: " + STRING_SER,
                    "newValueSchema",
                    "v: value: " + STRING_SER + ", ttlExpirationMs");
        }
        // and the other way: dropping the TTL would make expired values visible again
        try (Harness<String, String> h = Harness.strings(version(
                TimeMode.PROCESSING_TIME, p -> p.value = p.getHandle().getValueState("v", Serdes.String(), ttl)))) {
            h.pipe("a", "1");
            assertRefused(
                    h,
                    version(TimeMode.PROCESSING_TIME, p -> p.getHandle().getValueState("v", Serdes.String())),
                    "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                    "storedValueSchema",
                    "v: value: " + STRING_SER + ", ttlExpirationMs",
                    "newValueSchema",
                    "v: value: " + STRING_SER);
        }
    }

    /**
     * StateSchemaCompatibilityChecker.check: every column family of the operator is keyed by the grouping key, so a
     * grouping key of another type fails with STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE (the old state would be
     * unreachable).
     */
    @Test
    void shouldRefuseRestartWhenTheGroupingKeySerdeChanges() {
        try (Harness<String, String> h = withValueState()) {
            assertRefused(
                    h,
                    version(
                            TimeMode.NONE,
                            new Utf16Serde(),
                            p -> p.value = p.getHandle().getValueState("v", Serdes.String())),
                    "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                    "storedKeySchema",
                    "key: " + STRING_SER,
                    "newKeySchema",
                    "key: " + Utf16Serializer.class.getName());
        }
    }

    /**
     * Spark checks a column family against every earlier schema file of its name
     * (StateSchemaCompatibilityChecker.readSchemaFiles): a variable dropped without deleteIfExists keeps its state, and
     * declaring it again later with another kind is refused.
     */
    @Test
    void shouldRefuseAVariableDroppedWithoutDeleteAndDeclaredLaterWithAnotherKind() {
        try (Harness<String, String> h = withValueState()) {
            h.restartFromChangelog(version(
                    TimeMode.NONE, p -> p.list = p.getHandle().getListState("other", Serdes.String())));
            h.pipe("a", "2");
            assertThat(h.drainValues()).containsExactly("a:2");
            h.restartFromChangelog(version(TimeMode.NONE, p -> {}));
            assertRefused(
                    h,
                    version(
                            TimeMode.NONE,
                            p -> p.map = p.getHandle().getMapState("v", Serdes.String(), Serdes.String())),
                    "STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE",
                    "stateVarName",
                    "v",
                    "oldType",
                    "ValueState",
                    "newType",
                    "MapState");
        }
    }

    @Test
    void shouldKeepTheStateOfADroppedVariableWhenDeclaredAgainAlike() {
        try (Harness<String, String> h = withValueState()) {
            h.restartFromChangelog(version(TimeMode.NONE, p -> {}));
            h.pipe("a", "2");
            h.restartFromChangelog(version(
                    TimeMode.NONE, p -> p.value = p.getHandle().getValueState("v", Serdes.String())));
            h.pipe("a", "3");
            assertThat(h.drainValues()).containsExactly("a:2", "a:1->3");
        }
    }

    @Test
    void shouldDeleteNothingWhenTheRestartIsRefused() {
        try (Harness<String, String> h = withValueState()) {
            // deleteIfExists runs in init, but a refused restart must not have deleted the variable
            assertRefused(
                    h,
                    version(TimeMode.PROCESSING_TIME, p -> p.getHandle().deleteIfExists("v")),
                    "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
                    "configName",
                    "timeMode");
            h.restartFromChangelog(version(
                    TimeMode.NONE, p -> p.value = p.getHandle().getValueState("v", Serdes.String())));
            h.pipe("a", "2");
            assertThat(h.drainValues()).containsExactly("a:1->2");
        }
    }

    @Test
    void shouldRestartFineWhenAVariableIsAddedOrRemovedAndKeepTheState() {
        try (Harness<String, String> h = withValueState()) {
            // a new variable beside the old one: compatible, the old state is still there
            h.restartFromChangelog(version(TimeMode.NONE, p -> {
                p.value = p.getHandle().getValueState("v", Serdes.String());
                p.map = p.getHandle().getMapState("m", Serdes.String(), Serdes.String());
            }));
            h.pipe("a", "2");
            assertThat(h.drainValues()).containsExactly("a:1->2");
            // the old variable dropped and deleted, a new one of another kind under another name: compatible
            h.restartFromChangelog(version(TimeMode.NONE, p -> {
                p.getHandle().deleteIfExists("v");
                p.list = p.getHandle().getListState("l", Serdes.String());
            }));
            h.pipe("a", "3");
            assertThat(h.drainValues()).containsExactly("a:3");
            // and once deleted, "v" may come back with another kind
            h.restartFromChangelog(version(
                    TimeMode.NONE, p -> p.list = p.getHandle().getListState("v", Serdes.String())));
            h.pipe("a", "4");
            assertThat(h.drainValues()).containsExactly("a:4");
        }
    }

    /**
     * Every operator of the topology is checked when the application starts, also one that has never received a
     * record: the second of two chained operators, which the first feeds nothing.
     */
    @Test
    void shouldCheckEveryOperatorOfTheTopologyWhenTheApplicationStarts() throws Exception {
        Chain chain = new Chain();
        try {
            chain.open(Serdes.String());
            chain.driver
                    .createInputTopic(
                            "in", Serdes.String().serializer(), Serdes.String().serializer())
                    .pipeInput("a", "1");
            chain.close();
            assertOperatorCode(
                    () -> chain.open(Serdes.Long()),
                    "second",
                    "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                    "storedValueSchema",
                    "s: value: " + STRING_SER,
                    "newValueSchema",
                    "s: value: " + LongSerializer.class.getName());
            assertThat(chain.driver).isNull();
        } finally {
            chain.deleteDirectories();
        }
    }

    /** Two chained operators, "first" (writes state, emits nothing) and "second", restarted from their changelogs. */
    private static final class Chain {
        private final Map<String, List<KeyValue<Bytes, byte[]>>> changelogs =
                Map.of("first", new ArrayList<>(), "second", new ArrayList<>());
        private final List<Path> dirs = new ArrayList<>();
        TopologyTestDriver driver;

        private static TransformWithState<String, String, String> operator(String name, Serde<?> serde) {
            return TransformWithState.builder(
                            ScriptProcessor.supplier(
                                    p -> p.getHandle().getValueState("s", serde), (p, k, r, tv, out) -> {}, null, null),
                            TimeMode.NONE)
                    .name(name)
                    .build();
        }

        void open(Serde<?> secondSerde) throws Exception {
            TransformWithState<String, String, String> first = operator("first", Serdes.String());
            TransformWithState<String, String, String> second = operator("second", secondSerde);
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                    .process(new ChangelogRestore(first, changelogs.get("first")).of(first), Named.as("first"))
                    .process(new ChangelogRestore(second, changelogs.get("second")).of(second), Named.as("second"));
            Path dir = Files.createTempDirectory("rtm-restart-chain");
            dirs.add(dir);
            driver = new TopologyTestDriver(b.build(), Harness.driverProperties("chain", dir));
        }

        void close() {
            changelogs.forEach((name, records) -> records.addAll(driver.createOutputTopic(
                            "chain-" + TransformWithState.storeNameOf(name) + "-changelog",
                            new BytesDeserializer(),
                            new ByteArrayDeserializer())
                    .readKeyValuesToList()));
            driver.close();
            driver = null;
        }

        void deleteDirectories() throws IOException {
            if (driver != null) {
                driver.close();
            }
            for (Path d : dirs) {
                org.apache.kafka.common.utils.Utils.delete(d.toFile());
            }
        }
    }

    /** A String serde of another class than Kafka's: a grouping key of another type, for the restart check. */
    static final class Utf16Serde extends Serdes.WrapperSerde<String> {
        Utf16Serde() {
            super(new Utf16Serializer(), new Utf16Deserializer());
        }
    }

    /** Serializes a String as UTF-16. */
    static final class Utf16Serializer implements Serializer<String> {
        @Override
        public byte[] serialize(String topic, String data) {
            return data == null ? null : data.getBytes(StandardCharsets.UTF_16);
        }
    }

    /** Reads a UTF-16 String. */
    static final class Utf16Deserializer implements Deserializer<String> {
        @Override
        public String deserialize(String topic, byte[] data) {
            return data == null ? null : new String(data, StandardCharsets.UTF_16);
        }
    }
}
