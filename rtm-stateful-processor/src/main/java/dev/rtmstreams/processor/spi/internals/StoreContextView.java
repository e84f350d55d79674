package dev.rtmstreams.processor.spi.internals;

import java.io.File;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The {@link StateStoreContext} an operator store passes to the store it wraps: the real context, optionally without
 * record metadata (so that the wrapped store does not track its own IQv2 position, {@link PositionTracker}) and with
 * the restore callback the wrapped store registers passed through a decorator ({@link RestoringCallback}), and
 * optionally with {@link LevelCompaction} as the RocksDB config setter.
 */
final class StoreContextView implements StateStoreContext {

    private final StateStoreContext context;
    private final boolean hideRecordMetadata;
    private final UnaryOperator<StateRestoreCallback> restoreCallback;
    private final boolean levelCompaction;

    StoreContextView(
            StateStoreContext context,
            boolean hideRecordMetadata,
            UnaryOperator<StateRestoreCallback> restoreCallback,
            boolean levelCompaction) {
        this.context = context;
        this.hideRecordMetadata = hideRecordMetadata;
        this.restoreCallback = restoreCallback;
        this.levelCompaction = levelCompaction;
    }

    @Override
    public String applicationId() {
        return context.applicationId();
    }

    @Override
    public TaskId taskId() {
        return context.taskId();
    }

    @Override
    public Optional<RecordMetadata> recordMetadata() {
        return hideRecordMetadata ? Optional.empty() : context.recordMetadata();
    }

    @Override
    public Serde<?> keySerde() {
        return context.keySerde();
    }

    @Override
    public Serde<?> valueSerde() {
        return context.valueSerde();
    }

    @Override
    public File stateDir() {
        return context.stateDir();
    }

    @Override
    public StreamsMetrics metrics() {
        return context.metrics();
    }

    @Override
    public void register(StateStore store, StateRestoreCallback stateRestoreCallback) {
        context.register(store, restoreCallback.apply(stateRestoreCallback));
    }

    @Override
    public void register(StateStore store, StateRestoreCallback stateRestoreCallback, CommitCallback commitCallback) {
        context.register(store, restoreCallback.apply(stateRestoreCallback), commitCallback);
    }

    @Override
    public Map<String, Object> appConfigs() {
        return levelCompaction ? LevelCompaction.configsFor(context.appConfigs()) : context.appConfigs();
    }

    @Override
    public Map<String, Object> appConfigsWithPrefix(String prefix) {
        return context.appConfigsWithPrefix(prefix);
    }
}
