package dev.rtmstreams.adattribution.model;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * What both wire formats share: the record class and its current schema, a format header before Avro's binary datum
 * (through one {@link AvroFraming}), null for null both ways, and a serializer and deserializer that are
 * {@link #encode} and {@link #decode} (the deserializer with the topic in any {@link AvroDecodeException}). A format
 * says only what its header is and how it reads a framed payload.
 *
 * @param <T> the generated record type
 */
abstract class FramedAvroSerde<T extends SpecificRecord> implements AvroWireSerde<T> {

    private final Class<T> type;
    private final Schema schema;
    private final SpecificData model;
    /** Writes datums with the current schema. Thread-safe. */
    private final SpecificDatumWriter<T> writer;
    /** Per-thread reusable codec buffers (Avro's encoders and decoders are not thread-safe). */
    private final AvroFraming framing = new AvroFraming();

    private final Serializer<T> serializer = (topic, data) -> encode(data);
    private final Deserializer<T> deserializer = this::decode;

    /**
     * @param type the generated class
     * @throws IllegalArgumentException if {@code type} is not an Avro-generated record class
     */
    FramedAvroSerde(Class<T> type) {
        this.type = type;
        this.model = SpecificData.getForClass(type);
        this.schema = AvroFraming.recordSchema(type);
        this.writer = new SpecificDatumWriter<>(schema, model);
    }

    /**
     * Returns the record class.
     *
     * @return the generated class this serde reads and writes
     */
    @Override
    public final Class<T> type() {
        return type;
    }

    /**
     * Returns the current (reader and writer) schema of the record class.
     *
     * @return the schema
     */
    @Override
    public final Schema schema() {
        return schema;
    }

    /** @return the data model of the record class */
    final SpecificData model() {
        return model;
    }

    /**
     * Encodes a record with the current schema, after the format's header.
     *
     * @param record the record; null gives null
     * @return the encoded bytes, or null for a null record
     * @throws SerializationException if the record cannot be written (e.g. a required field is null)
     */
    @Override
    public final byte[] encode(T record) {
        if (record == null) {
            return null;
        }
        return framing.encode(header(), writer, record, type);
    }

    /**
     * Decodes framed bytes, resolving the writer schema by the format's header.
     *
     * @param payload the bytes; null gives null
     * @return the record, or null for null bytes
     * @throws AvroDecodeException if the bytes cannot be decoded; its reason says why
     */
    @Override
    public final T decode(byte[] payload) {
        return decode(null, payload);
    }

    private T decode(String topic, byte[] payload) {
        return payload == null ? null : decodeFramed(topic, payload);
    }

    /** @return the format's header for a record written with the current schema */
    abstract byte[] header();

    /**
     * @param topic the topic the bytes came from, or null
     * @param payload the bytes; not null
     * @return the record
     * @throws AvroDecodeException if the bytes cannot be decoded
     */
    abstract T decodeFramed(String topic, byte[] payload);

    /** @return the datum after the first {@code headerLength} bytes of {@code payload}, read with {@code reader} */
    final T readDatum(DatumReader<T> reader, byte[] payload, int headerLength) throws IOException {
        return framing.decode(reader, payload, headerLength);
    }

    /**
     * Returns the serializer; same as {@link #encode(SpecificRecord)}.
     *
     * @return the serializer; thread-safe
     */
    @Override
    public final Serializer<T> serializer() {
        return serializer;
    }

    /**
     * Returns the deserializer; same as {@link #decode(byte[])} with the topic in any {@link AvroDecodeException}.
     *
     * @return the deserializer; thread-safe
     */
    @Override
    public final Deserializer<T> deserializer() {
        return deserializer;
    }
}
