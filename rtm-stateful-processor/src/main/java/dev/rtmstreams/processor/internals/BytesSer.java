package dev.rtmstreams.processor.internals;

import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;

/** Serializer of {@link Bytes} prefixes for {@code prefixScan}. */
final class BytesSer implements Serializer<Bytes> {
    static final BytesSer INSTANCE = new BytesSer();

    @Override
    public byte[] serialize(String topic, Bytes data) {
        return data == null ? null : data.get();
    }
}
