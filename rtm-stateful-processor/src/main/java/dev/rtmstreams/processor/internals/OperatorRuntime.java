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
import dev.rtmstreams.processor.spi.InputDrops;
import dev.rtmstreams.processor.spi.MicroBatchBuffer;
import dev.rtmstreams.processor.spi.Watermarks;
import dev.rtmstreams.processor.spi.internals.QueryableOperatorStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-task engine of one operator: the processor's lifecycle and the two execution contracts (real-time and
 * micro-batch), driving the pieces that hold state: {@link KeyContext} (current key and handle phase),
 * {@link WatermarkTracker}, {@link TimerService}, {@link TtlCleaner} and {@link MicroBatchBuffer}, all on the one
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
    private Serializer<I> valueSerializer;
    private Deserializer<I> valueDeserializer;

    private WatermarkTracker watermark;
    TimerService timers;
    private TtlCleaner ttl;
    private MicroBatchBuffer<Layout.BufferEntry> buffer;

    private long lastInputWallClock;
    /**
     * Event time, micro-batch: the watermark of the last pass that fired timers (Long.MIN_VALUE: none since start).
     * A pass without data fires timers only when the watermark moved past it (see {@link #runMicroBatch}).
     */
    private long lastTimerPassWatermark = Long.MIN_VALUE;
    /**
     * Micro-batch, event time: the watermark the last batch ran with (Long.MIN_VALUE: none), which this batch drops
     * late rows with, as Spark; known once a batch ran since the operator started.
     */
    private long previousBatchWatermark = Long.MIN_VALUE;

    private boolean previousBatchWatermarkKnown;

    private long batchId;
    private long epochStartWallClock;
    private boolean metaLoaded;

    private ProcessingContext timeContext;
    private Output<K, O> output;
    OperatorMetrics metrics;

    UUID queryId;
    UUID runId;
    /** Late and too-far-ahead records: counted, recorded and logged as by every operator shell. */
    private InputDrops drops;

    private long droppedNullKey;

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
        if (config.executionMode() == ExecutionMode.MICRO_BATCH) {
            Serde<I> vs = spec.valueSerde() != null ? spec.valueSerde() : (Serde<I>) context.valueSerde();
            valueSerializer = vs.serializer();
            valueDeserializer = vs.deserializer();
        }
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
        ttl = new TtlCleaner(keys, config.ttlCleanupBatch());
        buffer = MicroBatchBuffer.prefixed(store, Layout.BUFFER, Layout::encodeBufferEntry, Layout::decodeBufferEntry);
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
        checkAndPersistMetadata(OperatorMetadata.fingerprint(ks));
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
     * (not in init). The operator's declaration is checked and persisted in init ({@link #checkAndPersistMetadata}).
     */
    private void loadMeta() {
        if (metaLoaded) {
            return;
        }
        metaLoaded = true;
        timers.resetKeyIndex();
        watermark.load();
        byte[] b = keys.store.get(Bytes.wrap(Layout.metaKey(Layout.META_BATCH_ID)));
        batchId = b == null ? 0 : ByteLayout.getLong(b, 0);
        if (config.executionMode() == ExecutionMode.MICRO_BATCH) {
            buffer.load();
        }
        LOG.debug(
                "operator {} restored watermark={}, batchId={}",
                spec.name(),
                watermark.has() ? watermark.value() : "none",
                batchId);
    }

    /**
     * Restart-time validation (Spark's operator state metadata and schema check), when the task starts: after
     * {@code init} declared the variables and before any record, initial-state row or timer is handled (Kafka Streams
     * restores the store before it initializes the processors). What {@code init} declared must be able to read what
     * earlier runs stored; then the new declaration is persisted. A refused restart fails the task's initialization.
     *
     * @param keySerde the fingerprint of the grouping key's serde
     */
    private void checkAndPersistMetadata(String keySerde) {
        OperatorMetadata now = new OperatorMetadata(
                timeMode.name(), String.valueOf(spec.outputMode()), keySerde, handle.declared, Map.of());
        Bytes key = Bytes.wrap(Layout.metaKey(Layout.META_OPERATOR));
        byte[] stored = keys.store.get(key);
        if (stored != null) {
            OperatorMetadata.checkReadable(stored, spec.name(), spec.storeName());
        }
        OperatorMetadata before = stored == null ? null : OperatorMetadata.decode(stored);
        if (before != null) {
            Map<String, dev.rtmstreams.processor.EvolvableSerde<?>> evolvable = new java.util.HashMap<>();
            handle.evolving.forEach((name, s) -> evolvable.put(name, s.serde()));
            now.checkCompatibleWith(before, spec.name(), evolvable, schemaEvolutionThreshold);
        }
        OperatorMetadata next = now.after(before, handle.toDelete);
        if (next.formatVersion() > writeFormatVersion) {
            throw new dev.rtmstreams.processor.errors.StateFormatVersionNotWritableException(
                    spec.name(), spec.storeName(), next.formatVersion(), writeFormatVersion, next.evolvableNames());
        }
        handle.evolving.forEach((name, s) -> s.bind(next.variables().get(name).valueSchemas()));
        if (!next.equals(before)) {
            keys.store.put(key, next.encode());
        }
    }

    private void registerMetrics(ProcessingContext context) {
        metrics = new OperatorMetrics(
                context.metrics(),
                Thread.currentThread().getName(),
                context.taskId().toString(),
                spec.name());
        OperatorMetrics m = metrics;
        drops = new InputDrops("operator " + spec.name(), () -> m.lateRecords, () -> m.futureRecords);
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
            dropNullKey();
            return;
        }
        long now = timeContext.currentSystemTimeMs();
        lastInputWallClock = now;
        long eventTime = 0;
        if (timeMode == TimeMode.EVENT_TIME) {
            eventTime = spec.eventTimeExtractor().extract(key, value, timestamp);
            if (dropIfLate(eventTime) || dropIfTooFarAhead(eventTime, now)) {
                return;
            }
        }
        TimerValuesImpl tv = new TimerValuesImpl(now, watermarkForTimerValues());
        keys.enter(keySerializer.serialize(topic, key), now);
        keys.state = HandleState.DATA_PROCESSED;
        try {
            Iterator<O> out;
            try {
                out = processor.handleInputRows(key, new SingleRowIterator<>(value), tv);
            } catch (RuntimeException e) {
                throw userFunctionError("handleInputRows", e);
            }
            forwardAll("handleInputRows", out, key, timestamp, headers);
        } finally {
            keys.exit();
        }
        if (timeMode == TimeMode.EVENT_TIME) {
            watermark.observe(eventTime);
        }
        fireDueTimers(now);
    }

    private boolean dropIfLate(long eventTime) {
        if (!watermark.isLate(eventTime)) {
            return false;
        }
        drops.late(eventTime, watermark.value());
        return true;
    }

    /**
     * Micro-batch, event time: drops a row at or below the watermark of the previous batch, the one Spark filters late
     * rows with ({@code eventTimeWatermarkForLateEvents}; timers fire with the current one). Before the first batch
     * since the operator started it uses the current watermark (the previous one is not persisted).
     */
    private boolean dropIfLateForBatch(long eventTime) {
        if (!previousBatchWatermarkKnown) {
            return dropIfLate(eventTime);
        }
        if (previousBatchWatermark == Long.MIN_VALUE || !Watermarks.isLate(eventTime, previousBatchWatermark)) {
            return false;
        }
        drops.late(eventTime, previousBatchWatermark);
        return true;
    }

    /** The watermark guard ({@link RtmProcessorConfig#MAX_EVENT_TIME_SKEW_MS_CONFIG}). */
    private boolean dropIfTooFarAhead(long eventTime, long now) {
        if (!RtmProcessorConfig.tooFarAhead(eventTime, now, config.maxEventTimeSkewMs())) {
            return false;
        }
        drops.tooFarAhead(eventTime, now, config.maxEventTimeSkewMs());
        return true;
    }

    private void dropNullKey() {
        droppedNullKey++;
        metrics.nullKeyRecords.record();
        if (droppedNullKey == 1 || droppedNullKey % 10_000 == 0) {
            LOG.warn("operator {} dropped {} record(s) with a null grouping key", spec.name(), droppedNullKey);
        }
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
     * any other exception from user code is wrapped as {@code TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR}.
     */
    /**
     * Wraps what a user function threw, except our own errors and Kafka Streams' task-level signals: a state write
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
            dropNullKey();
            return;
        }
        loadMeta();
        StatefulProcessorWithInitialState<K, I, O, S> p = (StatefulProcessorWithInitialState<K, I, O, S>) processor;
        byte[] keyBytes = keySerializer.serialize(topic, key);
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
        if (timeMode == TimeMode.EVENT_TIME) {
            watermark.applyIdleTimeout(now, lastInputWallClock);
        }
        fireDueTimers(now);
        cleanupTtl(now);
        if (now - epochStartWallClock >= config.commitIntervalMs()) {
            epochStartWallClock = now;
            incrementBatchId();
        }
    }

    private void incrementBatchId() {
        batchId++;
        keys.store.put(Bytes.wrap(Layout.metaKey(Layout.META_BATCH_ID)), ByteLayout.longValue(batchId));
    }

    // ---------------------------------------------------------------- timers

    /**
     * Fires the due timers of the operator's time mode: those at or below the watermark (event time; none before
     * the first watermark) or at or below now (processing time), in time order, each once (Spark 4.2's
     * {@code TimerStateImpl.getExpiredTimers} returns the timers whose time is at most the batch timestamp or the
     * eviction watermark, as the differential test against Spark shows). As in Spark
     * ({@code TransformWithStateExec#handleTimerRows}) a timer is deleted after {@code handleExpiredTimer} returned
     * and its output was forwarded, so {@code listTimers()} inside the handler still lists it. A due timer that an
     * earlier handler of this pass deleted does not fire. Timers registered while firing fire in the next pass.
     */
    private boolean watermarkMovedSinceLastTimerPass() {
        return !watermark.has()
                || lastTimerPassWatermark == Long.MIN_VALUE
                || watermark.value() > lastTimerPassWatermark;
    }

    private void fireDueTimers(long now) {
        long upTo;
        if (timeMode == TimeMode.EVENT_TIME) {
            if (!watermark.has()) {
                return;
            }
            upTo = watermark.value();
            lastTimerPassWatermark = upTo;
        } else if (timeMode == TimeMode.PROCESSING_TIME) {
            upTo = now;
        } else {
            return;
        }
        // TimerService#due takes an exclusive bound
        List<TimerService.Timer> due = timers.due(upTo == Long.MAX_VALUE ? upTo : upTo + 1);
        if (due.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        for (TimerService.Timer timer : due) {
            if (timers.exists(timer.key(), timer.time())) {
                fireTimer(timer, now);
            }
        }
        timers.passDone(true);
        metrics.timerProcessingMs.record((System.nanoTime() - start) / 1e6);
    }

    private void fireTimer(TimerService.Timer timer, long now) {
        long t = timer.time();
        K key = keyDeserializer.deserialize(topic, timer.key());
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

    // ---------------------------------------------------------------- TTL

    private void cleanupTtl(long now) {
        if (!handle.anyTtl) {
            return;
        }
        int removed = ttl.cleanup(now, handle.variables);
        if (removed > 0) {
            metrics.ttlExpiredRemoved.record(removed);
        }
    }

    // ---------------------------------------------------------------- micro-batch contract

    /** Micro-batch contract: appends the row, with its record timestamp and headers, to the persisted buffer. */
    void bufferRecord(K key, I value, long timestamp, Headers headers) {
        loadMeta();
        if (key == null) {
            dropNullKey();
            return;
        }
        lastInputWallClock = timeContext.currentSystemTimeMs();
        buffer.append(new Layout.BufferEntry(
                keySerializer.serialize(topic, key),
                timestamp,
                value == null ? null : valueSerializer.serialize(topic, value),
                headers));
    }

    /** The rows of one key in one batch, with the timestamp and headers its output gets. */
    private static final class KeyRows<K, I> {
        final byte[] keyBytes;
        final K key;
        final List<I> rows = new ArrayList<>();
        long timestamp = Long.MIN_VALUE;
        /** Headers of the key's latest (last arrived) row in this batch. */
        Headers headers;

        KeyRows(byte[] keyBytes, K key) {
            this.keyBytes = keyBytes;
            this.key = key;
        }
    }

    /**
     * Runs one micro-batch at wall-clock time {@code now}: every buffered row, grouped by key in first-arrival
     * order, one {@code handleInputRows} call per key with its rows in arrival order; processing time and
     * watermark are constant within the batch (the watermark computed at the end of the previous batch, as in
     * Spark; rows at or below the watermark the previous batch ran with are late, as Spark's watermark for late
     * events); then due timers fire (also when the batch has no data, in event time only once the watermark moved
     * since the last batch, as Spark), the watermark advances, the batch id
     * increments and TTL cleanup runs (also when a processing-time batch has no data). Buffered rows are deleted only after the batch ran (at-least-once).
     */
    void runMicroBatch(long now) {
        if (closed) {
            return;
        }
        loadMeta();
        if (timeMode == TimeMode.EVENT_TIME) {
            watermark.applyIdleTimeout(now, lastInputWallClock);
        }
        if (!buffer.mayHoldEntries()) {
            // No new data. Like Spark (TransformWithStateExec#shouldRunAnotherBatch), a no-data batch still runs in
            // processing-time mode (timers, a new batch id) but not otherwise: the watermark moves only with data
            // (or the idle timeout, whose due timers fire here). Either way the buffer scan is skipped, which keeps a
            // short or as-fast-as-possible interval cheap when input pauses between loop passes. A processing-time
            // no-data batch also evicts expired TTL state, as Spark's commit of every batch does
            // (TransformWithStateExec: processorHandle.doTtlCleanup() before store.commit()).
            // In event time Spark runs such a batch only when the watermark moved (shouldRunAnotherBatch:
            // new watermark > the last batch's), so a timer a handler registered below an unchanged watermark fires
            // with the next data or the next watermark move, not in a batch of its own.
            if (timeMode != TimeMode.EVENT_TIME || watermarkMovedSinceLastTimerPass()) {
                fireDueTimers(now);
                rememberBatchWatermark();
            }
            if (timeMode == TimeMode.PROCESSING_TIME) {
                incrementBatchId();
                cleanupTtl(now);
            }
            return;
        }
        List<KeyValue<Bytes, Layout.BufferEntry>> rows = buffer.read();
        Map<Bytes, KeyRows<K, I>> byKey = new LinkedHashMap<>();
        long batchMaxEventTime = Long.MIN_VALUE;
        for (KeyValue<Bytes, Layout.BufferEntry> row : rows) {
            Layout.BufferEntry e = row.value;
            byte[] kb = e.key();
            I value = e.value() == null ? null : valueDeserializer.deserialize(topic, e.value());
            KeyRows<K, I> kr = byKey.computeIfAbsent(
                    Bytes.wrap(kb), b -> new KeyRows<>(kb, keyDeserializer.deserialize(topic, kb)));
            if (timeMode == TimeMode.EVENT_TIME) {
                long et = spec.eventTimeExtractor().extract(kr.key, value, e.timestamp());
                if (dropIfLateForBatch(et) || dropIfTooFarAhead(et, now)) {
                    continue;
                }
                batchMaxEventTime = Math.max(batchMaxEventTime, et);
            }
            kr.rows.add(value);
            kr.timestamp = Math.max(kr.timestamp, e.timestamp());
            kr.headers = e.headers();
        }
        TimerValuesImpl tv = new TimerValuesImpl(now, watermarkForTimerValues());
        for (KeyRows<K, I> kr : byKey.values()) {
            if (kr.rows.isEmpty()) {
                continue;
            }
            keys.enter(kr.keyBytes, now);
            keys.state = HandleState.DATA_PROCESSED;
            try {
                Iterator<O> out;
                try {
                    out = processor.handleInputRows(kr.key, kr.rows.iterator(), tv);
                } catch (RuntimeException e) {
                    throw userFunctionError("handleInputRows", e);
                }
                forwardAll("handleInputRows", out, kr.key, kr.timestamp, kr.headers);
            } finally {
                keys.exit();
            }
        }
        fireDueTimers(now);
        rememberBatchWatermark();
        buffer.delete(rows);
        if (batchMaxEventTime != Long.MIN_VALUE) {
            watermark.observe(batchMaxEventTime);
        }
        incrementBatchId();
        cleanupTtl(now);
    }

    /** After a batch ran (with or without data): the next batch drops late rows with the watermark it ran with. */
    private void rememberBatchWatermark() {
        if (timeMode == TimeMode.EVENT_TIME) {
            previousBatchWatermark = watermark.has() ? watermark.value() : Long.MIN_VALUE;
            previousBatchWatermarkKnown = true;
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

    /** Single-row iterator without a list allocation. */
    private static final class SingleRowIterator<T> implements Iterator<T> {
        private T row;
        private boolean consumed;

        SingleRowIterator(T row) {
            this.row = row;
        }

        @Override
        public boolean hasNext() {
            return !consumed;
        }

        @Override
        public T next() {
            if (consumed) {
                throw new NoSuchElementException();
            }
            consumed = true;
            T r = row;
            row = null;
            return r;
        }
    }
}
