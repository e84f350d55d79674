package dev.rtmstreams.processor.internals;

import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** A real in-memory Kafka Streams store of the operator's type, for testing the runtime's pieces alone. */
final class TestStores {

    private TestStores() {}

    static KeyValueStore<Bytes, byte[]> operatorStore(String name) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "pieces");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        MockProcessorContext<Object, Object> ctx = new MockProcessorContext<>(p, new TaskId(0, 0), null);
        KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(ctx.getStateStoreContext(), store);
        return store;
    }

    static byte[] key(String k) {
        return k.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
