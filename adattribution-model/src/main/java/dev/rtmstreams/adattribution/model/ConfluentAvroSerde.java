package dev.rtmstreams.adattribution.model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;

/**
 * A Kafka serde for an Avro-generated record class in Confluent's wire format ({@link WireFormat#CONFLUENT}), with
 * schemas kept in a Schema Registry:
 *
 * <pre>
 *  byte 0      magic byte 0x00
 *  bytes 1..4  schema id, 4-byte big-endian int, as registered in the registry
 *  bytes 5..   Avro binary datum written with that schema
 * </pre>
 *
 * <p>Writing uses the class's current schema, registered under the serde's subject on first use (the registry answers
 * the existing id when it is already registered; it refuses a schema that breaks the subject's compatibility rule,
 * and the encode then throws {@link SchemaRegistryException}). Reading looks the writer schema up by id (once per id:
 * {@link SchemaRegistryClient} caches) and resolves the datum into the current schema by Avro's schema-resolution
 * rules, so a record written with an older (or newer) compatible version reads as the current class.
 *
 * <p>Undecodable bytes raise {@link AvroDecodeException}: {@code BAD_HEADER} (no magic byte 0 or shorter than 5
 * bytes), {@code UNKNOWN_SCHEMA} (the registry does not know the id), {@code INCOMPATIBLE_SCHEMA} (the writer schema
 * cannot be resolved into the current one), {@code MALFORMED_PAYLOAD}. A registry that cannot be reached raises
 * {@link SchemaRegistryException} instead: that says nothing about the record.
 *
 * <p>Thread-safe; {@code configure} and {@code close} do nothing.
 *
 * @param <T> the generated record type
 */
public final class ConfluentAvroSerde<T extends SpecificRecord> extends FramedAvroSerde<T> {

    private static final byte MAGIC = 0;
    private static final int HEADER_LENGTH = 5;

    private final String subject;
    private final SchemaRegistryClient registry;
    /** Readers by writer schema id; an incompatible writer schema maps to {@link #INCOMPATIBLE}. */
    private final Map<Integer, SpecificDatumReader<T>> readers = new ConcurrentHashMap<>();

    private volatile byte[] writerHeader;
    /** The id of the current schema under the subject; -1 until registered. */
    private volatile int writerId = -1;

    @SuppressWarnings("rawtypes")
    private static final SpecificDatumReader INCOMPATIBLE = new SpecificDatumReader<>();

    private ConfluentAvroSerde(Class<T> type, String subject, SchemaRegistryClient registry) {
        super(type);
        this.subject = subject;
        this.registry = registry;
    }

    /**
     * Returns a serde for a generated class whose schema lives under {@code subject}.
     *
     * @param type the generated class; not null
     * @param subject the registry subject, by Confluent's default naming {@code <topic>-value}; not blank
     * @param registry the registry; not null
     * @param <T> the record type
     * @return a new serde
     * @throws IllegalArgumentException if {@code type} is not an Avro-generated record or the subject is blank
     */
    public static <T extends SpecificRecord> ConfluentAvroSerde<T> of(
            Class<T> type, String subject, SchemaRegistryClient registry) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(registry, "registry");
        if (subject == null || subject.isBlank()) {
            throw new IllegalArgumentException("subject must not be blank: '" + subject + "'");
        }
        return new ConfluentAvroSerde<>(type, subject, registry);
    }

    /** @return the registry subject the current schema is registered under */
    public String subject() {
        return subject;
    }

    @Override
    byte[] header() {
        int id = writerId;
        if (id < 0) {
            id = registry.register(subject, schema());
            writerId = id;
        }
        byte[] header = writerHeader;
        if (header == null) { // the registry gives one id per schema and subject: the header never changes
            header = ByteBuffer.allocate(HEADER_LENGTH).put(MAGIC).putInt(id).array();
            writerHeader = header;
        }
        return header;
    }

    @Override
    T decodeFramed(String topic, byte[] payload) {
        if (payload.length < HEADER_LENGTH || payload[0] != MAGIC) {
            throw new AvroDecodeException(
                    AvroDecodeException.Reason.BAD_HEADER, type().getName(), topic, null, payload.length, null);
        }
        int id = ByteBuffer.wrap(payload, 1, 4).getInt();
        SpecificDatumReader<T> reader = readers.get(id);
        if (reader == null) {
            reader = readerFor(topic, id, payload.length);
        }
        if (reader == INCOMPATIBLE) {
            throw error(AvroDecodeException.Reason.INCOMPATIBLE_SCHEMA, topic, id, payload, null);
        }
        try {
            return readDatum(reader, payload, HEADER_LENGTH);
        } catch (IOException | RuntimeException e) {
            throw error(AvroDecodeException.Reason.MALFORMED_PAYLOAD, topic, id, payload, e);
        }
    }

    @SuppressWarnings("unchecked")
    private SpecificDatumReader<T> readerFor(String topic, int id, int payloadSize) {
        Schema writerSchema;
        try {
            writerSchema = registry.schemaById(id);
        } catch (SchemaRegistryException e) {
            if (e.isNotFound()) {
                throw new AvroDecodeException(
                        AvroDecodeException.Reason.UNKNOWN_SCHEMA, type().getName(), topic, id, payloadSize, e);
            }
            throw e;
        }
        SpecificDatumReader<T> reader;
        if (writerSchema.getType() != Schema.Type.RECORD || !AvroFraming.canRead(schema(), writerSchema)) {
            reader = INCOMPATIBLE;
        } else {
            // Avro's resolving reader: fields the writer lacks take the reader's defaults, fields the reader lacks
            // are skipped (Avro specification, "Schema Resolution").
            reader = new SpecificDatumReader<>(writerSchema, schema(), model());
        }
        SpecificDatumReader<T> raced = readers.putIfAbsent(id, reader);
        return raced == null ? reader : raced;
    }

    private AvroDecodeException error(
            AvroDecodeException.Reason reason, String topic, int id, byte[] payload, Throwable cause) {
        return new AvroDecodeException(reason, type().getName(), topic, id, payload.length, cause);
    }

    /**
     * Returns the schema id in a payload's Confluent header.
     *
     * @param payload the bytes; may be null
     * @return the id, or -1 if the payload has no valid header
     */
    public static int schemaIdOf(byte[] payload) {
        if (payload == null || payload.length < HEADER_LENGTH || payload[0] != MAGIC) {
            return -1;
        }
        return ByteBuffer.wrap(payload, 1, 4).getInt();
    }

    @Override
    public String toString() {
        return "ConfluentAvroSerde[" + type().getName() + ", subject=" + subject + ", " + registry + "]";
    }
}
