package dev.rtmstreams.processor.spi;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A {@link TimeQueue} in a key-value store, one entry {@code [tag][time][...]} ({@link TimeQueue.EntryCodec#storeKey})
 * per queue entry, polled through a {@link TimeSection}: for queues too large for the heap (the interval join's
 * default time index, in a local store that is not changelogged and is rebuilt when a task starts).
 */
final class StoreTimeQueue implements TimeQueue {

    private static final byte[] EMPTY = new byte[0];
    private static final int BULK_BATCH = 1_000;

    private final KeyValueStore<Bytes, byte[]> store;
    private final EntryCodec codec;
    private final TimeSection section;
    private StoreWriteBatch bulk;

    StoreTimeQueue(KeyValueStore<Bytes, byte[]> store, EntryCodec codec) {
        this.store = store;
        this.codec = codec;
        this.section = new TimeSection(store, codec.tag());
    }

    @Override
    public void add(byte[] entry, long time) {
        Bytes key = codec.storeKey(entry);
        if (bulk != null) {
            bulk.put(key, EMPTY);
        } else {
            store.put(key, EMPTY);
        }
        section.added(time);
    }

    @Override
    public boolean poll(long maxTime, int budget, List<Bytes> out) {
        List<KeyValue<Bytes, byte[]>> deletes = new ArrayList<>();
        TimeSection.Pass pass = section.scan(maxTime, false, budget, key -> {
            deletes.add(KeyValue.pair(key, null));
            out.add(codec.entry(key.get()));
        });
        if (!deletes.isEmpty()) {
            store.putAll(deletes);
        }
        section.passed(pass);
        return pass.more();
    }

    @Override
    public long lowerBound() {
        return section.lowerBound();
    }

    @Override
    public void seekLowerBound() {
        section.setLowerBound(section.oldest());
    }

    @Override
    public long oldest() {
        return section.oldest();
    }

    @Override
    public long newest() {
        return section.newest();
    }

    @Override
    public void clear() {
        byte tag = codec.tag();
        StoreWriteBatch deletes = new StoreWriteBatch(store, BULK_BATCH);
        try (KeyValueIterator<Bytes, byte[]> it =
                store.range(Bytes.wrap(new byte[] {tag}), Bytes.wrap(TimeSection.end(tag, Long.MAX_VALUE)))) {
            while (it.hasNext()) {
                Bytes key = it.next().key;
                if (key.get()[0] == tag) {
                    deletes.put(key, null);
                }
            }
        }
        deletes.flush();
        section.setLowerBound(Long.MIN_VALUE);
    }

    @Override
    public void startBulk() {
        bulk = new StoreWriteBatch(store, BULK_BATCH);
    }

    @Override
    public void flushBulk() {
        if (bulk != null && bulk.pending() > 0) {
            bulk.flush();
        }
    }

    @Override
    public void endBulk() {
        if (bulk != null) {
            bulk.flush();
            bulk = null;
        }
    }
}
