package dev.rtmstreams.topology.internals;

import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A stream thread's producer, wrapped around the one the application's client supplier made: measures processing and end-to-end latency of each output record on send, times the
 * parts of each commit (flush, offsets, EndTxn), under exactly-once reports every successful transaction commit to
 * its {@link EpochRuntime} (which closes checkpoint epochs), and under a micro-batch trigger
 * holds output records until the epoch ends ({@link EpochOutputGate}). Every other call goes to the wrapped producer
 * unchanged.
 */
final class InstrumentedProducer extends DelegatingProducer {

    private final EpochRuntime runtime;
    private final EpochOutputGate gate;

    InstrumentedProducer(Producer<byte[], byte[]> delegate, EpochRuntime runtime) {
        super(delegate);
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
        return delegate.send(runtime.onSend(record), callback);
    }

    private void releaseHeld() {
        if (gate != null) {
            gate.release((record, callback) -> delegate.send(runtime.onSend(record), callback));
        }
    }

    /** Ends the epoch under at-least-once: Kafka Streams flushes the producer before it commits the offsets. */
    @Override
    public void flush() {
        long start = System.nanoTime();
        releaseHeld();
        delegate.flush();
        runtime.onProducerFlush(start, System.nanoTime());
    }

    @Override
    public void sendOffsetsToTransaction(
            Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
        long start = System.nanoTime();
        releaseHeld(); // exactly-once: the epoch's output goes into the transaction that commits its offsets
        delegate.sendOffsetsToTransaction(offsets, groupMetadata);
        runtime.onOffsetsSent(offsets, start, System.nanoTime());
    }

    @Override
    public void commitTransaction() {
        long start = System.nanoTime();
        releaseHeld();
        delegate.commitTransaction();
        runtime.onCommit(Map.of(), true, start, System.nanoTime());
    }

    @Override
    public void abortTransaction() {
        runtime.onAbort();
        if (gate != null) {
            gate.discard(new org.apache.kafka.common.KafkaException("transaction aborted"));
        }
        delegate.abortTransaction();
    }

    @Override
    public void close() {
        discardHeldOnClose();
        delegate.close();
    }

    @Override
    public void close(java.time.Duration timeout) {
        discardHeldOnClose();
        delegate.close(timeout);
    }

    private void discardHeldOnClose() {
        if (gate != null && gate.held() > 0) {
            // Kafka Streams flushes before a clean close; records still held belong to an epoch whose input offsets
            // were not committed, so they are processed again after the restart
            gate.discard(new org.apache.kafka.common.KafkaException("producer closed before the epoch ended"));
        }
    }
}
