package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.adattribution.model.AvroSerde;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Input of the {@link LogRecordProcessor}: an ad request or an ad ack of one transaction, with
 * the Kafka timestamp of the record that carried it (the output {@code LogRecord} reports both).
 * Exactly one of {@code request} and {@code ack} is non-null.
 *
 * @param request the request, or null
 * @param ack the ack, or null
 * @param recordTime the Kafka timestamp of the input record (ms)
 */
public record CorrelationEvent(AdRequest request, AdAck ack, long recordTime) {

    /** Validates that exactly one side is present. */
    public CorrelationEvent {
        if ((request == null) == (ack == null)) {
            throw new IllegalArgumentException("exactly one of request and ack must be set");
        }
    }

    /**
     * @param request the request; not null
     * @param recordTime Kafka timestamp of its record
     * @return the event
     */
    public static CorrelationEvent ofRequest(AdRequest request, long recordTime) {
        return new CorrelationEvent(Objects.requireNonNull(request, "request"), null, recordTime);
    }

    /**
     * @param ack the ack; not null
     * @param recordTime Kafka timestamp of its record
     * @return the event
     */
    public static CorrelationEvent ofAck(AdAck ack, long recordTime) {
        return new CorrelationEvent(null, Objects.requireNonNull(ack, "ack"), recordTime);
    }

    /** @return whether this is a request */
    public boolean isRequest() {
        return request != null;
    }

    private static final AvroSerde<AdRequest> REQUESTS = AdAttributionSerdes.adRequest();
    private static final AvroSerde<AdAck> ACKS = AdAttributionSerdes.adAck();
    private static final byte REQUEST = 1;
    private static final byte ACK = 2;

    /**
     * A serde for state and buffers: one tag byte, the 8-byte record time, then the Avro
     * single-object encoding of the request or ack (so the schema can evolve).
     *
     * @return the serde
     */
    public static Serde<CorrelationEvent> serde() {
        Serializer<CorrelationEvent> ser = (topic, e) -> {
            if (e == null) {
                return null;
            }
            byte[] body = e.isRequest() ? REQUESTS.encode(e.request()) : ACKS.encode(e.ack());
            ByteBuffer out = ByteBuffer.allocate(1 + Long.BYTES + body.length);
            out.put(e.isRequest() ? REQUEST : ACK).putLong(e.recordTime()).put(body);
            return out.array();
        };
        Deserializer<CorrelationEvent> de = (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            ByteBuffer in = ByteBuffer.wrap(bytes);
            byte tag = in.get();
            long time = in.getLong();
            byte[] body = new byte[in.remaining()];
            in.get(body);
            return switch (tag) {
                case REQUEST -> ofRequest(REQUESTS.decode(body), time);
                case ACK -> ofAck(ACKS.decode(body), time);
                default -> throw new IllegalStateException("unknown CorrelationEvent tag " + tag);
            };
        };
        return Serdes.serdeFrom(ser, de);
    }
}
