package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.StoreBackend;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class OperatorStoresTest {

    @Test
    void shouldReadThroughTheUnmeteredViewWhatWasWrittenThroughTheStore() {
        KeyValueStore<Bytes, byte[]> store =
                OperatorStores.keyValue("s", StoreBackend.IN_MEMORY, false).build();
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(props());
        store.init(context.getStateStoreContext(), store);
        store.put(Bytes.wrap(new byte[] {1}), new byte[] {10});
        store.put(Bytes.wrap(new byte[] {2}), new byte[] {20});

        KeyValueStore<Bytes, byte[]> view = OperatorStores.unmetered(store);

        assertThat(view).isNotSameAs(store);
        assertThat(view.get(Bytes.wrap(new byte[] {2}))).containsExactly(20);
        try (KeyValueIterator<Bytes, byte[]> it = view.range(Bytes.wrap(new byte[] {1}), Bytes.wrap(new byte[] {2}))) {
            assertThat(it.next().value).containsExactly(10);
            assertThat(it.next().value).containsExactly(20);
            assertThat(it.hasNext()).isFalse();
        }
    }

    @Test
    void shouldReturnAStoreNotBuiltByOperatorStoresUnchanged() {
        KeyValueStore<Bytes, byte[]> plain = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore("plain"), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();

        assertThat(OperatorStores.unmetered(plain)).isSameAs(plain);
    }

    private static Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "operator-stores-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        return p;
    }
}
