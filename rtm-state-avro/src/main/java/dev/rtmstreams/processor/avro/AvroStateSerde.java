package dev.rtmstreams.processor.avro;

import dev.rtmstreams.processor.EvolvableSerde;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The Avro state encoding (Spark's {@code spark.sql.streaming.stateStore.encodingFormat=avro}): an
 * {@link EvolvableSerde} that writes Avro binary in its schema and reads values written with an earlier schema
 * through Avro's schema resolution, so that a state variable's value type may change across restarts:
 *
 * <ul>
 *   <li>allowed: widening a field ({@code int} to {@code long}, {@code float} or {@code double}; {@code long} to
 *       {@code float} or {@code double}; {@code float} to {@code double}; {@code string} and {@code bytes} either
 *       way), adding a field with a default, removing a field, reordering fields, adding an enum symbol read by a
 *       reader with a default, making a field a union that holds its type;
 *   <li>refused at restart with {@code STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION}: any change Avro's
 *       {@link SchemaCompatibility} cannot resolve (narrowing, an incompatible type, a field added without a default,
 *       a renamed record without an alias).
 * </ul>
 *
 * Three ways to build one, by the value type:
 *
 * <pre>{@code
 * AvroStateSerde<Visit> s1 = AvroStateSerde.specific(Visit.class);       // a class generated from a schema
 * AvroStateSerde<GenericRecord> s2 = AvroStateSerde.generic(schema);     // generic records (or datums)
 * AvroStateSerde<Session> s3 = AvroStateSerde.reflect(Session.class);    // a Java record or POJO via Avro reflect
 *
 * ValueState<Visit> last = getHandle().getValueState("last", AvroStateSerde.specific(Visit.class), TtlConfig.NONE);
 * }</pre>
 *
 * With {@link #reflect}, a field added to a class needs {@code @org.apache.avro.reflect.AvroDefault} to read older
 * values. Generic strings read as {@link org.apache.avro.util.Utf8} unless the schema says
 * {@code "avro.java.string": "String"}. Instances are immutable and thread-safe.
 *
 * @param <T> the type of values
 */
@InterfaceStability.Evolving
public final class AvroStateSerde<T> implements EvolvableSerde<T> {

    /** The value of {@link #format()}. */
    public static final String FORMAT = "avro";

    private final Schema schema;
    private final String schemaText;
    private final GenericData model;
    private final DatumWriter<T> writer;
    private final DatumReader<T> currentReader;
    private final Map<String, DatumReader<T>> resolvingReaders = new ConcurrentHashMap<>();
    private final Map<String, DatumReader<Object>> writerReaders = new ConcurrentHashMap<>();
    private final Map<String, Schema> parsed = new ConcurrentHashMap<>();
    /** Java records: read as generic records, then built with their canonical constructor; else null. */
    private final Class<T> javaRecord;

    private AvroStateSerde(Schema schema, GenericData model) {
        this(schema, model, null);
    }

    @SuppressWarnings("unchecked")
    private AvroStateSerde(Schema schema, GenericData model, Class<T> javaRecord) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.schemaText = schema.toString();
        this.model = model;
        this.javaRecord = javaRecord;
        this.writer = (DatumWriter<T>) model.createDatumWriter(schema);
        this.currentReader = resolvingReader(schema);
    }

    /**
     * @param recordClass a class generated from an Avro schema (avro-maven-plugin, {@code avro-tools})
     * @param <T> its type
     * @return a serde of {@code recordClass}, in its {@code SCHEMA$}
     * @throws IllegalArgumentException naming the class when it has no Avro schema
     */
    public static <T extends SpecificRecord> AvroStateSerde<T> specific(Class<T> recordClass) {
        Objects.requireNonNull(recordClass, "recordClass");
        SpecificData model = SpecificData.getForClass(recordClass);
        Schema s;
        try {
            s = model.getSchema(recordClass);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a generated Avro class (no SCHEMA$): " + recordClass.getName(), e);
        }
        return new AvroStateSerde<>(s, model);
    }

    /**
     * @param schema the schema of the values: a record (values are {@link org.apache.avro.generic.GenericRecord}s) or
     *     any other Avro type (values are its generic datums, e.g. {@link Long} for {@code "long"})
     * @param <T> the type of values
     * @return a serde of generic values in {@code schema}
     */
    public static <T> AvroStateSerde<T> generic(Schema schema) {
        return new AvroStateSerde<>(Objects.requireNonNull(schema, "schema"), GenericData.get());
    }

    /**
     * @param type a Java record or POJO (Avro reflect: its fields by name; {@code @Nullable},
     *     {@code @AvroDefault} and the other {@code org.apache.avro.reflect} annotations apply). A POJO needs a
     *     no-argument constructor; a Java record is built with its canonical constructor from the values read (its
     *     components of strings, numbers, booleans, other records, lists and maps of them)
     * @param <T> its type
     * @return a serde of {@code type}, in the schema Avro reflect derives from it
     * @throws IllegalArgumentException naming the class when Avro reflect cannot derive a schema
     */
    public static <T> AvroStateSerde<T> reflect(Class<T> type) {
        Objects.requireNonNull(type, "type");
        ReflectData model = ReflectData.get();
        Schema s;
        try {
            s = model.getSchema(type);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "Avro reflect cannot derive a schema of " + type.getName() + ": " + e.getMessage(), e);
        }
        return new AvroStateSerde<>(s, model, type.isRecord() ? type : null);
    }

    /** @return the Avro schema of the values written */
    public Schema avroSchema() {
        return schema;
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public String schema() {
        return schemaText;
    }

    /**
     * Avro's schema resolution with this serde's schema as the reader
     * ({@link SchemaCompatibility#checkReaderWriterCompatibility}).
     *
     * @return null when compatible, else each incompatibility as {@code TYPE at /json/pointer: message}, joined by
     *     {@code "; "}
     * @throws IllegalArgumentException when {@code writerSchema} is not an Avro schema
     */
    @Override
    public String incompatibilityWith(String writerSchema) {
        SchemaCompatibility.SchemaPairCompatibility c =
                SchemaCompatibility.checkReaderWriterCompatibility(schema, parse(writerSchema));
        if (c.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return null;
        }
        return c.getResult().getIncompatibilities().stream()
                .map(i -> i.getType() + " at " + i.getLocation() + ": " + i.getMessage())
                .collect(Collectors.joining("; "));
    }

    @Override
    public T deserialize(byte[] data, String writerSchema) {
        if (data == null) {
            return null;
        }
        DatumReader<T> reader = writerSchema.equals(schemaText)
                ? currentReader
                : resolvingReaders.computeIfAbsent(writerSchema, w -> resolvingReader(parse(w)));
        return read(reader, data);
    }

    @Override
    public Object deserializeAsWritten(byte[] data, String writerSchema) {
        if (data == null) {
            return null;
        }
        DatumReader<Object> reader = writerReaders.computeIfAbsent(writerSchema, w -> {
            Schema ws = parse(w);
            return new GenericDatumReader<>(ws, ws, GenericData.get());
        });
        return read(reader, data);
    }

    @SuppressWarnings("unchecked")
    private DatumReader<T> resolvingReader(Schema writerSchema) {
        if (javaRecord == null) {
            return (DatumReader<T>) model.createDatumReader(writerSchema, schema);
        }
        GenericDatumReader<Object> generic = new GenericDatumReader<>(writerSchema, schema, GenericData.get());
        return new DatumReader<>() {
            @Override
            public void setSchema(Schema s) {
                generic.setSchema(s);
            }

            @Override
            public T read(T reuse, org.apache.avro.io.Decoder in) throws IOException {
                return (T) JavaRecords.build(javaRecord, generic.read(null, in));
            }
        };
    }

    private Schema parse(String text) {
        return parsed.computeIfAbsent(text, t -> new Schema.Parser().parse(t));
    }

    private static <V> V read(DatumReader<V> reader, byte[] data) {
        try {
            BinaryDecoder in = DecoderFactory.get().binaryDecoder(data, null);
            return reader.read(null, in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read an Avro state value of " + data.length + " bytes", e);
        }
    }

    private byte[] write(T value) {
        if (value == null) {
            return null;
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            BinaryEncoder out = EncoderFactory.get().binaryEncoder(bytes, null);
            writer.write(value, out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> write(value);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, data) -> data == null ? null : read(currentReader, data);
    }

    @Override
    public String toString() {
        return "AvroStateSerde(" + schemaText + ")";
    }
}
