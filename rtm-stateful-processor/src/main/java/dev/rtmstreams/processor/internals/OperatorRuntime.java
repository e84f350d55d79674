package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.RtmProcessorMetrics;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.StatefulProcessorWithInitialState;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.errors.CannotReinitializeStateOnKeyException;
import dev.rtmstreams.processor.errors.UserFunctionException;
import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.internals.QueryableOperatorStore;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-task engine of one operator: the processor's lifecycle and the real-time contract, driving the pieces that
 * hold state: {@link KeyContext} (current key and handle phase), {@link WatermarkTracker}, {@link TimerService},
 * {@link Housekeeping} (timers due, TTL) and, in micro-batch mode, the {@link MicroBatchContract}, all on the one
 * operator store. Not thread-safe (a task is single-threaded).
 */
final class OperatorRuntime<K, I, O> {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);
    /** Upper bound of timers fired per pass (more fire at the next pass). */
    private static final int MAX_TIMERS_PER_PASS = 10_000;

    final OperatorSpec<K, I, O> spec;
    final TimeMode timeMode;
    OperatorConfig config;
    /** {@code rtm.state.value.schema.evolution.threshold} of the application config. */
    private int schemaEvolutionThreshold;
    /** {@code rtm.state.write.format.version} of the application config. */
    private int writeFormatVersion;

    private boolean initialized;
    private boolean closed;

    private StatefulProcessor<K, I, O> processor;
    HandleImpl handle;
    KeyContext keys;
    private String topic;
    private Serializer<K> keySerializer;
    private Deserializer<K> keyDeserializer;

    WatermarkTracker watermark;
    TimerService timers;
    Housekeeping housekeeping;
    /** The micro-batch contract, or null in real-time mode. */
    private MicroBatchContract<K, I, O> microBatch;

    private long lastInputWallClock;

    private long batchId;
    private long epochStartWallClock;
    private boolean metaLoaded;

    private ProcessingContext timeContext;
    private Output<K, O> output;
    OperatorMetrics metrics;

    UUID queryId;
    UUID runId;
    /** Drops null-key, late and too-far-ahead records. */
    InputGuard input;

    OperatorRuntime(OperatorSpec<K, I, O> spec) {
        this.spec = spec;
        this.timeMode = spec.timeMode();
    }

    @SuppressWarnings("unchecked")
    void initOnce(ProcessingContext context) {
        if (initialized) {
            return;
        }
        KeyValueStore<Bytes, byte[]> store = context.getStateStore(spec.storeName());
        topic = spec.storeName();
        Serde<K> ks = spec.keySerde() != null ? spec.keySerde() : (Serde<K>) context.keySerde();
        keySerializer = ks.serializer();
        keyDeserializer = ks.deserializer();
        config = OperatorConfig.resolve(spec, context.appConfigs());
        schemaEvolutionThreshold = RtmProcessorConfig.valueSchemaEvolutionThreshold(context.appConfigs());
        writeFormatVersion = RtmProcessorConfig.stateWriteFormatVersion(context.appConfigs());
        keys = new KeyContext(store);
        watermark = new WatermarkTracker(store, config.watermarkDelayMs(), config.idleTimeoutMs());
        QueryableOperatorStore layer = QueryableOperatorStore.innermost(store);
        if (layer != null) {
            // The watermark is written once per commit, not with every advance (always, when the store is not ours).
            watermark.persistBeforeCommit();
            layer.beforeCommit(watermark::persistIfAdvanced);
        }
        // the per-key timer index is not changelogged when the store has the innermost layer (reset in loadMeta)
        timers = new TimerService(store, layer != null ? layer : store, MAX_TIMERS_PER_PASS);
        housekeeping = new Housekeeping(this, new TtlCleaner(keys, config.ttlCleanupBatch()));
        if (config.executionMode() == ExecutionMode.MICRO_BATCH) {
            Serde<I> vs = spec.valueSerde() != null ? spec.valueSerde() : (Serde<I>) context.valueSerde();
            microBatch = new MicroBatchContract<>(this, store, vs);
        }
        long now = context.currentSystemTimeMs();
        lastInputWallClock = now;
        epochStartWallClock = now;
        queryId =
                UUID.nameUUIDFromBytes((context.applicationId() + "/" + spec.name()).getBytes(StandardCharsets.UTF_8));
        runId = UUID.randomUUID();

        processor = spec.processorSupplier().get();
        if (processor == null) {
            throw new IllegalStateException("the processor supplier of operator " + spec.name() + " returned null");
        }
        handle = new HandleImpl(this);
        processor.setHandle(handle);
        keys.state = HandleState.CREATED;
        try {
            processor.init(spec.outputMode(), timeMode);
        } catch (RuntimeException e) {
            throw userFunctionError("init", e);
        }
        keys.state = HandleState.INITIALIZED;
        RestartCheck.checkAndPersist(
                spec,
                timeMode,
                OperatorMetadata.fingerprint(ks),
                handle,
                store,
                schemaEvolutionThreshold,
                writeFormatVersion);
        handle.deleteRequested();
        initialized = true;
        registerMetrics(context);
        LOG.debug(
                "operator {} task {} initialized: mode={}, timeMode={}",
                spec.name(),
                context.taskId(),
                config.executionMode(),
                timeMode);
    }

    /**
     * Loads the persisted watermark, batch id and buffer sequence and resets the per-key timer index on first use
     * (not in init). The operator's declaration is checked and persisted in init ({@link RestartCheck}).
     */
    void loadMeta() {
        if (metaLoaded) {
            return;
        }
        metaLoaded = true;
        timers.resetKeyIndex();
        watermark.load();
        byte[] b = keys.store.get(Bytes.wrap(Layout.metaKey(Layout.META_BATCH_ID)));
        batchId = b == null ? 0 : ByteLayout.getLong(b, 0);
        if (microBatch != null) {
            microBatch.load();
        }
        LOG.debug(
                "operator {} restored watermark={}, batchId={}",
                spec.name(),
                watermark.has() ? watermark.value() : "none",
                batchId);
    }

    private void registerMetrics(ProcessingContext context) {
        metrics = new OperatorMetrics(
                context.metrics(),
                Thread.currentThread().getName(),
                context.taskId().toString(),
                spec.name());
        input = new InputGuard(spec.name(), watermark, config.maxEventTimeSkewMs(), metrics);
        if (timeMode == TimeMode.EVENT_TIME) {
            WatermarkTracker w = watermark;
            metrics.gauge(RtmProcessorMetrics.WATERMARK, "event-time watermark of the task in epoch ms", () -> {
                long v = w.published();
                return v == Long.MIN_VALUE ? Double.NaN : (double) v;
            });
        }
        KeyValueStore<Bytes, byte[]> s = keys.store;
        metrics.gauge(RtmProcessorMetrics.STORE_ENTRIES, "approximate number of entries in the operator store", () ->
                (double) s.approximateNumEntries());
        metrics.stateVariableGauges(List.copyOf(handle.declared.values()), handle.deletedStateVars);
    }

    /**
     * @param context the context of the processor that forwards (source of the wall clock)
     * @param output where output records go
     */
    void setOutput(ProcessingContext context, Output<K, O> output) {
        this.timeContext = context;
        this.output = output;
    }

    long watermarkForTimerValues() {
        loadMeta();
        return watermark.forTimerValues();
    }

    long batchId() {
        loadMeta();
        return batchId;
    }

    // ---------------------------------------------------------------- real-time contract

    /**
     * Real-time contract: one {@code handleInputRows} call with this row; output forwarded at once with the input's
     * timestamp and headers.
     */
    void processRealTime(K key, I value, long timestamp, Headers headers) {
        loadMeta();
        if (key == null) {
            input.dropNullKey();
            return;
        }
        long now = inputArrived();
        long eventTime = 0;
        if (timeMode == TimeMode.EVENT_TIME) {
            eventTime = spec.eventTimeExtractor().extract(key, value, timestamp);
            if (input.dropIfLate(eventTime) || input.dropIfTooFarAhead(eventTime, now)) {
                return;
            }
        }
        TimerValuesImpl tv = new TimerValuesImpl(now, watermarkForTimerValues());
        handleInputRows(serializeKey(key), key, new SingleRowIterator<>(value), tv, now, timestamp, headers);
        if (timeMode == TimeMode.EVENT_TIME) {
            watermark.observe(eventTime);
        }
        housekeeping.fireDueTimers(now);
    }

    /** An input record arrived: returns the wall-clock time, which the watermark's idle timeout counts from. */
    long inputArrived() {
        lastInputWallClock = timeContext.currentSystemTimeMs();
        return lastInputWallClock;
    }

    /** Event time: advances the watermark when the input has been idle for the configured timeout. */
    void applyIdleTimeout(long now) {
        if (timeMode == TimeMode.EVENT_TIME) {
            watermark.applyIdleTimeout(now, lastInputWallClock);
        }
    }

    /**
     * One {@code handleInputRows} call for one key, its output forwarded with {@code timestamp} and {@code headers}.
     */
    void handleInputRows(
            byte[] keyBytes, K key, Iterator<I> rows, TimerValuesImpl tv, long now, long timestamp, Headers headers) {
        keys.enter(keyBytes, now);
        keys.state = HandleState.DATA_PROCESSED;
        try {
            Iterator<O> out;
            try {
                out = processor.handleInputRows(key, rows, tv);
            } catch (RuntimeException e) {
                throw userFunctionError("handleInputRows", e);
            }
            forwardAll("handleInputRows", out, key, timestamp, headers);
        } finally {
            keys.exit();
        }
    }

    String topic() {
        return topic;
    }

    byte[] serializeKey(K key) {
        return keySerializer.serialize(topic, key);
    }

    K deserializeKey(byte[] keyBytes) {
        return keyDeserializer.deserialize(topic, keyBytes);
    }

    /**
     * Forwards every row of {@code out}, the result of user function {@code function}; an exception from the
     * iterator itself (user code, e.g. a lazy map) is a user-function error, one from downstream is not.
     */
    private void forwardAll(String function, Iterator<O> out, K key, long timestamp, Headers headers) {
        if (out == null) {
            throw new IllegalStateException(function + " of operator " + spec.name() + " returned null");
        }
        while (true) {
            O row;
            try {
                if (!out.hasNext()) {
                    return;
                }
                row = out.next();
            } catch (RuntimeException e) {
                throw userFunctionError(function, e);
            }
            output.forward(key, row, timestamp, headers);
        }
    }

    /**
     * Spark's {@code withStatefulProcessorErrorHandling}: an error that already has an error code passes through;
     * any other exception from user code is wrapped as {@code TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR}. Passed
     * through unwrapped are our own errors and Kafka Streams' task-level signals: a state write
     * inside the function may surface a {@link TaskCorruptedException} (e.g. the exactly-once producer timed out while
     * the broker was down) or a {@link TaskMigratedException}, which Kafka Streams handles by re-initializing or
     * migrating the task; wrapped, they would shut the client down instead.
     */
    static RuntimeException userFunctionError(String function, RuntimeException e) {
        if (e instanceof RtmException || e instanceof TaskCorruptedException || e instanceof TaskMigratedException) {
            return e;
        }
        return new UserFunctionException(function, e);
    }

    // ---------------------------------------------------------------- initial state

    /**
     * Passes one row of initial state to {@code handleInitialState}; a second row for the same key fails with
     * Spark's {@code STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY} (a persisted marker remembers the key).
     */
    @SuppressWarnings("unchecked")
    <S> void handleInitialState(K key, S initialState, long now) {
        if (key == null) {
            input.dropNullKey();
            return;
        }
        loadMeta();
        StatefulProcessorWithInitialState<K, I, O, S> p = (StatefulProcessorWithInitialState<K, I, O, S>) processor;
        byte[] keyBytes = serializeKey(key);
        Bytes seenKey = Bytes.wrap(Layout.initialStateSeenKey(keyBytes));
        if (keys.store.get(seenKey) != null) {
            throw new CannotReinitializeStateOnKeyException(String.valueOf(key));
        }
        keys.store.put(seenKey, Layout.EMPTY);
        keys.enter(keyBytes, now);
        HandleState before = keys.state;
        keys.state = HandleState.INITIALIZED;
        long start = System.nanoTime();
        try {
            p.handleInitialState(key, initialState, new TimerValuesImpl(now, watermarkForTimerValues()));
        } catch (RuntimeException e) {
            throw userFunctionError("handleInitialState", e);
        } finally {
            keys.exit();
            keys.state = before;
            metrics.initialStateMs.record((System.nanoTime() - start) / 1e6);
        }
    }

    // ---------------------------------------------------------------- punctuation

    /** Wall-clock punctuation at the timer resolution (real-time contract). */
    void punctuateRealTime(long now) {
        if (closed) {
            return;
        }
        loadMeta();
        applyIdleTimeout(now);
        housekeeping.fireDueTimers(now);
        housekeeping.cleanupTtl(now);
        if (now - epochStartWallClock >= config.commitIntervalMs()) {
            epochStartWallClock = now;
            incrementBatchId();
        }
    }

    void incrementBatchId() {
        batchId++;
        keys.store.put(Bytes.wrap(Layout.metaKey(Layout.META_BATCH_ID)), ByteLayout.longValue(batchId));
    }

    // ---------------------------------------------------------------- timers

    /**
     * One {@code handleExpiredTimer} call for a due timer (see {@link Housekeeping#fireDueTimers}), its output
     * forwarded; then the timer is deleted.
     */
    void fireTimer(TimerService.Timer timer, long now) {
        long t = timer.time();
        K key = deserializeKey(timer.key());
        keys.enter(timer.key(), now);
        keys.state = HandleState.TIMER_PROCESSED;
        metrics.timersFired.record();
        try {
            Iterator<O> out;
            try {
                out = processor.handleExpiredTimer(
                        key, new TimerValuesImpl(now, watermarkForTimerValues()), new TimerValuesImpl.Expired(t));
            } catch (RuntimeException e) {
                throw userFunctionError("handleExpiredTimer", e);
            }
            forwardAll("handleExpiredTimer", out, key, timeMode == TimeMode.EVENT_TIME ? t : now, null);
            // Spark deletes a fired timer through the handle (TransformWithStateExec#handleTimerRows), so it also
            // counts in numDeletedTimers, even when the handler deleted it already
            timers.delete(timer.key(), t);
            metrics.deletedTimers.record();
        } finally {
            keys.exit();
        }
    }

    // ---------------------------------------------------------------- micro-batch contract

    /** Micro-batch contract: appends the row, with its record timestamp and headers, to the persisted buffer. */
    void bufferRecord(K key, I value, long timestamp, Headers headers) {
        microBatch.append(key, value, timestamp, headers);
    }

    /** Micro-batch contract: runs one batch at wall-clock time {@code now} ({@link MicroBatchContract#run}). */
    void runMicroBatch(long now) {
        if (!closed) {
            microBatch.run(now);
        }
    }

    // ---------------------------------------------------------------- close

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (metrics != null) {
            metrics.close();
        }
        if (keys != null) {
            keys.state = HandleState.CLOSED; // state and timers are not usable in close (handle-state error)
        }
        if (processor != null) {
            try {
                processor.close();
            } catch (RuntimeException e) {
                throw userFunctionError("close", e);
            }
        }
    }
}
