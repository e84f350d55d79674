package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ListState;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * List state with a time to live (Flink's {@code TtlListState}): wraps a plain {@link ListStateImpl}, over the same
 * byte layout. Each element has its own expiry, given when appended; {@code put} refreshes all; appends drop the
 * already-expired elements while rewriting; every write indexes the list's key for the {@link TtlCleaner}.
 */
final class TtlListState<T> extends TtlState<ListStateImpl<T>> implements ListState<T> {

    TtlListState(ListStateImpl<T> plain, long ttlMs) {
        super(plain, ttlMs);
    }

    @Override
    public boolean exists() {
        return plain.exists(this::isLive);
    }

    @Override
    public Iterator<T> get() {
        return plain.get(this::isLive);
    }

    @Override
    public void put(List<T> newState) {
        long expiry = expiryOfWrite();
        written(plain.put(newState, expiry), expiry);
    }

    @Override
    public void appendValue(T newState) {
        long expiry = expiryOfWrite();
        written(plain.appendValue(newState, expiry, this::isLive), expiry);
    }

    @Override
    public void appendList(List<T> newState) {
        long expiry = expiryOfWrite();
        written(plain.appendList(newState, expiry, this::isLive), expiry);
    }

    @Override
    public void clear() {
        plain.clear();
    }

    /**
     * The cleaner's removal for list state: drops the elements of the list under {@code primaryKey} that expired at
     * {@code now} (the entry itself when none is left).
     *
     * @return how many elements were removed
     */
    static int removeExpired(KeyValueStore<Bytes, byte[]> store, byte[] primaryKey, long now) {
        Bytes k = Bytes.wrap(primaryKey);
        byte[] stored = store.get(k);
        if (stored == null) {
            return 0;
        }
        List<byte[]> live = ListStateImpl.records(stored, expiry -> !ValueCodec.isExpired(expiry, now));
        int removed = ListStateImpl.count(stored) - live.size();
        if (live.isEmpty()) {
            store.delete(k);
        } else if (removed > 0) {
            store.put(k, ListStateImpl.join(live));
        }
        return removed;
    }
}
