package dev.rtmstreams.processor;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * An evolvable serde for the core's own tests (the core has no Avro): String values as UTF-8 in schema {@code v<N>};
 * a value written with an earlier schema reads as {@code <writer schema>:<value>}, one of its own schema as itself; a
 * newer writer schema cannot be read.
 */
final class VersionedTextSerde implements EvolvableSerde<String> {

    private final int version;

    VersionedTextSerde(int version) {
        this.version = version;
    }

    @Override
    public String format() {
        return "text";
    }

    @Override
    public String schema() {
        return "v" + version;
    }

    @Override
    public String incompatibilityWith(String writerSchema) {
        int writer = Integer.parseInt(writerSchema.substring(1));
        return writer > version ? "a v" + version + " reader cannot read " + writerSchema : null;
    }

    @Override
    public String deserialize(byte[] data, String writerSchema) {
        if (data == null) {
            return null;
        }
        String text = new String(data, StandardCharsets.UTF_8);
        return writerSchema.equals(schema()) ? text : writerSchema + ":" + text;
    }

    @Override
    public Object deserializeAsWritten(byte[] data, String writerSchema) {
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }

    @Override
    public Serializer<String> serializer() {
        return (topic, v) -> v == null ? null : v.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Deserializer<String> deserializer() {
        return (topic, b) -> b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
