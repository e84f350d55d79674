package dev.rtmstreams.processor;

import dev.rtmstreams.processor.spi.internals.QueryableOperatorStore;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A changelog restore for {@link org.apache.kafka.streams.TopologyTestDriver}, which replays no changelog: the
 * operator's processors first write the given changelog records into the operator's store, below its
 * change-logging layer, and only then run their own {@code init}, as Kafka Streams restores a store before it calls
 * {@code Processor#init}. Wrap every supplier of one operator (main, fixed-key, initial-state) with one instance: the
 * first processor initialized restores.
 */
public final class ChangelogRestore {

    private final String storeName;
    private final List<KeyValue<Bytes, byte[]>> records;
    private boolean restored;

    /**
     * @param tws the operator
     * @param changelog its changelog records in write order (a null value deletes the key)
     */
    public ChangelogRestore(TransformWithState<?, ?, ?> tws, List<KeyValue<Bytes, byte[]>> changelog) {
        this.storeName = tws.storeName();
        this.records = List.copyOf(changelog);
    }

    private void restore(ProcessingContext context) {
        if (restored) {
            return;
        }
        restored = true;
        // below the change-logging layer (the operator's store has no restore observer, so this is not public API)
        KeyValueStore<Bytes, byte[]> innermost = QueryableOperatorStore.innermost(context.getStateStore(storeName));
        for (KeyValue<Bytes, byte[]> kv : records) {
            if (kv.value == null) {
                innermost.delete(kv.key);
            } else {
                innermost.put(kv.key, kv.value);
            }
        }
    }

    /** @return {@code supplier} whose processors restore the store before their {@code init} */
    public <K, I, KO, O> ProcessorSupplier<K, I, KO, O> of(ProcessorSupplier<K, I, KO, O> supplier) {
        return new ProcessorSupplier<>() {
            @Override
            public Processor<K, I, KO, O> get() {
                Processor<K, I, KO, O> p = supplier.get();
                return new Processor<>() {
                    @Override
                    public void init(ProcessorContext<KO, O> context) {
                        restore(context);
                        p.init(context);
                    }

                    @Override
                    public void process(Record<K, I> record) {
                        p.process(record);
                    }

                    @Override
                    public void close() {
                        p.close();
                    }
                };
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return supplier.stores();
            }
        };
    }

    /** @return {@code supplier} whose processors restore the store before their {@code init} */
    public <K, I, O> FixedKeyProcessorSupplier<K, I, O> of(FixedKeyProcessorSupplier<K, I, O> supplier) {
        return new FixedKeyProcessorSupplier<>() {
            @Override
            public FixedKeyProcessor<K, I, O> get() {
                FixedKeyProcessor<K, I, O> p = supplier.get();
                return new FixedKeyProcessor<>() {
                    @Override
                    public void init(FixedKeyProcessorContext<K, O> context) {
                        restore(context);
                        p.init(context);
                    }

                    @Override
                    public void process(FixedKeyRecord<K, I> record) {
                        p.process(record);
                    }

                    @Override
                    public void close() {
                        p.close();
                    }
                };
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return supplier.stores();
            }
        };
    }
}
