package dev.rtmstreams.examples;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The composite grouping key {@code (timestamp, value)} of the page's {@code dropDuplicates(["timestamp", "value"])}
 * and {@code groupBy(col("timestamp"), col("value"))}: the Kafka record timestamp and the record value.
 *
 * @param timestamp the record timestamp (epoch milliseconds)
 * @param value the record value; may be null (a record without value)
 */
public record TimestampValue(long timestamp, String value) {

    private static final Serde<TimestampValue> SERDE = Serdes.serdeFrom(new Ser(), new De());

    /**
     * Returns the serde: 8 bytes timestamp, 1 byte null flag, then the UTF-8 value.
     *
     * @return a stateless, shared serde
     */
    public static Serde<TimestampValue> serde() {
        return SERDE;
    }

    private static final class Ser implements Serializer<TimestampValue> {
        @Override
        public byte[] serialize(String topic, TimestampValue tv) {
            if (tv == null) {
                return null;
            }
            byte[] v = tv.value == null ? new byte[0] : tv.value.getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(9 + v.length)
                    .putLong(tv.timestamp)
                    .put((byte) (tv.value == null ? 0 : 1))
                    .put(v)
                    .array();
        }
    }

    private static final class De implements Deserializer<TimestampValue> {
        @Override
        public TimestampValue deserialize(String topic, byte[] data) {
            if (data == null) {
                return null;
            }
            if (data.length < 9) {
                throw new SerializationException("TimestampValue needs at least 9 bytes: " + data.length);
            }
            ByteBuffer b = ByteBuffer.wrap(data);
            long ts = b.getLong();
            boolean present = b.get() != 0;
            return new TimestampValue(
                    ts, present ? new String(data, 9, data.length - 9, StandardCharsets.UTF_8) : null);
        }
    }
}
