package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.EvolvableSerde;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The evolvable state encoding of one variable's values (Spark's Avro state encoding, which prefixes each value row
 * with its schema id): {@code [schema id u16][payload]}, where the id is the position of the writer schema in the
 * variable's recorded schemas ({@link OperatorMetadata.Variable#valueSchemas}). Writes use the current schema; a value
 * of an earlier schema is resolved into the current one when read, and written in the current one on its next update.
 * Bound to the recorded schemas once the restart check passed ({@link #bind}), before any record.
 */
final class SchemaIdSerde<T> implements Serde<T> {

    /** The most schemas a variable can have (the id is an unsigned 16-bit number). */
    static final int MAX_SCHEMAS = 0xFFFF;

    private final String name;
    private final EvolvableSerde<T> serde;
    private final Serializer<T> payloadSerializer;
    private final Deserializer<T> payloadDeserializer;
    private List<String> schemas;
    private int currentId = -1;

    SchemaIdSerde(String name, EvolvableSerde<T> serde) {
        this.name = name;
        this.serde = serde;
        this.payloadSerializer = serde.serializer();
        this.payloadDeserializer = serde.deserializer();
    }

    /** @return the user's serde */
    EvolvableSerde<T> serde() {
        return serde;
    }

    /**
     * @param recorded the variable's schemas as persisted, oldest first; must hold the serde's schema
     * @throws IllegalStateException when it does not, or holds more than {@link #MAX_SCHEMAS}
     */
    void bind(List<String> recorded) {
        int id = recorded.indexOf(serde.schema());
        if (id < 0 || recorded.size() > MAX_SCHEMAS) {
            throw new IllegalStateException("state variable " + name + ": schema " + serde.schema()
                    + " is not among the " + recorded.size() + " recorded schemas (at most " + MAX_SCHEMAS + ")");
        }
        this.schemas = List.copyOf(recorded);
        this.currentId = id;
    }

    /** @return the id of a stored value's writer schema */
    static int schemaId(byte[] stored) {
        return ((stored[0] & 0xFF) << 8) | (stored[1] & 0xFF);
    }

    /** @return the payload of a stored value, after its schema id */
    static byte[] payload(byte[] stored) {
        return java.util.Arrays.copyOfRange(stored, 2, stored.length);
    }

    private void requireBound() {
        if (currentId < 0) {
            throw new IllegalStateException(
                    "state variable " + name + " is used before the operator's restart check bound its schemas");
        }
    }

    byte[] serialize(String topic, T value) {
        requireBound();
        byte[] payload = payloadSerializer.serialize(topic, value);
        byte[] out = new byte[2 + payload.length];
        out[0] = (byte) (currentId >>> 8);
        out[1] = (byte) currentId;
        System.arraycopy(payload, 0, out, 2, payload.length);
        return out;
    }

    T deserialize(String topic, byte[] stored) {
        if (stored == null) {
            return null;
        }
        requireBound();
        int id = schemaId(stored);
        byte[] payload = payload(stored);
        if (id == currentId) {
            return payloadDeserializer.deserialize(topic, payload);
        }
        if (id >= schemas.size()) {
            throw new IllegalStateException("state variable " + name + ": a stored value has schema id " + id
                    + ", but only " + schemas.size() + " schemas are recorded; the store does not match its metadata");
        }
        return serde.deserialize(payload, schemas.get(id));
    }

    @Override
    public Serializer<T> serializer() {
        return this::serialize;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this::deserialize;
    }
}
