package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.errors.NullValueException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Map state on the operator store: one entry per (grouping key, user key), key
 * {@code statePrefix + [keyLen][groupingKey] + userKeyBytes}, value per {@link ValueCodec} with a per-entry expiry:
 * {@link #NEVER} when plain; with time to live it is wrapped in a {@link TtlMapState}, which uses the package-private
 * operations with an expiry and a live filter.
 */
final class MapStateImpl<UK, UV> extends StoredStateVariable implements MapState<UK, UV> {

    private final Serializer<UK> keySerializer;
    private final Deserializer<UK> keyDeserializer;
    private final Serializer<UV> valueSerializer;
    private final Deserializer<UV> valueDeserializer;

    MapStateImpl(KeyContext keys, String name, Serde<UK> keySerde, Serde<UV> valueSerde) {
        super(keys, name);
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

    private List<KeyValue<byte[], byte[]>> entries(String op, LongPredicate live) {
        byte[] gp = groupPrefix(op);
        List<KeyValue<byte[], byte[]>> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = keys.store.prefixScan(Bytes.wrap(gp), BytesSer.INSTANCE)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (live.test(ValueCodec.expiry(kv.value))) {
                    byte[] k = kv.key.get();
                    out.add(KeyValue.pair(Arrays.copyOfRange(k, gp.length, k.length), kv.value));
                }
            }
        }
        return out;
    }

    boolean exists(LongPredicate live) {
        return !entries("exists", live).isEmpty();
    }

    UV getValue(UK key, LongPredicate live) {
        byte[] stored = keys.store.get(entryKey("getValue", key));
        if (stored == null || !live.test(ValueCodec.expiry(stored))) {
            return null;
        }
        return valueDeserializer.deserialize(name, ValueCodec.payload(stored));
    }

    boolean containsKey(UK key, LongPredicate live) {
        byte[] stored = keys.store.get(entryKey("containsKey", key));
        return stored != null && live.test(ValueCodec.expiry(stored));
    }

    /**
     * Stores {@code value} under {@code key} with {@code expiry}.
     *
     * @return the key written
     */
    Bytes updateValue(UK key, UV value, long expiry) {
        Bytes k = entryKey("updateValue", key);
        if (value == null) {
            throw new NullValueException(name);
        }
        keys.store.put(k, ValueCodec.encode(valueSerializer.serialize(name, value), expiry));
        return k;
    }

    Iterator<Map.Entry<UK, UV>> iterator(LongPredicate live) {
        List<Map.Entry<UK, UV>> out = new ArrayList<>();
        for (KeyValue<byte[], byte[]> kv : entries("iterator", live)) {
            out.add(new AbstractMap.SimpleImmutableEntry<>(
                    keyDeserializer.deserialize(name, kv.key),
                    valueDeserializer.deserialize(name, ValueCodec.payload(kv.value))));
        }
        return out.iterator();
    }

    Iterator<UK> keys(LongPredicate live) {
        List<UK> out = new ArrayList<>();
        for (KeyValue<byte[], byte[]> kv : entries("keys", live)) {
            out.add(keyDeserializer.deserialize(name, kv.key));
        }
        return out.iterator();
    }

    Iterator<UV> values(LongPredicate live) {
        List<UV> out = new ArrayList<>();
        for (KeyValue<byte[], byte[]> kv : entries("values", live)) {
            out.add(valueDeserializer.deserialize(name, ValueCodec.payload(kv.value)));
        }
        return out.iterator();
    }

    @Override
    public boolean exists() {
        return exists(ALL);
    }

    @Override
    public UV getValue(UK key) {
        return getValue(key, ALL);
    }

    @Override
    public boolean containsKey(UK key) {
        return containsKey(key, ALL);
    }

    @Override
    public void updateValue(UK key, UV value) {
        updateValue(key, value, NEVER);
    }

    @Override
    public Iterator<Map.Entry<UK, UV>> iterator() {
        return iterator(ALL);
    }

    @Override
    public Iterator<UK> keys() {
        return keys(ALL);
    }

    @Override
    public Iterator<UV> values() {
        return values(ALL);
    }

    @Override
    public void removeKey(UK key) {
        keys.store.delete(entryKey("removeKey", key));
    }

    @Override
    public void clear() {
        keys.deletePrefix(groupPrefix("clear"));
    }
}
