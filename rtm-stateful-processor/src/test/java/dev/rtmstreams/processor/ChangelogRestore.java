package dev.rtmstreams.processor;

import dev.rtmstreams.processor.spi.OperatorStores;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A changelog restore for {@link org.apache.kafka.streams.TopologyTestDriver}, which replays no changelog: the
 * operator's suppliers connect a store that writes the given changelog records into itself when it is initialized,
 * below the change-logging layer, before the driver initializes the processors, as Kafka Streams restores a store
 * before it calls {@code Processor#init}. Wrap every supplier of the operator (main, fixed-key, initial-state) with one
 * instance: Kafka Streams requires the same store builder for one store.
 */
public final class ChangelogRestore {

    private final StoreBuilder<KeyValueStore<Bytes, byte[]>> store;

    /**
     * @param tws the operator
     * @param changelog its changelog records in write order (a null value deletes the key)
     */
    @SuppressWarnings("unchecked")
    public ChangelogRestore(TransformWithState<?, ?, ?> tws, List<KeyValue<Bytes, byte[]>> changelog) {
        StoreBuilder<KeyValueStore<Bytes, byte[]>> b = (StoreBuilder<KeyValueStore<Bytes, byte[]>>)
                tws.stores().iterator().next();
        List<KeyValue<Bytes, byte[]>> records = List.copyOf(changelog);
        this.store = new Builder(b, records);
    }

    /** @return {@code supplier} with the restoring store */
    public <K, I, KO, O> ProcessorSupplier<K, I, KO, O> of(ProcessorSupplier<K, I, KO, O> supplier) {
        Set<StoreBuilder<?>> stores = Set.of(store);
        return new ProcessorSupplier<>() {
            @Override
            public Processor<K, I, KO, O> get() {
                return supplier.get();
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return stores;
            }
        };
    }

    /** @return {@code supplier} with the restoring store */
    public <K, I, O> FixedKeyProcessorSupplier<K, I, O> of(FixedKeyProcessorSupplier<K, I, O> supplier) {
        Set<StoreBuilder<?>> stores = Set.of(store);
        return new FixedKeyProcessorSupplier<>() {
            @Override
            public FixedKeyProcessor<K, I, O> get() {
                return supplier.get();
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return stores;
            }
        };
    }

    /** Builds the operator's store wrapped in a {@link Restoring} layer. */
    private record Builder(StoreBuilder<KeyValueStore<Bytes, byte[]>> delegate, List<KeyValue<Bytes, byte[]>> records)
            implements StoreBuilder<KeyValueStore<Bytes, byte[]>> {

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withCachingEnabled() {
            delegate.withCachingEnabled();
            return this;
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withCachingDisabled() {
            delegate.withCachingDisabled();
            return this;
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withLoggingEnabled(Map<String, String> config) {
            delegate.withLoggingEnabled(config);
            return this;
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withLoggingDisabled() {
            delegate.withLoggingDisabled();
            return this;
        }

        @Override
        public KeyValueStore<Bytes, byte[]> build() {
            return new Restoring(delegate.build(), records);
        }

        @Override
        public Map<String, String> logConfig() {
            return delegate.logConfig();
        }

        @Override
        public boolean loggingEnabled() {
            return delegate.loggingEnabled();
        }

        @Override
        public String name() {
            return delegate.name();
        }
    }

    /** The outermost layer: replays the records into the innermost store once the layers below are initialized. */
    private static final class Restoring extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
            implements KeyValueStore<Bytes, byte[]> {

        private final List<KeyValue<Bytes, byte[]>> records;

        Restoring(KeyValueStore<Bytes, byte[]> wrapped, List<KeyValue<Bytes, byte[]>> records) {
            super(wrapped);
            this.records = records;
        }

        @Override
        public void init(StateStoreContext context, StateStore root) {
            super.init(context, root);
            KeyValueStore<Bytes, byte[]> innermost = OperatorStores.unmetered(wrapped());
            for (KeyValue<Bytes, byte[]> kv : records) {
                if (kv.value == null) {
                    innermost.delete(kv.key);
                } else {
                    innermost.put(kv.key, kv.value);
                }
            }
        }

        @Override
        public void put(Bytes key, byte[] value) {
            wrapped().put(key, value);
        }

        @Override
        public byte[] putIfAbsent(Bytes key, byte[] value) {
            return wrapped().putIfAbsent(key, value);
        }

        @Override
        public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
            wrapped().putAll(entries);
        }

        @Override
        public byte[] delete(Bytes key) {
            return wrapped().delete(key);
        }

        @Override
        public byte[] get(Bytes key) {
            return wrapped().get(key);
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
            return wrapped().range(from, to);
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
            return wrapped().reverseRange(from, to);
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> all() {
            return wrapped().all();
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> reverseAll() {
            return wrapped().reverseAll();
        }

        @Override
        public <PS extends org.apache.kafka.common.serialization.Serializer<P>, P>
                KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
            return wrapped().prefixScan(prefix, prefixKeySerializer);
        }

        @Override
        public long approximateNumEntries() {
            return wrapped().approximateNumEntries();
        }
    }
}
