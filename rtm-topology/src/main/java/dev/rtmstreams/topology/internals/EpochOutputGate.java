package dev.rtmstreams.topology.internals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Makes the micro-batch trigger govern the whole topology: under {@code Trigger.microBatch} the output records of a
 * stream thread (records to topics that are not internal to the application) are held until the thread's checkpoint
 * epoch ends and then sent, so a stateless path behaves like Spark's micro-batch too (its output appears when the
 * batch ends, not as each record arrives). The epoch ends at the commit: Kafka Streams flushes the producer before it
 * commits the offsets (at-least-once) and sends the offsets before it commits the transaction (exactly-once), and the
 * producer releases what the gate holds at both points, so every held record is sent before the offsets that
 * acknowledge its input are committed. Repartition and changelog records are not held: a shuffle is part of the
 * epoch, as Spark's stages are part of one batch. Used by the stream thread only (not thread-safe).
 */
final class EpochOutputGate {

    /** Sends a record for real; returns the producer's future. */
    @FunctionalInterface
    interface Sender {
        Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback);
    }

    private record Held(
            ProducerRecord<byte[], byte[]> record, Callback callback, CompletableFuture<RecordMetadata> future) {}

    private final Predicate<String> held;
    private final List<Held> pending = new ArrayList<>();

    /** @param holdTopic true for the topics whose records wait for the end of the epoch */
    EpochOutputGate(Predicate<String> holdTopic) {
        this.held = holdTopic;
    }

    /**
     * @return a future completed when the record is acknowledged after its release, or null when the record is not
     *     held (the caller sends it now)
     */
    Future<RecordMetadata> hold(ProducerRecord<byte[], byte[]> record, Callback callback) {
        if (!held.test(record.topic())) {
            return null;
        }
        CompletableFuture<RecordMetadata> future = new CompletableFuture<>();
        pending.add(new Held(record, callback, future));
        return future;
    }

    /** Sends every held record, in the order it was held (the end of the epoch). */
    void release(Sender sender) {
        if (pending.isEmpty()) {
            return;
        }
        List<Held> batch = new ArrayList<>(pending);
        pending.clear();
        for (int i = 0; i < batch.size(); i++) {
            Held h = batch.get(i);
            try {
                sender.send(h.record(), (metadata, error) -> {
                    if (h.callback() != null) {
                        h.callback().onCompletion(metadata, error);
                    }
                    if (error != null) {
                        h.future().completeExceptionally(error);
                    } else {
                        h.future().complete(metadata);
                    }
                });
            } catch (RuntimeException e) {
                for (int j = i; j < batch.size(); j++) {
                    batch.get(j).future().completeExceptionally(e);
                }
                throw e;
            }
        }
    }

    /** Drops the held records (aborted transaction, closed producer): their input was not committed. */
    void discard(Exception reason) {
        for (Held h : pending) {
            h.future().completeExceptionally(reason);
        }
        pending.clear();
    }

    /** @return records held now */
    int held() {
        return pending.size();
    }
}
