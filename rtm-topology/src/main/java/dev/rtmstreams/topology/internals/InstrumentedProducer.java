package dev.rtmstreams.topology.internals;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A stream thread's producer: measures processing and end-to-end latency of each output record on send, and under
 * exactly-once closes a checkpoint epoch after every successful transaction commit.
 */
final class InstrumentedProducer extends KafkaProducer<byte[], byte[]> {

    private final EpochRuntime runtime;
    private Map<TopicPartition, OffsetAndMetadata> pendingOffsets = Map.of();

    InstrumentedProducer(Map<String, Object> config, EpochRuntime runtime) {
        super(config, new ByteArraySerializer(), new ByteArraySerializer());
        this.runtime = runtime;
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        return super.send(runtime.onSend(record));
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        return super.send(runtime.onSend(record), callback);
    }

    @Override
    public void sendOffsetsToTransaction(
            Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
        super.sendOffsetsToTransaction(offsets, groupMetadata);
        Map<TopicPartition, OffsetAndMetadata> merged = new HashMap<>(pendingOffsets);
        merged.putAll(offsets);
        pendingOffsets = merged;
    }

    @Override
    public void commitTransaction() {
        super.commitTransaction();
        Map<TopicPartition, OffsetAndMetadata> committed = pendingOffsets;
        pendingOffsets = Map.of();
        runtime.onCommit(committed);
    }

    @Override
    public void abortTransaction() {
        pendingOffsets = Map.of();
        super.abortTransaction();
    }
}
