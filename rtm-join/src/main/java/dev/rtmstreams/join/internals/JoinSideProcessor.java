package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.ValueJoiner3;
import dev.rtmstreams.processor.EventTimeExtractor;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.spi.OperatorSettings;
import dev.rtmstreams.processor.spi.TaskShared;
import java.time.Duration;
import java.util.Set;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One side's processor of an interval join. Both sides' processors are connected to all the join's stores.
 *
 * @param <K> key
 * @param <V> this side's value type
 */
final class JoinSideProcessor<K, V, L, R, VR> implements Processor<K, V, K, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(JoinSideProcessor.class);

    private final boolean left;
    private final JoinSpec<K, L, R> spec;
    private final ValueJoiner3<K, L, R, VR> joiner;
    private final EventTimeExtractor<K, V> eventTime;
    private final TaskShared<JoinTaskState> taskState;
    private JoinCore<K, L, R, VR> core;
    private ProcessorContext<K, Object> context;
    private long maxEventTimeSkewMs;
    private ExecutionMode mode;
    private Cancellable punctuator;
    private long droppedNulls;

    JoinSideProcessor(
            boolean left,
            JoinSpec<K, L, R> spec,
            ValueJoiner3<K, L, R, VR> joiner,
            EventTimeExtractor<K, V> eventTime,
            TaskShared<JoinTaskState> taskState) {
        this.left = left;
        this.spec = spec;
        this.joiner = joiner;
        this.eventTime = eventTime;
        this.taskState = taskState;
    }

    @Override
    public void init(ProcessorContext<K, Object> context) {
        this.context = context;
        // the builder's settings, else the rtm.* keys, else the defaults: resolved as every operator resolves them
        OperatorSettings settings = OperatorSettings.resolve(
                spec.name(),
                spec.executionMode(),
                null,
                spec.evictionIntervalMs() > 0 ? Duration.ofMillis(spec.evictionIntervalMs()) : null,
                spec.idleTimeoutMs() >= 0 ? Duration.ofMillis(spec.idleTimeoutMs()) : null,
                context.appConfigs());
        maxEventTimeSkewMs = settings.maxEventTimeSkewMs();
        mode = settings.executionMode();
        long idleTimeoutMs = settings.idleTimeoutMs();
        JoinMeta.checkFormatVersion(spec, context.getStateStore(spec.metaStore()));
        core = new JoinCore<>(spec, joiner, context, idleTimeoutMs, taskState);
        core.initEvictionHint(left);
        if (mode == ExecutionMode.MICRO_BATCH && left) {
            // Micro-batch: the left processor runs each batch for both sides (arrival order across sides is kept by
            // the shared pending store); the right one schedules nothing.
            core.initEvictionHint(false);
        }
        punctuator = settings.schedule(
                context, now -> core.punctuateRealTime(left), left ? now -> core.runMicroBatch() : null);
        LOG.debug(
                "interval join {} ({} side) initialized for task {} in {} mode",
                spec.name(),
                left ? "left" : "right",
                context.taskId(),
                mode);
    }

    @Override
    public void process(Record<K, V> record) {
        if (record.key() == null || record.value() == null) {
            // Same rule as Kafka Streams' KStream#join: records with a null key or value never join.
            if (droppedNulls++ == 0) {
                LOG.warn(
                        "interval join {} drops {} records with a null key or value (logged once per task)",
                        spec.name(),
                        left ? "left" : "right");
            }
            return;
        }
        long t = eventTime.extract(record.key(), record.value(), record.timestamp());
        long now = context.currentSystemTimeMs();
        if (RtmProcessorConfig.tooFarAhead(t, now, maxEventTimeSkewMs)) {
            core.tooFarAhead(left, record, t, now, maxEventTimeSkewMs);
            return;
        }
        if (mode == ExecutionMode.REAL_TIME) {
            core.processRealTime(left, record, t);
        } else {
            core.bufferForMicroBatch(left, record, t);
        }
    }

    @Override
    public void close() {
        if (punctuator != null) {
            punctuator.cancel();
        }
        if (core != null) {
            core.close();
        }
    }

    /** Supplier connecting the processor to the join's shared store builders and its task-shared state. */
    static final class Supplier<K, V, L, R, VR> implements ProcessorSupplier<K, V, K, Object> {
        private final boolean left;
        private final JoinSpec<K, L, R> spec;
        private final ValueJoiner3<K, L, R, VR> joiner;
        private final EventTimeExtractor<K, V> eventTime;
        private final Set<StoreBuilder<?>> stores;
        private final TaskShared<JoinTaskState> taskState;

        Supplier(
                boolean left,
                JoinSpec<K, L, R> spec,
                ValueJoiner3<K, L, R, VR> joiner,
                EventTimeExtractor<K, V> eventTime,
                Set<StoreBuilder<?>> stores,
                TaskShared<JoinTaskState> taskState) {
            this.left = left;
            this.spec = spec;
            this.joiner = joiner;
            this.eventTime = eventTime;
            this.stores = stores;
            this.taskState = taskState;
        }

        @Override
        public Processor<K, V, K, Object> get() {
            return new JoinSideProcessor<>(left, spec, joiner, eventTime, taskState);
        }

        @Override
        public Set<StoreBuilder<?>> stores() {
            return stores;
        }
    }
}
