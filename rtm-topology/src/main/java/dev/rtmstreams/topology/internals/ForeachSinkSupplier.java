package dev.rtmstreams.topology.internals;

import dev.rtmstreams.processor.spi.UnloggedStore;
import dev.rtmstreams.processor.spi.UnloggedStoreBuilder;
import dev.rtmstreams.topology.ForeachSink;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processor behind {@link ForeachSink#processor}. The epoch boundary is the task's commit: Kafka Streams commits
 * (flushes) every state store of a task before it commits the task's offsets, so a store of our own, holding no data,
 * is told of each checkpoint ({@link EpochStore#commit}) and closes the sink's epoch there.
 */
public final class ForeachSinkSupplier<K, V> implements ProcessorSupplier<K, V, Void, Void> {

    private static final Logger LOG = LoggerFactory.getLogger(ForeachSinkSupplier.class);

    private final String storeName;
    private final Supplier<? extends ForeachSink<K, V>> sinks;

    /**
     * @param name the sink's name
     * @param sinks one sink per task
     */
    public ForeachSinkSupplier(String name, Supplier<? extends ForeachSink<K, V>> sinks) {
        this.storeName = name + "-epochs";
        this.sinks = sinks;
    }

    @Override
    public Processor<K, V, Void, Void> get() {
        return new SinkProcessor();
    }

    @Override
    public Set<StoreBuilder<?>> stores() {
        return Set.of(new UnloggedStoreBuilder<>(
                storeName,
                () -> new EpochStore(storeName),
                "the epoch store of a ForeachSink holds no data to cache",
                "the epoch store of a ForeachSink holds no data to log"));
    }

    private final class SinkProcessor implements Processor<K, V, Void, Void> {
        private ForeachSink<K, V> sink;
        private long partition;
        private long epochId;
        private boolean open;
        private boolean accepted;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            EpochStore store = context.getStateStore(storeName);
            store.onCommit(this::endEpoch);
            partition = context.taskId().partition();
            sink = sinks.get();
            if (sink == null) {
                throw new IllegalStateException("the ForeachSink supplier of store " + storeName + " returned null");
            }
        }

        @Override
        public void process(Record<K, V> record) {
            if (!open) {
                accepted = sink.open(partition, epochId);
                open = true;
            }
            if (accepted) {
                try {
                    sink.process(record);
                } catch (RuntimeException e) {
                    fail(e);
                    throw e;
                }
            }
        }

        private void endEpoch() {
            if (!open) {
                return;
            }
            open = false;
            epochId++;
            sink.close(null); // a failure here fails the commit: the epoch's input is processed again
        }

        private void fail(Throwable error) {
            open = false;
            epochId++;
            try {
                sink.close(error);
            } catch (RuntimeException e) {
                error.addSuppressed(e);
            }
        }

        @Override
        public void close() {
            if (open) {
                LOG.debug("task of {} closes with an epoch open: closing it with an error", storeName);
                fail(new IllegalStateException("the task closed before the epoch was checkpointed"));
            }
        }
    }

    /** A store without data whose commit marks the end of a checkpoint epoch of its task. */
    static final class EpochStore extends UnloggedStore {
        private Runnable onCommit = () -> {};

        EpochStore(String name) {
            super(name);
        }

        void onCommit(Runnable r) {
            this.onCommit = r;
        }

        // StateStore#commit since Kafka Streams 4.2 (no @Override: 4.1 calls flush() at a commit instead)
        public void commit(Map<org.apache.kafka.common.TopicPartition, Long> changelogOffsets) {
            onCommit.run();
        }

        @Override
        public void flush() {
            onCommit.run();
        }
    }
}
