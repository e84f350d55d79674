package dev.rtmstreams.processor.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class QueryableOperatorStoreTest {

    @Test
    void shouldAnswerAnEmptyPositionToTheChangelogLayerWhenOffsetVectorConsistencyIsOff() {
        KeyValueStore<Bytes, byte[]> store = writtenStore(Map.of());

        assertThat(store.getPosition()).isEqualTo(Position.emptyPosition());
    }

    @Test
    void shouldAnswerTheStoresExactPositionWhenOffsetVectorConsistencyIsOn() {
        KeyValueStore<Bytes, byte[]> store =
                writtenStore(Map.of(StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, "true"));

        assertThat(store.getPosition()).isEqualTo(Position.fromMap(Map.of("in", Map.of(0, 7L))));
    }

    private static KeyValueStore<Bytes, byte[]> writtenStore(Map<String, String> configs) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "position-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        props.putAll(configs);
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(props);
        context.setRecordMetadata("in", 0, 7L);
        KeyValueStore<Bytes, byte[]> store =
                QueryableOperatorStore.wrap(Stores.inMemoryKeyValueStore("s")).get();
        store.init(context.getStateStoreContext(), store);
        store.put(Bytes.wrap(new byte[] {1}), new byte[] {2});
        return store;
    }
}
