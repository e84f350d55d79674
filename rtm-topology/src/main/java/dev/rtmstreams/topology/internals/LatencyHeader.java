package dev.rtmstreams.topology.internals;

import java.nio.ByteBuffer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The header that carries a source record's timestamp and poll time through the topology to the producer. Kafka
 * Streams copies input headers onto every output (and into repartition topics), so the producer side can compute
 * processing and end-to-end latency for the record that caused an output. 16 bytes: timestamp, poll time.
 */
final class LatencyHeader {

    /** Header key. */
    public static final String KEY = "rtm.lat";

    private LatencyHeader() {}

    /** Replaces any existing header with one holding {@code sourceTimestamp} and {@code pollTimeMs}. */
    static void set(Headers headers, long sourceTimestamp, long pollTimeMs) {
        headers.remove(KEY);
        headers.add(
                KEY,
                ByteBuffer.allocate(16)
                        .putLong(sourceTimestamp)
                        .putLong(pollTimeMs)
                        .array());
    }

    /** @return the header, or null when absent or malformed */
    static Header find(Headers headers) {
        Header h = headers.lastHeader(KEY);
        return h == null || h.value() == null || h.value().length != 16 ? null : h;
    }

    static long sourceTimestamp(Header h) {
        return ByteBuffer.wrap(h.value()).getLong(0);
    }

    static long pollTime(Header h) {
        return ByteBuffer.wrap(h.value()).getLong(8);
    }
}
