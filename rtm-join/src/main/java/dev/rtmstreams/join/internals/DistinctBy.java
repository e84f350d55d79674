package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.Deduplicate;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The id by which an interval join treats rows of one side as copies of each other
 * ({@code IntervalJoin.Builder#leftDistinctBy}, {@code #rightDistinctBy}): an id extractor and the serde whose bytes
 * are compared. Two rows of a side are copies when they have the same key and ids with equal serialized bytes.
 *
 * @param <K> join key type
 * @param <V> the side's value type
 */
public final class DistinctBy<K, V> {

    /** The serialized id of a row. */
    @FunctionalInterface
    interface IdBytes<K, V> {
        /**
         * @param topic the serde "topic" (the side's buffer store name)
         * @param key the row's key
         * @param value the row's value
         * @return the id's bytes, never null
         */
        byte[] of(String topic, K key, V value);
    }

    private final String option;
    private final Factory<K, V> factory;

    private interface Factory<K, V> {
        IdBytes<K, V> create();
    }

    private DistinctBy(String option, Factory<K, V> factory) {
        this.option = option;
        this.factory = factory;
    }

    /**
     * @param option the builder option, for error messages ({@code leftDistinctBy} or {@code rightDistinctBy})
     * @param extractor the id of a row; must not return null
     * @param idSerde serializes ids; equal ids must serialize to equal bytes
     * @return the id definition
     * @throws IllegalArgumentException if an argument is null
     */
    public static <K, V, ID> DistinctBy<K, V> of(
            String option, Deduplicate.IdExtractor<K, V, ID> extractor, Serde<ID> idSerde) {
        Objects.requireNonNull(option, "option");
        if (extractor == null || idSerde == null) {
            throw new IllegalArgumentException(
                    option + " needs an id extractor and an id serde: extractor=" + extractor + ", idSerde=" + idSerde);
        }
        return new DistinctBy<>(option, () -> {
            Serializer<ID> serializer = idSerde.serializer();
            return (topic, key, value) -> {
                ID id = extractor.extract(key, value);
                if (id == null) {
                    throw new IllegalArgumentException(option + ": the id extractor returned null for key " + key);
                }
                byte[] bytes = serializer.serialize(topic, id);
                return bytes == null ? new byte[0] : bytes;
            };
        });
    }

    /** @return the builder option this came from */
    public String option() {
        return option;
    }

    /** @return a function computing a row's id bytes, with its own serializer (one per join core) */
    IdBytes<K, V> idBytes() {
        return factory.create();
    }
}
