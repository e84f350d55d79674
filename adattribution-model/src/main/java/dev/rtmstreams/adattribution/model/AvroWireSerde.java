package dev.rtmstreams.adattribution.model;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * A {@link Serde} of one Avro-generated record type in one wire format: what the service and the
 * load generator see, so neither cares whether payloads carry Avro's single-object header
 * ({@link AvroSerde}) or Confluent's framing ({@link ConfluentAvroSerde}). Get one from
 * {@link AvroWire#serde(Class, String)}.
 *
 * <p>Nulls: a null record encodes to null and null bytes decode to null (tombstones). Implementations
 * are thread-safe.
 *
 * @param <T> the generated record type
 */
public interface AvroWireSerde<T extends SpecificRecord> extends Serde<T> {

    /** @return the generated class this serde reads and writes; never null */
    Class<T> type();

    /** @return the current (reader and writer) schema of the class; never null */
    Schema schema();

    /**
     * Encodes a record with the current schema.
     *
     * @param record the record; null gives null
     * @return the framed bytes, or null for a null record
     * @throws org.apache.kafka.common.errors.SerializationException if the record cannot be written
     * @throws SchemaRegistryException if the format needs a registry and it cannot be reached or refuses the schema
     */
    byte[] encode(T record);

    /**
     * Decodes framed bytes, resolving the writer schema into the current schema.
     *
     * @param payload the bytes; null gives null
     * @return the record, or null for null bytes
     * @throws AvroDecodeException if the bytes cannot be decoded (bad header, unknown or incompatible writer
     *     schema, malformed body); its reason says why
     * @throws SchemaRegistryException if the format needs a registry and it cannot be reached (not a property of
     *     the payload: the record should be retried, not dead-lettered)
     */
    T decode(byte[] payload);
}
