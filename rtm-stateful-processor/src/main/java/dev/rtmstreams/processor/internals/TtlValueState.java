package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ValueState;
import java.util.Optional;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Value state with a time to live (Flink's {@code TtlValueState}): wraps a plain {@link ValueStateImpl}, over the
 * same byte layout. A value it no longer calls live reads as absent at once; every update stores a fresh expiry and
 * indexes it for the {@link TtlCleaner}.
 */
final class TtlValueState<T> extends TtlState<ValueStateImpl<T>> implements ValueState<T> {

    TtlValueState(ValueStateImpl<T> plain, long ttlMs) {
        super(plain, ttlMs);
    }

    @Override
    public boolean exists() {
        return plain.exists(this::isLive);
    }

    @Override
    public T get() {
        return plain.get(this::isLive);
    }

    @Override
    public Optional<T> getOption() {
        return plain.getOption(this::isLive);
    }

    @Override
    public void update(T newValue) {
        long expiry = expiryOfWrite();
        written(plain.update(newValue, expiry), expiry);
    }

    @Override
    public void clear() {
        plain.clear();
    }

    /**
     * The cleaner's removal for value state: deletes the value under {@code primaryKey} when it expired at {@code now}.
     *
     * @return 1 when removed, else 0
     */
    static int removeExpired(KeyValueStore<Bytes, byte[]> store, byte[] primaryKey, long now) {
        return ValueCodec.removeIfExpired(store, primaryKey, now);
    }
}
