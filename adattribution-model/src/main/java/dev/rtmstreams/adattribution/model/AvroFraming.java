package dev.rtmstreams.adattribution.model;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The framing both wire formats share: a format header, then Avro's binary datum. Keeps one output buffer, encoder
 * and decoder per thread (Avro's are not thread-safe), so a record costs one copy to encode and none to decode. Also
 * the schema rules both formats share: which classes they serve and which writer schemas they can read.
 */
final class AvroFraming {

    private final ThreadLocal<Buffers> buffers = ThreadLocal.withInitial(Buffers::new);

    /**
     * @return {@code header} followed by {@code record} in Avro's binary encoding
     * @throws SerializationException if the record cannot be written (e.g. a required field is null)
     */
    <T> byte[] encode(byte[] header, DatumWriter<T> writer, T record, Class<?> type) {
        try {
            Buffers b = buffers.get();
            b.out.reset();
            b.out.write(header);
            b.encoder = EncoderFactory.get().directBinaryEncoder(b.out, b.encoder);
            writer.write(record, b.encoder);
            b.encoder.flush();
            return b.out.toByteArray();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot encode " + type.getName() + ": " + e.getMessage(), e);
        }
    }

    /** @return the datum after the first {@code headerLength} bytes of {@code payload}, read with {@code reader} */
    <T> T decode(DatumReader<T> reader, byte[] payload, int headerLength) throws IOException {
        Buffers b = buffers.get();
        b.decoder = DecoderFactory.get().binaryDecoder(payload, headerLength, payload.length - headerLength, b.decoder);
        return reader.read(null, b.decoder);
    }

    /**
     * @return the current schema of an Avro-generated record class
     * @throws IllegalArgumentException if {@code type} is not an Avro-generated record class
     */
    static Schema recordSchema(Class<?> type) {
        Schema schema;
        try {
            schema = SpecificData.getForClass(type).getSchema(type);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not an Avro-generated record class: " + type.getName(), e);
        }
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("not an Avro-generated record class: " + type.getName());
        }
        return schema;
    }

    /** @return whether datums written with {@code writer} resolve into {@code reader} by Avro's schema resolution */
    static boolean canRead(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer)
                        .getType()
                == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    private static final class Buffers {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder;
        BinaryDecoder decoder;
    }
}
