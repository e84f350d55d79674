package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ValueState;
import dev.rtmstreams.processor.errors.NullValueException;
import java.util.Optional;
import java.util.function.LongPredicate;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;

/**
 * Value state on the operator store. Key {@code statePrefix + [keyLen][groupingKey]}; value per {@link ValueCodec}.
 * Plain: every update stores {@link #NEVER} as the expiry and every stored value is read; with time to live it is
 * wrapped in a {@link TtlValueState}, which uses the package-private operations with an expiry and a live filter.
 */
final class ValueStateImpl<T> extends StoredStateVariable implements ValueState<T> {

    private final Serializer<T> serializer;
    private final Deserializer<T> deserializer;

    // cache of the full key of the last grouping key (hot path: get + update on the same key)
    private byte[] cachedSuffix;
    private Bytes cachedKey;

    ValueStateImpl(KeyContext keys, String name, Serde<T> serde) {
        super(keys, name);
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

    /** @return the stored value of the current key when {@code live} accepts its expiry, else null */
    private byte[] stored(String op, LongPredicate live) {
        byte[] stored = keys.store.get(key(op));
        if (stored == null || !live.test(ValueCodec.expiry(stored))) {
            return null;
        }
        return stored;
    }

    boolean exists(LongPredicate live) {
        return stored("exists", live) != null;
    }

    T get(LongPredicate live) {
        byte[] stored = stored("get", live);
        return stored == null ? null : deserializer.deserialize(name, ValueCodec.payload(stored));
    }

    Optional<T> getOption(LongPredicate live) {
        byte[] stored = stored("getOption", live);
        return stored == null
                ? Optional.empty()
                : Optional.ofNullable(deserializer.deserialize(name, ValueCodec.payload(stored)));
    }

    /**
     * Stores {@code newValue} for the current key with {@code expiry}.
     *
     * @return the key written
     */
    Bytes update(T newValue, long expiry) {
        Bytes k = key("update");
        if (newValue == null) {
            throw new NullValueException(name);
        }
        keys.store.put(k, ValueCodec.encode(serializer.serialize(name, newValue), expiry));
        return k;
    }

    @Override
    public boolean exists() {
        return exists(ALL);
    }

    @Override
    public T get() {
        return get(ALL);
    }

    @Override
    public Optional<T> getOption() {
        return getOption(ALL);
    }

    @Override
    public void update(T newValue) {
        update(newValue, NEVER);
    }

    @Override
    public void clear() {
        keys.store.delete(key("clear"));
    }
}
