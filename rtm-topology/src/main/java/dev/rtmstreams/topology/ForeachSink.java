package dev.rtmstreams.topology;

import dev.rtmstreams.topology.internals.ForeachSinkSupplier;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Writes a stream to an external system, modelled on Spark's {@code ForeachWriter}: per task (a Kafka Streams task,
 * one per input partition, Spark's partition) and checkpoint epoch, {@link #open} is called before the first row of
 * the epoch, {@link #process} once per row, and {@link #close} when the epoch ends, i.e. when Kafka Streams commits
 * the task (a checkpoint of rtm-topology: every checkpoint interval under {@link Trigger#realTime}, every batch
 * interval under {@link Trigger#microBatch}), <em>before</em> the input offsets are committed. A failing
 * {@code close(null)} fails the commit, so the epoch's input is processed again.
 * <pre>{@code
 * stream.process(ForeachSink.processor("pg-sink", () -> new JdbcUpsertSink(config)), Named.as("pg-sink"));
 * }</pre>
 * <h2>Delivery</h2>
 * At-least-once: after a crash, the rows since the last committed checkpoint are processed again, possibly cut into
 * different epochs, and epoch ids restart from 0 in a new task instance. So, unlike Spark, an epoch id cannot tell a
 * replay apart: write idempotently (e.g. upsert by key) so a replay leaves the same result.
 * <h2>Lifecycle</h2>
 * One instance per task, created by the supplier, used by one stream thread at a time. Per epoch: {@code open} once
 * (before its first row; an epoch without rows opens nothing), then {@code process} per row unless {@code open}
 * returned false, then {@code close} exactly once: with {@code null} at the checkpoint, or with the error when
 * {@code process} threw (the error is then rethrown and fails the task) or the task closed before the checkpoint.
 *
 * @param <K> record key
 * @param <V> record value
 */
@InterfaceStability.Evolving
public interface ForeachSink<K, V> {

    /**
     * Starts an epoch of one partition.
     *
     * @param partitionId the task's input partition
     * @param epochId increasing epoch counter of this task instance (from 0; see "Delivery")
     * @return true to receive the epoch's rows, false to skip them ({@link #close} is still called)
     */
    boolean open(long partitionId, long epochId);

    /**
     * Handles one row, in the order of the partition.
     *
     * @param row the record (key, value, timestamp, headers); valid during the call
     */
    void process(Record<K, V> row);

    /**
     * Ends the epoch.
     *
     * @param errorOrNull null at a checkpoint (make the epoch's writes durable here, or throw to fail the checkpoint);
     *     otherwise the error that ended the epoch (discard or roll back)
     */
    void close(Throwable errorOrNull);

    /**
     * Returns the terminal processor that feeds a sink per task; it declares its own (in-memory, not logged) store
     * through which it learns of each commit, so it needs no store declaration.
     *
     * @param name unique name of the sink in the topology (names its store {@code <name>-epochs})
     * @param sinks creates one sink per task
     * @param <K> record key
     * @param <V> record value
     * @return the processor supplier for {@code KStream#process} or {@code Topology#addProcessor}
     */
    static <K, V> ProcessorSupplier<K, V, Void, Void> processor(
            String name, Supplier<? extends ForeachSink<K, V>> sinks) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sinks, "sinks");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank: '" + name + "'");
        }
        return new ForeachSinkSupplier<>(name, sinks);
    }
}
