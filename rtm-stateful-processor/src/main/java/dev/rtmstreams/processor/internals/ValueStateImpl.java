package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ValueState;
import dev.rtmstreams.processor.errors.NullValueException;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;

/**
 * Value state on the operator store. Key {@code statePrefix + [keyLen][groupingKey]}; value per {@link ValueCodec}.
 * Expiry is the {@link TtlLayer}'s: every update stores the expiry it gives, and a value it no longer calls live reads
 * as absent at once.
 */
final class ValueStateImpl<T> extends StoredStateVariable implements ValueState<T> {

    private final Serializer<T> serializer;
    private final Deserializer<T> deserializer;

    // cache of the full key of the last grouping key (hot path: get + update on the same key)
    private byte[] cachedSuffix;
    private Bytes cachedKey;

    ValueStateImpl(KeyContext keys, String name, Serde<T> serde, TtlLayer ttl) {
        super(keys, name, ttl);
        this.serializer = serde.serializer();
        this.deserializer = serde.deserializer();
    }

    private Bytes key(String op) {
        byte[] suffix = keys.keySuffix(op, name);
        if (suffix != cachedSuffix) {
            cachedSuffix = suffix;
            cachedKey = Bytes.wrap(Layout.concat(prefix, suffix));
        }
        return cachedKey;
    }

    private byte[] liveStored(String op) {
        byte[] stored = keys.store.get(key(op));
        if (stored == null || !ttl.isLive(ValueCodec.expiry(stored))) {
            return null;
        }
        return stored;
    }

    @Override
    public boolean exists() {
        return liveStored("exists") != null;
    }

    @Override
    public T get() {
        byte[] stored = liveStored("get");
        return stored == null ? null : deserializer.deserialize(name, ValueCodec.payload(stored));
    }

    @Override
    public Optional<T> getOption() {
        byte[] stored = liveStored("getOption");
        return stored == null
                ? Optional.empty()
                : Optional.ofNullable(deserializer.deserialize(name, ValueCodec.payload(stored)));
    }

    @Override
    public void update(T newValue) {
        Bytes k = key("update");
        if (newValue == null) {
            throw new NullValueException(name);
        }
        long expiry = ttl.expiryOfWrite();
        keys.store.put(k, ValueCodec.encode(serializer.serialize(name, newValue), expiry));
        ttl.written(k, expiry);
    }

    @Override
    public void clear() {
        keys.store.delete(key("clear"));
    }

    @Override
    public int removeExpired(byte[] primaryKey, long now) {
        return ValueCodec.removeIfExpired(keys.store, primaryKey, now);
    }
}
