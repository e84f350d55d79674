package dev.rtmstreams.examples;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Output row of {@link RtmStatefulProcessor}: the page's {@code (key, value, timestamp)} 3-tuple.
 *
 * @param key the grouping key
 * @param count records seen for the key so far (within the TTL)
 * @param sourceTimestamp the source timestamp of the input row, passed through to compute end-to-end latency
 */
public record KeyCount(String key, long count, long sourceTimestamp) {

    private static final Serde<KeyCount> SERDE = Serdes.serdeFrom(new Ser(), new De());

    /**
     * Returns the wire format, UTF-8 text {@code count,sourceTimestamp,key} (the key last, so it may hold commas).
     *
     * @return a stateless, shared serde
     */
    public static Serde<KeyCount> serde() {
        return SERDE;
    }

    /**
     * @param text {@code count,sourceTimestamp,key}
     * @return the parsed row
     * @throws IllegalArgumentException when malformed, naming the text
     */
    public static KeyCount parse(String text) {
        int a = text.indexOf(',');
        int b = a < 0 ? -1 : text.indexOf(',', a + 1);
        if (b < 0) {
            throw new IllegalArgumentException("expected 'count,sourceTimestamp,key': " + text);
        }
        try {
            return new KeyCount(
                    text.substring(b + 1),
                    Long.parseLong(text.substring(0, a)),
                    Long.parseLong(text.substring(a + 1, b)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected 'count,sourceTimestamp,key': " + text, e);
        }
    }

    /** @return {@code count,sourceTimestamp,key} */
    public String format() {
        return count + "," + sourceTimestamp + "," + key;
    }

    private static final class Ser implements Serializer<KeyCount> {
        @Override
        public byte[] serialize(String topic, KeyCount kc) {
            return kc == null ? null : kc.format().getBytes(StandardCharsets.UTF_8);
        }
    }

    private static final class De implements Deserializer<KeyCount> {
        @Override
        public KeyCount deserialize(String topic, byte[] data) {
            if (data == null) {
                return null;
            }
            try {
                return parse(new String(data, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new SerializationException(e.getMessage(), e);
            }
        }
    }
}
