package dev.rtmstreams.adattribution.model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * A Kafka {@link Serde} for an Avro-generated record class (the {@link WireFormat#SINGLE_OBJECT} wire format), using Avro's
 * <a href="https://avro.apache.org/docs/1.12.0/specification/#single-object-encoding">single-object
 * encoding</a>: {@code C3 01}, the 8-byte CRC-64-AVRO fingerprint of the writer schema, then the
 * binary datum. No schema registry is needed.
 *
 * <p>Writing always uses the class's current schema. Reading resolves the writer schema by its
 * fingerprint: the current schema, any older (or newer) writer schema registered with
 * {@link Builder#writerSchema(Schema)}, then an optional external {@link SchemaStore}; the datum is
 * then resolved to the current schema by Avro's schema-resolution rules (added fields take their
 * defaults, removed fields are skipped).
 *
 * <pre>{@code
 * AvroSerde<Click> clicks = AvroSerde.of(Click.class);
 * KStream<String, Click> stream = builder.stream("ad-clicks", Consumed.with(Serdes.String(), clicks));
 * }</pre>
 *
 * <p>Nulls: a null record serializes to null and null bytes deserialize to null (tombstones).
 * Undecodable bytes raise {@link AvroDecodeException} with a {@link AvroDecodeException.Reason}.
 *
 * <p>Thread-safe: one instance may be shared by all stream threads. {@code configure} and
 * {@code close} do nothing.
 *
 * @param <T> the generated record type
 */
public final class AvroSerde<T extends SpecificRecord> extends FramedAvroSerde<T> {

    private static final byte MAGIC_0 = (byte) 0xC3;
    private static final byte MAGIC_1 = (byte) 0x01;
    private static final int HEADER_LENGTH = 10;

    private final long readerFingerprint;
    /** The single-object header of the current schema: magic bytes and fingerprint (little-endian). */
    private final byte[] header;
    /** Reads datums written with the current schema (the common case: no resolution). Thread-safe. */
    private final SpecificDatumReader<T> currentReader;

    private final BinaryMessageDecoder<T> decoder;
    private final SchemaStore resolver;
    private final Map<Long, Boolean> compatibleByFingerprint = new ConcurrentHashMap<>();

    private AvroSerde(Builder<T> builder) {
        super(builder.type);
        SpecificData model = model();
        Schema schema = schema();
        this.readerFingerprint = SchemaNormalization.parsingFingerprint64(schema);
        SchemaStore.Cache own = new SchemaStore.Cache();
        own.addSchema(schema);
        builder.writerSchemas.forEach(own::addSchema);
        SchemaStore external = builder.schemaStore;
        this.resolver = fingerprint -> {
            Schema found = own.findByFingerprint(fingerprint);
            return found != null || external == null ? found : external.findByFingerprint(fingerprint);
        };
        this.header = ByteBuffer.allocate(HEADER_LENGTH)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(MAGIC_0)
                .put(MAGIC_1)
                .putLong(readerFingerprint)
                .array();
        this.currentReader = new SpecificDatumReader<>(schema, schema, model);
        this.decoder = new BinaryMessageDecoder<>(model, schema, resolver);
    }

    /**
     * Returns a serde for a generated class that reads payloads written with its current schema.
     *
     * @param type the generated class, e.g. {@code Click.class}; not null
     * @param <T> the record type
     * @return a new serde
     * @throws IllegalArgumentException if {@code type} is not an Avro-generated specific record
     */
    public static <T extends SpecificRecord> AvroSerde<T> of(Class<T> type) {
        return builder(type).build();
    }

    /**
     * Returns a builder, to register other writer schemas or an external schema store.
     *
     * @param type the generated class; not null
     * @param <T> the record type
     * @return a new builder
     */
    public static <T extends SpecificRecord> Builder<T> builder(Class<T> type) {
        return new Builder<>(Objects.requireNonNull(type, "type"));
    }

    @Override
    byte[] header() {
        return header;
    }

    @Override
    T decodeFramed(String topic, byte[] payload) {
        if (payload.length < HEADER_LENGTH || payload[0] != MAGIC_0 || payload[1] != MAGIC_1) {
            throw error(AvroDecodeException.Reason.BAD_HEADER, topic, null, payload, null);
        }
        long fingerprint =
                ByteBuffer.wrap(payload, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        if (fingerprint != readerFingerprint) {
            String hex = hex(fingerprint);
            Schema writer = resolver.findByFingerprint(fingerprint);
            if (writer == null) {
                throw error(AvroDecodeException.Reason.UNKNOWN_SCHEMA, topic, hex, payload, null);
            }
            if (!compatibleByFingerprint.computeIfAbsent(fingerprint, fp -> AvroFraming.canRead(schema(), writer))) {
                throw error(AvroDecodeException.Reason.INCOMPATIBLE_SCHEMA, topic, hex, payload, null);
            }
        }
        try {
            if (fingerprint == readerFingerprint) {
                // Written with the current schema: read the datum directly (no schema lookup by a boxed fingerprint, no
                // stream around the array), with a per-thread reused decoder.
                return readDatum(currentReader, payload, HEADER_LENGTH);
            }
            return decoder.decode(payload);
        } catch (BadHeaderException e) {
            throw error(AvroDecodeException.Reason.BAD_HEADER, topic, null, payload, e);
        } catch (MissingSchemaException e) {
            throw error(AvroDecodeException.Reason.UNKNOWN_SCHEMA, topic, hex(fingerprint), payload, e);
        } catch (IOException | RuntimeException e) {
            throw error(AvroDecodeException.Reason.MALFORMED_PAYLOAD, topic, hex(fingerprint), payload, e);
        }
    }

    /** Formats a fingerprint for an error (only there: formatting per record costs more than the decode's header). */
    private static String hex(long fingerprint) {
        return String.format("%016x", fingerprint);
    }

    private AvroDecodeException error(
            AvroDecodeException.Reason reason, String topic, String fingerprint, byte[] payload, Throwable cause) {
        return new AvroDecodeException(reason, type().getName(), topic, fingerprint, payload.length, cause);
    }

    /**
     * Returns the writer-schema fingerprint in a payload's single-object header.
     *
     * @param payload the bytes; may be null
     * @return the fingerprint, or empty if the payload has no valid header
     */
    public static Optional<Long> fingerprintOf(byte[] payload) {
        if (payload == null || payload.length < HEADER_LENGTH || payload[0] != MAGIC_0 || payload[1] != MAGIC_1) {
            return Optional.empty();
        }
        return Optional.of(
                ByteBuffer.wrap(payload, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong());
    }

    @Override
    public String toString() {
        return "AvroSerde[" + type().getName() + "]";
    }

    /**
     * Builds an {@link AvroSerde}. Not thread-safe.
     *
     * @param <T> the record type
     */
    public static final class Builder<T extends SpecificRecord> {
        private final Class<T> type;
        private final List<Schema> writerSchemas = new ArrayList<>();
        private SchemaStore schemaStore;

        private Builder(Class<T> type) {
            this.type = type;
        }

        /**
         * Registers another schema that payloads may have been written with (an older or newer
         * version of the record). Payloads written with it resolve to the current schema.
         *
         * @param writerSchema a record schema with the same full name as the class; not null
         * @return this builder
         */
        public Builder<T> writerSchema(Schema writerSchema) {
            writerSchemas.add(Objects.requireNonNull(writerSchema, "writerSchema"));
            return this;
        }

        /**
         * Sets a store consulted for fingerprints not registered here (e.g. a shared
         * {@link SchemaStore.Cache} holding every historical schema).
         *
         * @param store the store; not null
         * @return this builder
         */
        public Builder<T> schemaStore(SchemaStore store) {
            this.schemaStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Validates and builds the serde.
         *
         * @return the serde
         * @throws IllegalArgumentException if the class is not an Avro-generated record, or a writer
         *     schema is not a record of the same full name
         */
        public AvroSerde<T> build() {
            Schema current = AvroFraming.recordSchema(type);
            for (Schema writer : writerSchemas) {
                if (writer.getType() != Schema.Type.RECORD
                        || !writer.getFullName().equals(current.getFullName())) {
                    throw new IllegalArgumentException("writer schema must be a record named " + current.getFullName()
                            + ": " + writer.getFullName());
                }
            }
            return new AvroSerde<>(this);
        }
    }
}
