package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.errors.NullValueException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Map state on the operator store: one entry per (grouping key, user key), key
 * {@code statePrefix + [keyLen][groupingKey] + userKeyBytes}, value per {@link ValueCodec} with a per-entry expiry
 * (the {@link TtlLayer}'s).
 */
final class MapStateImpl<UK, UV> extends StoredStateVariable implements MapState<UK, UV> {

    private final Serializer<UK> keySerializer;
    private final Deserializer<UK> keyDeserializer;
    private final Serializer<UV> valueSerializer;
    private final Deserializer<UV> valueDeserializer;

    MapStateImpl(KeyContext keys, String name, Serde<UK> keySerde, Serde<UV> valueSerde, TtlLayer ttl) {
        super(keys, name, ttl);
        this.keySerializer = keySerde.serializer();
        this.keyDeserializer = keySerde.deserializer();
        this.valueSerializer = valueSerde.serializer();
        this.valueDeserializer = valueSerde.deserializer();
    }

    private byte[] groupPrefix(String op) {
        return Layout.concat(prefix, keys.keySuffix(op, name));
    }

    private Bytes entryKey(String op, UK userKey) {
        byte[] gp = groupPrefix(op);
        if (userKey == null) {
            throw new NullValueException(name);
        }
        return Bytes.wrap(Layout.concat(gp, keySerializer.serialize(name, userKey)));
    }

    private List<KeyValue<byte[], byte[]>> liveEntries(String op) {
        byte[] gp = groupPrefix(op);
        List<KeyValue<byte[], byte[]>> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = keys.store.prefixScan(Bytes.wrap(gp), BytesSer.INSTANCE)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (ttl.isLive(ValueCodec.expiry(kv.value))) {
                    byte[] k = kv.key.get();
                    out.add(KeyValue.pair(Arrays.copyOfRange(k, gp.length, k.length), kv.value));
                }
            }
        }
        return out;
    }

    @Override
    public boolean exists() {
        return !liveEntries("exists").isEmpty();
    }

    @Override
    public UV getValue(UK key) {
        byte[] stored = keys.store.get(entryKey("getValue", key));
        if (stored == null || !ttl.isLive(ValueCodec.expiry(stored))) {
            return null;
        }
        return valueDeserializer.deserialize(name, ValueCodec.payload(stored));
    }

    @Override
    public boolean containsKey(UK key) {
        byte[] stored = keys.store.get(entryKey("containsKey", key));
        return stored != null && ttl.isLive(ValueCodec.expiry(stored));
    }

    @Override
    public void updateValue(UK key, UV value) {
        Bytes k = entryKey("updateValue", key);
        if (value == null) {
            throw new NullValueException(name);
        }
        long expiry = ttl.expiryOfWrite();
        keys.store.put(k, ValueCodec.encode(valueSerializer.serialize(name, value), expiry));
        ttl.written(k, expiry);
    }

    @Override
    public Iterator<Map.Entry<UK, UV>> iterator() {
        List<Map.Entry<UK, UV>> out = new ArrayList<>();
        for (KeyValue<byte[], byte[]> kv : liveEntries("iterator")) {
            out.add(new AbstractMap.SimpleImmutableEntry<>(
                    keyDeserializer.deserialize(name, kv.key),
                    valueDeserializer.deserialize(name, ValueCodec.payload(kv.value))));
        }
        return out.iterator();
    }

    @Override
    public Iterator<UK> keys() {
        List<UK> out = new ArrayList<>();
        for (KeyValue<byte[], byte[]> kv : liveEntries("keys")) {
            out.add(keyDeserializer.deserialize(name, kv.key));
        }
        return out.iterator();
    }

    @Override
    public Iterator<UV> values() {
        List<UV> out = new ArrayList<>();
        for (KeyValue<byte[], byte[]> kv : liveEntries("values")) {
            out.add(valueDeserializer.deserialize(name, ValueCodec.payload(kv.value)));
        }
        return out.iterator();
    }

    @Override
    public void removeKey(UK key) {
        keys.store.delete(entryKey("removeKey", key));
    }

    @Override
    public void clear() {
        keys.deletePrefix(groupPrefix("clear"));
    }

    @Override
    public int removeExpired(byte[] primaryKey, long now) {
        return ValueCodec.removeIfExpired(keys.store, primaryKey, now);
    }
}
