package dev.rtmstreams.bench.spark;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Gives each output record of the Spark peer its input row's timestamp, as Kafka Streams and rtm-streams do.
 *
 * <p>Spark's Kafka sink writes the columns {@code key}, {@code value}, {@code headers}, {@code topic} and
 * {@code partition}, but not a record timestamp: the producer stamps the send time. The bench's oracle identifies a
 * stream-static join result and an aggregation count by the input row's timestamp, and tells the warm-up's outputs
 * from the measured ones by it. So the peer's query puts the input's timestamp (epoch milliseconds, decimal ASCII)
 * into header {@value #HEADER}, and this interceptor, set as the sink producer's {@code interceptor.classes}, moves
 * it into the record's timestamp and drops the header: the records on the output topic are then the same as the
 * other systems'. Costs one small header per row in Spark's projection, which the bench charges to Spark.
 */
public final class InputTimestampInterceptor implements ProducerInterceptor<byte[], byte[]> {

    /** The header the query writes the input timestamp into. */
    public static final String HEADER = "rtm-bench-input-timestamp";

    @Override
    public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
        Header ts = record.headers().lastHeader(HEADER);
        if (ts == null) {
            return record;
        }
        long timestamp = Long.parseLong(new String(ts.value(), StandardCharsets.US_ASCII));
        RecordHeaders rest = new RecordHeaders();
        for (Header h : record.headers()) {
            if (!h.key().equals(HEADER)) {
                rest.add(h);
            }
        }
        return new ProducerRecord<>(
                record.topic(), record.partition(), timestamp, record.key(), record.value(), rest);
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {}
}
