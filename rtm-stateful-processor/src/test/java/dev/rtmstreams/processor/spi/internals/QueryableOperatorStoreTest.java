package dev.rtmstreams.processor.spi.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
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

    @Test
    void shouldAnswerInteractiveQueriesWithTheTrackedPositionWhenTheWrappedStoreTracksNone() {
        KeyValueStore<Bytes, byte[]> store = writtenStore(Map.of());
        Position written = Position.fromMap(Map.of("in", Map.of(0, 7L)));

        QueryResult<byte[]> reached = store.query(
                KeyQuery.withKey(Bytes.wrap(new byte[] {1})), PositionBound.at(written), new QueryConfig(false));
        QueryResult<byte[]> ahead = store.query(
                KeyQuery.withKey(Bytes.wrap(new byte[] {1})),
                PositionBound.at(Position.fromMap(Map.of("in", Map.of(0, 8L)))),
                new QueryConfig(false));

        assertThat(reached.isSuccess()).isTrue();
        assertThat(reached.getResult()).containsExactly(2);
        assertThat(reached.getPosition()).isEqualTo(written);
        assertThat(ahead.isSuccess()).isFalse();
        assertThat(ahead.getFailureReason()).isEqualTo(FailureReason.NOT_UP_TO_BOUND);
        // the in-memory store underneath was not asked to track it
        assertThat(((QueryableOperatorStore) store).wrapped().getPosition()).isEqualTo(Position.emptyPosition());
    }

    @Test
    void shouldAnswerTheOperatorsOwnQueriesBeforeTheWrappedStoreWhenItHasSome() {
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(props(Map.of()));
        context.setRecordMetadata("in", 0, 7L);
        StoreQueries sizes = (q, s) -> q instanceof KeyQuery<?, ?> ? s.approximateNumEntries() : null;
        KeyValueStore<Bytes, byte[]> store = QueryableOperatorStore.wrap(
                        Stores.inMemoryKeyValueStore("s"), () -> null, sizes)
                .get();
        store.init(context.getStateStoreContext(), store);
        store.put(Bytes.wrap(new byte[] {1}), new byte[] {2});

        QueryResult<byte[]> own = store.query(
                KeyQuery.withKey(Bytes.wrap(new byte[] {1})), PositionBound.unbounded(), new QueryConfig(false));
        QueryResult<?> passedDown =
                store.query(RangeQuery.withNoBounds(), PositionBound.unbounded(), new QueryConfig(false));

        assertThat(own.isSuccess()).isTrue();
        assertThat((Object) own.getResult()).isEqualTo(1L);
        assertThat(own.getPosition()).isEqualTo(Position.fromMap(Map.of("in", Map.of(0, 7L))));
        assertThat(passedDown.isSuccess()).isTrue();
    }

    @Test
    void shouldKeepTheNewestOffsetPerPartitionWhenManyRecordsWrite() {
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(props(Map.of()));
        KeyValueStore<Bytes, byte[]> store =
                QueryableOperatorStore.wrap(Stores.inMemoryKeyValueStore("s")).get();
        store.init(context.getStateStoreContext(), store);
        long[][] writes = {{0, 5}, {1, 3}, {0, 9}, {1, 2}, {2, 1}, {3, 4}, {4, 4}, {0, 6}};
        for (long[] w : writes) {
            context.setRecordMetadata("in", (int) w[0], w[1]);
            store.put(Bytes.wrap(new byte[] {(byte) w[0]}), new byte[] {1});
        }
        context.setRecordMetadata("other", 0, 11L);
        store.delete(Bytes.wrap(new byte[] {0}));

        QueryResult<byte[]> r = store.query(
                KeyQuery.withKey(Bytes.wrap(new byte[] {1})), PositionBound.unbounded(), new QueryConfig(false));

        assertThat(r.getPosition())
                .isEqualTo(Position.fromMap(
                        Map.of("in", Map.of(0, 9L, 1, 3L, 2, 1L, 3, 4L, 4, 4L), "other", Map.of(0, 11L))));
    }

    private static Properties props(Map<String, String> configs) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "position-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        props.putAll(configs);
        return props;
    }

    private static KeyValueStore<Bytes, byte[]> writtenStore(Map<String, String> configs) {
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(props(configs));
        context.setRecordMetadata("in", 0, 7L);
        KeyValueStore<Bytes, byte[]> store =
                QueryableOperatorStore.wrap(Stores.inMemoryKeyValueStore("s")).get();
        store.init(context.getStateStoreContext(), store);
        store.put(Bytes.wrap(new byte[] {1}), new byte[] {2});
        return store;
    }
}
