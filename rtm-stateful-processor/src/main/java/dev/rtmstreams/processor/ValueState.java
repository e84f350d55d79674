package dev.rtmstreams.processor;

import java.util.Optional;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A single value per grouping key, as in Spark's {@code ValueState}. Scoped to the key of the current call.
 * With TTL, {@link #update} resets the expiry; an expired value behaves as absent at once.
 *
 * @param <T> value type; values are never null
 */
@InterfaceStability.Stable
public interface ValueState<T> {

    /** @return true when a non-expired value exists for the current key */
    boolean exists();

    /** @return the value for the current key, or null when there is none (or it expired), as in Spark's Java API */
    T get();

    /** @return the value for the current key, or empty when absent or expired */
    Optional<T> getOption();

    /**
     * Sets the value (and, with TTL, its expiry to now + ttl).
     *
     * @throws RtmException with code {@code ILLEGAL_STATE_STORE_VALUE.NULL_VALUE} when {@code newValue} is null
     */
    void update(T newValue);

    /** Removes the value for the current key. */
    void clear();
}
