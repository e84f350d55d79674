package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.StoreBackend;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
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

        ReadOnlyKeyValueStore<Bytes, byte[]> view = OperatorStores.unmeteredReads(store);

        assertThat(view).isNotSameAs(store).isNotInstanceOf(KeyValueStore.class); // no write skips the changelog
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

        assertThat(OperatorStores.unmeteredReads(plain)).isSameAs(plain);
        assertThat(OperatorStores.localWrites(plain)).isSameAs(plain);
    }

    @Test
    void shouldRefuseLocalWritesWhenTheStoreIsChangeloggedWithoutARestoreObserver() {
        KeyValueStore<Bytes, byte[]> logged =
                OperatorStores.keyValue("s", StoreBackend.IN_MEMORY, true).build();

        assertThatThrownBy(() -> OperatorStores.localWrites(logged))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("store s is changelogged and was built without a RestoreObserver");
    }

    @Test
    void shouldWriteLocallyOnlyWhenTheStoreIsUnloggedOrHasARestoreObserver() {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        builder.addStateStore(OperatorStores.keyValue("unlogged", StoreBackend.IN_MEMORY, false));
        builder.addStateStore(OperatorStores.keyValue(
                "observed", StoreBackend.IN_MEMORY, java.util.Map.of(), () -> (store, batch) -> {}));
        builder.stream("in", org.apache.kafka.streams.kstream.Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .process(
                        () -> new org.apache.kafka.streams.processor.api.Processor<byte[], byte[], Void, Void>() {
                            private KeyValueStore<Bytes, byte[]> unlogged;
                            private KeyValueStore<Bytes, byte[]> observed;
                            private KeyValueStore<Bytes, byte[]> observedLogged;

                            @Override
                            public void init(org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> c) {
                                unlogged = OperatorStores.localWrites(c.getStateStore("unlogged"));
                                observedLogged = c.getStateStore("observed");
                                observed = OperatorStores.localWrites(observedLogged);
                            }

                            @Override
                            public void process(org.apache.kafka.streams.processor.api.Record<byte[], byte[]> r) {
                                unlogged.put(Bytes.wrap(r.key()), r.value());
                                observed.put(Bytes.wrap(r.key()), r.value());
                                observedLogged.put(Bytes.wrap(new byte[] {2}), r.value()); // through the changelog
                            }
                        },
                        "unlogged",
                        "observed");
        try (org.apache.kafka.streams.TopologyTestDriver driver =
                new org.apache.kafka.streams.TopologyTestDriver(builder.build(), props())) {
            driver.createInputTopic(
                            "in",
                            Serdes.ByteArray().serializer(),
                            Serdes.ByteArray().serializer())
                    .pipeInput(new byte[] {1}, new byte[] {10});

            assertThat(driver.<Bytes, byte[]>getKeyValueStore("unlogged").get(Bytes.wrap(new byte[] {1})))
                    .containsExactly(10);
            assertThat(driver.<Bytes, byte[]>getKeyValueStore("observed").get(Bytes.wrap(new byte[] {1})))
                    .containsExactly(10);
            assertThat(driver.createOutputTopic(
                                    "operator-stores-test-observed-changelog",
                                    Serdes.ByteArray().deserializer(),
                                    Serdes.ByteArray().deserializer())
                            .readKeyValuesToList())
                    .extracting(kv -> kv.key[0] + "=" + kv.value[0])
                    .containsExactly("2=10"); // the local write is not in it
        }
    }

    @Test
    void shouldWriteChangelogOnlyKeysToTheChangelogAndNotToTheLocalStore() {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        builder.addStateStore(OperatorStores.keyValue("s", StoreBackend.IN_MEMORY, true));
        java.util.List<byte[]> local = new java.util.ArrayList<>();
        builder.stream("in", org.apache.kafka.streams.kstream.Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .process(
                        () -> new org.apache.kafka.streams.processor.api.Processor<byte[], byte[], Void, Void>() {
                            private KeyValueStore<Bytes, byte[]> store;

                            @Override
                            public void init(org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> c) {
                                store = c.getStateStore("s");
                                assertThat(OperatorStores.changelogOnly(store, k -> k.get()[0] == 9))
                                        .isTrue();
                            }

                            @Override
                            public void process(org.apache.kafka.streams.processor.api.Record<byte[], byte[]> r) {
                                store.put(Bytes.wrap(r.key()), r.value());
                                byte[] held =
                                        OperatorStores.unmeteredReads(store).get(Bytes.wrap(r.key()));
                                local.add(held);
                            }
                        },
                        "s");
        try (org.apache.kafka.streams.TopologyTestDriver driver =
                new org.apache.kafka.streams.TopologyTestDriver(builder.build(), props())) {
            var in = driver.createInputTopic(
                    "in", Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
            in.pipeInput(new byte[] {1}, new byte[] {10});
            in.pipeInput(new byte[] {9}, new byte[] {90});
            var changelog = driver.createOutputTopic(
                    "operator-stores-test-s-changelog",
                    Serdes.ByteArray().deserializer(),
                    Serdes.ByteArray().deserializer());

            assertThat(local.get(0)).containsExactly(10);
            assertThat(local.get(1)).isNull(); // not written locally
            KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore("s");
            assertThat(store.get(Bytes.wrap(new byte[] {9}))).isNull();
            assertThat(changelog.readKeyValuesToList())
                    .extracting(kv -> kv.key[0] + "=" + kv.value[0])
                    .containsExactly("1=10", "9=90"); // both logged, in order
        }
    }

    private static Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "operator-stores-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        return p;
    }
}
