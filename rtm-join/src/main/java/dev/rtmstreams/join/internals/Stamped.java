package dev.rtmstreams.join.internals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** A record value with its record timestamp, so the state API's processor sees the timestamp of every row. */
record Stamped<V>(V value, long timestamp) {

    /** Serde {@code [timestamp:8][value bytes]}; used only by the micro-batch buffer. */
    static final class StampedSerde<V> implements Serde<Stamped<V>> {
        private final Serde<V> inner;
        private final String operator;

        StampedSerde(Serde<V> inner, String operator) {
            this.inner = inner;
            this.operator = operator;
        }

        @Override
        public void configure(Map<String, ?> configs, boolean isKey) {
            if (inner != null) {
                inner.configure(configs, isKey);
            }
        }

        private Serde<V> inner() {
            if (inner == null) {
                throw new IllegalStateException("Deduplicate '" + operator
                        + "' needs valueSerde(...) to buffer records under the micro-batch contract");
            }
            return inner;
        }

        @Override
        public Serializer<Stamped<V>> serializer() {
            return (topic, s) -> {
                if (s == null) {
                    return null;
                }
                byte[] v = inner().serializer().serialize(topic, s.value());
                int n = v == null ? 0 : v.length;
                ByteBuffer b = ByteBuffer.allocate(8 + n).putLong(s.timestamp());
                if (v != null) {
                    b.put(v);
                }
                return b.array();
            };
        }

        @Override
        public Deserializer<Stamped<V>> deserializer() {
            return (topic, bytes) -> bytes == null
                    ? null
                    : new Stamped<>(
                            inner().deserializer().deserialize(topic, Arrays.copyOfRange(bytes, 8, bytes.length)),
                            ByteBuffer.wrap(bytes, 0, 8).getLong());
        }
    }
}
