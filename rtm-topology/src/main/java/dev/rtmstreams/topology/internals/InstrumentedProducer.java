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
 * A stream thread's producer: measures processing and end-to-end latency of each output record on send, under
 * exactly-once closes a checkpoint epoch after every successful transaction commit, and under a micro-batch trigger
 * holds output records until the epoch ends ({@link EpochOutputGate}).
 */
final class InstrumentedProducer extends KafkaProducer<byte[], byte[]> {

    private final EpochRuntime runtime;
    private final EpochOutputGate gate;
    private Map<TopicPartition, OffsetAndMetadata> pendingOffsets = Map.of();

    InstrumentedProducer(Map<String, Object> config, EpochRuntime runtime) {
        super(config, new ByteArraySerializer(), new ByteArraySerializer());
        this.runtime = runtime;
        this.gate = runtime.holdsOutputUntilEpochEnd()
                ? new EpochOutputGate(topic -> !runtime.isInternalTopic(topic))
                : null;
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        if (gate != null) {
            Future<RecordMetadata> held = gate.hold(record, callback);
            if (held != null) {
                return held; // sent, and measured, when the epoch ends
            }
        }
        return super.send(runtime.onSend(record), callback);
    }

    private void releaseHeld() {
        if (gate != null) {
            gate.release((record, callback) -> super.send(runtime.onSend(record), callback));
        }
    }

    /** Ends the epoch under at-least-once: Kafka Streams flushes the producer before it commits the offsets. */
    @Override
    public void flush() {
        releaseHeld();
        super.flush();
    }

    @Override
    public void sendOffsetsToTransaction(
            Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
        releaseHeld(); // exactly-once: the epoch's output goes into the transaction that commits its offsets
        super.sendOffsetsToTransaction(offsets, groupMetadata);
        Map<TopicPartition, OffsetAndMetadata> merged = new HashMap<>(pendingOffsets);
        merged.putAll(offsets);
        pendingOffsets = merged;
    }

    @Override
    public void commitTransaction() {
        releaseHeld();
        super.commitTransaction();
        Map<TopicPartition, OffsetAndMetadata> committed = pendingOffsets;
        pendingOffsets = Map.of();
        runtime.onCommit(committed);
    }

    @Override
    public void abortTransaction() {
        pendingOffsets = Map.of();
        if (gate != null) {
            gate.discard(new org.apache.kafka.common.KafkaException("transaction aborted"));
        }
        super.abortTransaction();
    }

    @Override
    public void close(java.time.Duration timeout) {
        if (gate != null && gate.held() > 0) {
            // Kafka Streams flushes before a clean close; records still held belong to an epoch whose input offsets
            // were not committed, so they are processed again after the restart
            gate.discard(new org.apache.kafka.common.KafkaException("producer closed before the epoch ended"));
        }
        super.close(timeout);
    }
}
