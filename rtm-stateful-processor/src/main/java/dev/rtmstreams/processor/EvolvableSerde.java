package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Serde;

/**
 * A state serde with a schema that can read bytes written with an earlier schema: the opt-in evolvable state encoding
 * (Spark's {@code spark.sql.streaming.stateStore.encodingFormat=avro} for transformWithState). Pass one wherever
 * {@link StatefulProcessorHandle} takes a value, list element or map value serde; the operator then
 *
 * <ul>
 *   <li>records every schema the variable was ever declared with in its operator metadata (schema id = position in
 *       that list, kept across restarts);
 *   <li>prefixes every stored value with the 2-byte id of the schema it was written with;
 *   <li>checks at restart, before any record, that the new {@link #schema()} can read every recorded schema
 *       ({@link #incompatibilityWith}), else refuses to start with {@code STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION};
 *   <li>reads a value written with an earlier schema through {@link #deserialize(byte[], String)} (lazily, when it
 *       is read) and writes it back in the current schema on its next update.
 * </ul>
 *
 * As a map state's user-key serde it records the key schema but adds no prefix: stored keys must keep their bytes,
 * so a changed key schema fails the restart with {@code STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE}. Switching a variable
 * between a plain serde and an evolvable one fails with {@code STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE}.
 *
 * <p>{@link #serializer()} and {@link #deserializer()} write and read the bare payload in the current schema. The Avro
 * implementation is {@code dev.rtmstreams.processor.avro.AvroStateSerde} (module {@code rtm-state-avro}):
 *
 * <pre>{@code
 * ValueState<Visit> last = getHandle().getValueState("last", AvroStateSerde.reflect(Visit.class), TtlConfig.NONE);
 * }</pre>
 *
 * @param <T> the type of values
 */
@InterfaceStability.Evolving
public interface EvolvableSerde<T> extends Serde<T> {

    /**
     * @return the encoding's name (e.g. {@code avro}); a variable keeps one encoding for its life, as its serde
     *     fingerprint is {@code evolvable:<format>}
     */
    String format();

    /**
     * @return the schema this serde writes, and reads older data into, as text (for Avro its JSON); two serdes with
     *     the same text write the same bytes for the same value. Never null.
     */
    String schema();

    /**
     * Whether data written with {@code writerSchema} can be read into {@link #schema()} (for Avro its schema
     * resolution: widening, added fields with defaults, removed and reordered fields).
     *
     * @param writerSchema a schema this variable was declared with earlier, as {@link #schema()} returned it
     * @return null when it can be read, else what cannot be read (the field and the two types), for the error
     */
    String incompatibilityWith(String writerSchema);

    /**
     * @param data a payload written with {@code writerSchema}
     * @param writerSchema the schema it was written with, for which {@link #incompatibilityWith} returned null
     * @return the value in the current schema; null only when {@code data} is null
     */
    T deserialize(byte[] data, String writerSchema);

    /**
     * Reads a payload as it was written, without resolving it to the current schema (the state reader's raw mode).
     *
     * @param data a payload written with {@code writerSchema}
     * @param writerSchema the schema it was written with
     * @return the value in its writer schema (for Avro a generic record or datum); null only when {@code data} is null
     */
    Object deserializeAsWritten(byte[] data, String writerSchema);
}
