package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** {@link StoreWriteBatch} against a map written entry by entry (the model), counting the store's putAll calls. */
class StoreWriteBatchTest {

    @Property(tries = 200)
    void shouldWriteWhatEachPutWouldInBatchesOfTheSizeWhenFlushed(
            @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 15) Integer> keys,
            @ForAll @IntRange(min = 1, max = 7) int size) {
        List<Integer> putAllSizes = new ArrayList<>();
        KeyValueStore<Bytes, byte[]> store = recording(putAllSizes);
        TreeMap<Bytes, byte[]> model = new TreeMap<>();
        StoreWriteBatch batch = new StoreWriteBatch(store, size);
        for (int i = 0; i < keys.size(); i++) {
            Bytes k = Bytes.wrap(new byte[] {keys.get(i).byteValue()});
            byte[] v = i % 3 == 2 ? null : new byte[] {(byte) i}; // every third a delete
            batch.put(k, v);
            if (v == null) {
                model.remove(k);
            } else {
                model.put(k, v);
            }
            assertThat(batch.pending()).isEqualTo((i + 1) % size);
        }
        batch.flush();

        assertThat(contents(store)).containsExactlyEntriesOf(model);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < keys.size() / size; i++) {
            expected.add(size);
        }
        expected.add(keys.size() % size); // the flush: one putAll, empty when nothing is pending
        assertThat(putAllSizes).isEqualTo(expected);
        assertThat(batch.pending()).isZero();
    }

    @Test
    void shouldRejectABatchSizeBelowOneWhenCreated() {
        assertThatThrownBy(() -> new StoreWriteBatch(recording(new ArrayList<>()), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }

    private static TreeMap<Bytes, byte[]> contents(KeyValueStore<Bytes, byte[]> store) {
        TreeMap<Bytes, byte[]> out = new TreeMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                out.put(kv.key, kv.value);
            }
        }
        return out;
    }

    /** An in-memory store that records the size of each putAll call. */
    @SuppressWarnings("unchecked")
    private static KeyValueStore<Bytes, byte[]> recording(List<Integer> putAllSizes) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "store-write-batch-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        KeyValueStore<Bytes, byte[]> real = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore("s"), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        real.init(new MockProcessorContext<>(p).getStateStoreContext(), real);
        return (KeyValueStore<Bytes, byte[]>) Proxy.newProxyInstance(
                StoreWriteBatchTest.class.getClassLoader(),
                new Class<?>[] {KeyValueStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("putAll")) {
                        putAllSizes.add(((List<?>) args[0]).size());
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
