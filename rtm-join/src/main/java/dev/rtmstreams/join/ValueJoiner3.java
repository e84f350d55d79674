package dev.rtmstreams.join;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Combines the key and the two joined values of an {@link IntervalJoin} into one output value.
 *
 * @param <K> key type
 * @param <L> left value type
 * @param <R> right value type
 * @param <VR> output value type
 */
@FunctionalInterface
@InterfaceStability.Evolving
public interface ValueJoiner3<K, L, R, VR> {

    /**
     * @param key the join key, never null
     * @param left the left value; {@code null} only for an unmatched right row of a right or full outer join
     * @param right the right value; {@code null} only for an unmatched left row of a left or full outer join
     * @return the output value; a {@code null} result is forwarded as a record with a null value
     */
    VR apply(K key, L left, R right);
}
