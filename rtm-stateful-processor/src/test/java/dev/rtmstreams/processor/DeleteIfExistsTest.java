package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * A new version of a processor that drops a state variable purges it with {@code deleteIfExists} in init. Runs both
 * versions on one store through {@link MockProcessorContext} (TopologyTestDriver cannot keep a store across drivers).
 */
class DeleteIfExistsTest {

    @Test
    void shouldPurgeUndeclaredVariableAndKeepOthersWhenDeleteIfExistsInInit() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "evolve");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        MockProcessorContext<String, String> ctx = new MockProcessorContext<>(p, new TaskId(0, 0), null);
        ctx.setCurrentSystemTimeMs(0L);
        KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore("evolve-state"), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(ctx.getStateStoreContext(), store);
        ctx.addStateStore(store);

        TransformWithState<String, String, String> v1 = TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p1 -> {
                                    p1.value = p1.getHandle().getValueState("old", Serdes.String());
                                    p1.list = p1.getHandle().getListState("kept", Serdes.String());
                                },
                                (sp, k, r, tv, out) -> {
                                    sp.value.update(r);
                                    sp.list.appendValue(r);
                                },
                                null,
                                null),
                        TimeMode.NONE)
                .name("evolve")
                .keySerde(Serdes.String())
                .build();
        Processor<String, String, String, String> first = v1.get();
        first.init(ctx);
        first.process(new Record<>("a", "x", 0L));
        first.process(new Record<>("b", "y", 0L));
        first.close();
        assertThat(count(store)).isEqualTo(4);

        List<String> seen = new ArrayList<>();
        TransformWithState<String, String, String> v2 = TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p2 -> {
                                    p2.list = p2.getHandle().getListState("kept", Serdes.String());
                                    p2.getHandle().deleteIfExists("old");
                                    p2.getHandle().deleteIfExists("never-existed");
                                },
                                (sp, k, r, tv, out) -> sp.list.get().forEachRemaining(seen::add),
                                null,
                                null),
                        TimeMode.NONE)
                .name("evolve")
                .keySerde(Serdes.String())
                .build();
        Processor<String, String, String, String> second = v2.get();
        second.init(ctx);
        assertThat(count(store)).isEqualTo(2);
        second.process(new Record<>("a", "z", 0L));
        assertThat(seen).containsExactly("x");
        second.close();
    }

    /** @return the number of state-variable entries (the store also holds the operator's metadata) */
    private static int count(KeyValueStore<Bytes, byte[]> store) {
        int n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                if (it.next().key.get()[0] == 0x01) { // the STATE section of the operator store layout
                    n++;
                }
            }
        }
        return n;
    }
}
