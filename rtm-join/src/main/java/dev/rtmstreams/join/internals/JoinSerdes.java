package dev.rtmstreams.join.internals;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The bytes of one join task's rows, as one side processor sees them: keys and each side's values through the
 * join's serdes (with the side's buffer store name as serde "topic"), and the ids of rows of a side with
 * {@code distinctBy}.
 */
final class JoinSerdes<K, L, R> {

    private static final byte[] EMPTY = new byte[0];

    private final Serializer<K> keySerializer;
    private final Deserializer<K> keyDeserializer;
    private final Serializer<L> leftSerializer;
    private final Deserializer<L> leftDeserializer;
    private final Serializer<R> rightSerializer;
    private final Deserializer<R> rightDeserializer;
    /** Serde "topics" (the buffer store names), computed once: JoinSpec builds the names on each call. */
    private final String leftTopic;

    private final String rightTopic;
    /** Per side: the id of a row, for a side with {@code distinctBy}; else null. */
    private final DistinctBy.IdBytes<K, L> leftIds;

    private final DistinctBy.IdBytes<K, R> rightIds;

    JoinSerdes(JoinSpec<K, L, R> spec) {
        this.keySerializer = spec.keySerde().serializer();
        this.keyDeserializer = spec.keySerde().deserializer();
        this.leftSerializer = spec.leftSerde().serializer();
        this.leftDeserializer = spec.leftSerde().deserializer();
        this.rightSerializer = spec.rightSerde().serializer();
        this.rightDeserializer = spec.rightSerde().deserializer();
        this.leftTopic = spec.leftBufferStore();
        this.rightTopic = spec.rightBufferStore();
        this.leftIds =
                spec.leftDistinctBy() == null ? null : spec.leftDistinctBy().idBytes();
        this.rightIds =
                spec.rightDistinctBy() == null ? null : spec.rightDistinctBy().idBytes();
    }

    /** @return the serialized key of a record of a side */
    byte[] serializeKey(boolean left, K key) {
        return keySerializer.serialize(topic(left), key);
    }

    /** @return a key from its serialized bytes (the inverse of {@link #serializeKey}) */
    K deserializeKey(boolean left, byte[] keyBytes) {
        return keyDeserializer.deserialize(topic(left), keyBytes);
    }

    /** @return the serialized value of a record of a side; empty for a serializer that returns null */
    @SuppressWarnings("unchecked")
    byte[] serializeValue(boolean left, Object value) {
        byte[] bytes = left
                ? leftSerializer.serialize(topic(true), (L) value)
                : rightSerializer.serialize(topic(false), (R) value);
        return bytes == null ? EMPTY : bytes;
    }

    /** @return a side's value from its serialized bytes (the inverse of {@link #serializeValue}) */
    Object deserializeValue(boolean left, byte[] bytes) {
        return left ? leftValue(bytes) : rightValue(bytes);
    }

    /** @return a left value from its serialized bytes */
    L leftValue(byte[] bytes) {
        return leftDeserializer.deserialize(topic(true), bytes);
    }

    /** @return a right value from its serialized bytes */
    R rightValue(byte[] bytes) {
        return rightDeserializer.deserialize(topic(false), bytes);
    }

    /** @return the serialized id of a row of a side with {@code distinctBy}, or null for a side without */
    @SuppressWarnings("unchecked")
    byte[] idBytes(boolean left, K key, Object value) {
        if (left) {
            return leftIds == null ? null : leftIds.of(leftTopic, key, (L) value);
        }
        return rightIds == null ? null : rightIds.of(rightTopic, key, (R) value);
    }

    /** @return the serialized id of a buffered row of {@code key} (a side with {@code distinctBy}) */
    byte[] rowIdBytes(boolean left, K key, byte[] row) {
        return idBytes(left, key, deserializeValue(left, Codec.payload(row)));
    }

    /** @return the serialized id of a buffered row, from its serialized key (the index rebuild) */
    byte[] rowIdBytes(boolean left, byte[] keyBytes, byte[] row) {
        return rowIdBytes(left, deserializeKey(left, keyBytes), row);
    }

    private String topic(boolean left) {
        return left ? leftTopic : rightTopic;
    }
}
