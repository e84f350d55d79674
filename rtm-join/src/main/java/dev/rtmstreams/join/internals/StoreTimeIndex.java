package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.StoreWriteBatch;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A {@link TimeIndex} in a local (not changelogged) key-value store, one entry per row keyed by
 * {@link Codec#indexKeyFromBufferKey}: for buffers too large to index on the heap
 * ({@link dev.rtmstreams.join.EvictionIndex#STATE_STORE}).
 */
final class StoreTimeIndex implements TimeIndex {

    private static final byte[] EMPTY = new byte[0];
    private static final int BULK_BATCH = 1_000;

    private final KeyValueStore<Bytes, byte[]> store;
    private StoreWriteBatch bulk;

    /** @param store the index store, without Kafka Streams' metered layer ({@code OperatorStores.localWrites}) */
    StoreTimeIndex(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    @Override
    public void add(byte[] bufferKey, long eventTime) {
        Bytes indexKey = Codec.indexKeyFromBufferKey(bufferKey);
        if (bulk != null) {
            bulk.put(indexKey, EMPTY);
        } else {
            store.put(indexKey, EMPTY);
        }
    }

    @Override
    public boolean poll(long from, long maxTime, int max, List<Bytes> out) {
        List<KeyValue<Bytes, byte[]>> deletes = new ArrayList<>();
        boolean more;
        // Start at the known lower bound, not at the index start: RocksDB would otherwise skip over the tombstones of
        // every row evicted so far on each pass.
        Bytes start = from == Long.MIN_VALUE ? Codec.indexLowerBound() : Codec.indexLowerBound(from);
        try (KeyValueIterator<Bytes, byte[]> it = store.range(start, Codec.indexUpperBound(maxTime))) {
            while (deletes.size() < max && it.hasNext()) {
                Bytes indexKey = it.next().key;
                deletes.add(KeyValue.pair(indexKey, null));
                out.add(Codec.bufferKeyFromIndexKey(indexKey.get()));
            }
            more = it.hasNext();
        }
        if (!deletes.isEmpty()) {
            store.putAll(deletes);
        }
        return more;
    }

    @Override
    public long oldest() {
        try (KeyValueIterator<Bytes, byte[]> it =
                store.range(Codec.indexLowerBound(), Codec.indexUpperBound(Long.MAX_VALUE))) {
            return it.hasNext() ? Codec.indexKeyTime(it.next().key.get()) : Long.MAX_VALUE;
        }
    }

    @Override
    public long newest() {
        try (KeyValueIterator<Bytes, byte[]> it =
                store.reverseRange(Codec.indexLowerBound(), Codec.indexUpperBound(Long.MAX_VALUE))) {
            return it.hasNext() ? Codec.indexKeyTime(it.next().key.get()) : Codec.NONE;
        }
    }

    @Override
    public void clear() {
        StoreWriteBatch deletes = new StoreWriteBatch(store, BULK_BATCH);
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                deletes.put(it.next().key, null);
            }
        }
        deletes.flush();
    }

    @Override
    public void startBulk() {
        bulk = new StoreWriteBatch(store, BULK_BATCH);
    }

    @Override
    public void endBulk() {
        if (bulk != null) {
            bulk.flush();
            bulk = null;
        }
    }
}
