package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.model.AvroWireSerde;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A decoded join input together with the wire bytes it was decoded from. The join buffers each input as bytes: with
 * the bytes at hand, buffering a row costs no Avro encoding (the record is encoded once, by its producer).
 *
 * @param value the decoded record; not null
 * @param bytes its encoded bytes in the configured wire format, as read from the input topic; not null
 * @param <T> the record type
 */
record Encoded<T extends SpecificRecord>(T value, byte[] bytes) {

    Encoded {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(bytes, "bytes");
    }

    /**
     * @param avro the record's serde
     * @param <T> the record type
     * @return a serde that writes the carried bytes and reads by decoding them with {@code avro}
     */
    static <T extends SpecificRecord> Serde<Encoded<T>> serde(AvroWireSerde<T> avro) {
        Serializer<Encoded<T>> serializer = (topic, e) -> e == null ? null : e.bytes();
        Deserializer<Encoded<T>> deserializer = (topic, bytes) ->
                bytes == null ? null : new Encoded<>(avro.deserializer().deserialize(topic, bytes), bytes);
        return org.apache.kafka.common.serialization.Serdes.serdeFrom(serializer, deserializer);
    }
}
