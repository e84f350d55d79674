package dev.rtmstreams.processor;

import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A map per grouping key, as in Spark's {@code MapState}. With TTL each entry has its own expiry, reset by
 * {@link #updateValue}. Expired entries are never returned.
 *
 * @param <K> user key type (never null)
 * @param <V> value type (never null)
 */
@InterfaceStability.Stable
public interface MapState<K, V> {

    /** @return true when at least one non-expired entry exists for the current grouping key */
    boolean exists();

    /** @return the value for {@code key}, or null when absent or expired */
    V getValue(K key);

    /** @return true when {@code key} has a non-expired value */
    boolean containsKey(K key);

    /**
     * Sets the value of {@code key} (and, with TTL, its expiry to now + ttl).
     *
     * @throws RtmException with code {@code ILLEGAL_STATE_STORE_VALUE.NULL_VALUE} when {@code key} or {@code value} is null
     */
    void updateValue(K key, V value);

    /** @return the non-expired entries, ordered by the serialized user key */
    Iterator<Map.Entry<K, V>> iterator();

    /** @return the non-expired user keys */
    Iterator<K> keys();

    /** @return the non-expired values */
    Iterator<V> values();

    /** Removes {@code key}; does nothing when absent. */
    void removeKey(K key);

    /** Removes every entry of the current grouping key. */
    void clear();
}
