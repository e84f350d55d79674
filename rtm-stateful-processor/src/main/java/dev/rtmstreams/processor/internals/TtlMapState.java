package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.MapState;
import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Map state with a time to live (Flink's {@code TtlMapState}): wraps a plain {@link MapStateImpl}, over the same byte
 * layout. Each entry has its own expiry, given when it is updated and indexed for the {@link TtlCleaner}; an entry
 * this wrapper no longer calls live reads as absent at once.
 */
final class TtlMapState<UK, UV> extends TtlState<MapStateImpl<UK, UV>> implements MapState<UK, UV> {

    TtlMapState(MapStateImpl<UK, UV> plain, long ttlMs) {
        super(plain, ttlMs);
    }

    @Override
    public boolean exists() {
        return plain.exists(this::isLive);
    }

    @Override
    public UV getValue(UK key) {
        return plain.getValue(key, this::isLive);
    }

    @Override
    public boolean containsKey(UK key) {
        return plain.containsKey(key, this::isLive);
    }

    @Override
    public void updateValue(UK key, UV value) {
        long expiry = expiryOfWrite();
        written(plain.updateValue(key, value, expiry), expiry);
    }

    @Override
    public Iterator<Map.Entry<UK, UV>> iterator() {
        return plain.iterator(this::isLive);
    }

    @Override
    public Iterator<UK> keys() {
        return plain.keys(this::isLive);
    }

    @Override
    public Iterator<UV> values() {
        return plain.values(this::isLive);
    }

    @Override
    public void removeKey(UK key) {
        plain.removeKey(key);
    }

    @Override
    public void clear() {
        plain.clear();
    }

    /**
     * The cleaner's removal for map state: deletes the entry under {@code primaryKey} when it expired at {@code now}.
     *
     * @return 1 when removed, else 0
     */
    static int removeExpired(KeyValueStore<Bytes, byte[]> store, byte[] primaryKey, long now) {
        return ValueCodec.removeIfExpired(store, primaryKey, now);
    }
}
