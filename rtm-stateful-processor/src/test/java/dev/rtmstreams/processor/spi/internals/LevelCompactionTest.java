package dev.rtmstreams.processor.spi.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.spi.OperatorStores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rocksdb.CompactionStyle;
import org.rocksdb.Options;

class LevelCompactionTest {

    /** The application's own setter: records the compaction style it is handed, and its close. */
    public static final class RecordingSetter implements RocksDBConfigSetter {
        static final List<String> CALLS = new ArrayList<>();

        public RecordingSetter() {}

        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            CALLS.add("set " + storeName + " " + options.compactionStyle());
        }

        @Override
        public void close(String storeName, Options options) {
            CALLS.add("close " + storeName);
        }
    }

    private static KeyValueStore<Bytes, byte[]> open(
            Path dir, StoreBackend backend, boolean levelCompaction, Object appSetter) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "level-compaction-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        if (appSetter != null) {
            p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, appSetter);
        }
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(p, new TaskId(0, 0), dir.toFile());
        KeyValueStore<Bytes, byte[]> store = QueryableOperatorStore.builder(
                        "s", backend, () -> null, null, levelCompaction)
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    @Test
    void shouldOpenTheStoreWithLevelCompactionBeforeTheApplicationsOwnSetter(@TempDir Path dir) {
        RecordingSetter.CALLS.clear();
        KeyValueStore<Bytes, byte[]> store = open(dir, StoreBackend.ROCKS_DB, true, RecordingSetter.class);
        store.close();
        assertThat(RecordingSetter.CALLS).containsExactly("set s LEVEL", "close s");
    }

    @Test
    void shouldLeaveTheCompactionToKafkaStreamsWithoutLevelCompaction(@TempDir Path dir) {
        RecordingSetter.CALLS.clear();
        KeyValueStore<Bytes, byte[]> store = open(dir, StoreBackend.ROCKS_DB, false, RecordingSetter.class.getName());
        store.close();
        assertThat(RecordingSetter.CALLS).containsExactly("set s UNIVERSAL", "close s");
    }

    @Test
    void shouldSetLevelCompactionWhenTheApplicationHasNoSetter() {
        try (Options options = new Options()) {
            options.setCompactionStyle(CompactionStyle.UNIVERSAL);
            Map<String, Object> configs = LevelCompaction.configsFor(Map.of());
            new LevelCompaction().setConfig("s", options, configs);
            assertThat(options.compactionStyle()).isEqualTo(CompactionStyle.LEVEL);
            assertThat(configs).doesNotContainKey(LevelCompaction.DELEGATE_CONFIG);
        }
    }

    @Test
    void shouldNameTheApplicationsSetterWhenItIsNoRocksDbConfigSetter() {
        Map<String, Object> configs =
                LevelCompaction.configsFor(Map.of(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, String.class));
        try (Options options = new Options()) {
            assertThatThrownBy(() -> new LevelCompaction().setConfig("s", options, configs))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rocksdb.config.setter must name a RocksDBConfigSetter class")
                    .hasMessageContaining("java.lang.String");
        }
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldDeleteEveryKeyOfTheRangeAndNoOther(StoreBackend backend, @TempDir Path dir) {
        KeyValueStore<Bytes, byte[]> store = open(dir, backend, true, null);
        try {
            for (int i = 0; i < 6; i++) {
                store.put(Bytes.wrap(new byte[] {(byte) i}), new byte[] {(byte) i});
            }
            OperatorStores.deleteRange(store, Bytes.wrap(new byte[] {1}), Bytes.wrap(new byte[] {4}));
            List<Integer> left = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
                it.forEachRemaining(kv -> left.add((int) kv.key.get()[0]));
            }
            assertThat(left).containsExactly(0, 4, 5);
        } finally {
            store.close();
        }
    }
}
