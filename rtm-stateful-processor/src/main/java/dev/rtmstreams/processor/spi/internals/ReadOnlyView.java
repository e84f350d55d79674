package dev.rtmstreams.processor.spi.internals;

import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** The reads of a key-value store and nothing else: what a caller cannot cast back to a writable store. */
final class ReadOnlyView implements ReadOnlyKeyValueStore<Bytes, byte[]> {

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;

    ReadOnlyView(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    @Override
    public byte[] get(Bytes key) {
        return store.get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return store.range(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return store.reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return store.all();
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return store.reverseAll();
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        return store.prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
        return store.approximateNumEntries();
    }
}
