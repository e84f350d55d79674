package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.RtmProcessorMetrics;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.StatefulProcessorWithInitialState;
import dev.rtmstreams.processor.TimeMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-task engine of one operator: owns the processor instance, its handle, the operator store, the
 * watermark, timers, TTL cleanup and the micro-batch buffer. Not thread-safe (a task is single-threaded).
 */
final class OperatorRuntime<K, I, O> {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);
    /** Upper bound of timers fired per pass (more fire at the next pass). */
    private static final int MAX_TIMERS_PER_PASS = 10_000;

    final OperatorSpec<K, I, O> spec;
    final TimeMode timeMode;
    private boolean initialized;
    private boolean closed;

    StatefulProcessor<K, I, O> processor;
    HandleImpl handle;
    KeyValueStore<Bytes, byte[]> store;
    String topic;
    Serializer<K> keySerializer;
    Deserializer<K> keyDeserializer;
    private Serializer<I> valueSerializer;
    private Deserializer<I> valueDeserializer;

    ExecutionMode executionMode;
    long microBatchIntervalMs;
    long timerResolutionMs;
    long idleTimeoutMs;
    int ttlCleanupBatch;
    long watermarkDelayMs;
    long commitIntervalMs;

    // time
    private boolean hasWatermark;
    private long watermark;
    private long maxEventTime = Long.MIN_VALUE;
    private long lastInputWallClock;
    private long nextTimerHint = Long.MIN_VALUE; // Long.MIN_VALUE: unknown, scan
    private long batchId;
    private long epochStartWallClock;
    private long nextSeq;
    private boolean metaLoaded;
    /**
     * Whether a record may be waiting in the micro-batch buffer: set when one is buffered, and at start (the buffer
     * may hold restored records); cleared by a batch.
     */
    private boolean bufferMayHoldRecords = true;

    // current call
    private byte[] currentKeyBytes;
    private byte[] currentKeySuffix;
    private long currentProcessingTime;

    private ProcessingContext timeContext;
    private Output<K, O> output;
    private OperatorMetrics metrics;
    /** Watermark published to the metric reader threads; Long.MIN_VALUE: none yet. */
    private volatile long publishedWatermark = Long.MIN_VALUE;

    UUID queryId;
    UUID runId;
    private long droppedLate;
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
        store = context.getStateStore(spec.storeName());
        topic = spec.storeName();
        Serde<K> ks = spec.keySerde() != null ? spec.keySerde() : (Serde<K>) context.keySerde();
        keySerializer = ks.serializer();
        keyDeserializer = ks.deserializer();
        Map<String, Object> cfg = context.appConfigs();
        executionMode = spec.executionMode() != null
                ? spec.executionMode()
                : ExecutionMode.fromConfig(String.valueOf(cfg.getOrDefault(
                        RtmProcessorConfig.EXECUTION_MODE_CONFIG, RtmProcessorConfig.EXECUTION_MODE_REAL_TIME)));
        microBatchIntervalMs = spec.microBatchInterval() != null
                ? spec.microBatchInterval().toMillis()
                : longConfig(
                        cfg,
                        RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_MICRO_BATCH_INTERVAL_MS);
        timerResolutionMs = spec.timerResolution() != null
                ? spec.timerResolution().toMillis()
                : longConfig(
                        cfg,
                        RtmProcessorConfig.TIMER_RESOLUTION_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_TIMER_RESOLUTION_MS);
        idleTimeoutMs = spec.watermarkIdleTimeout() != null
                ? spec.watermarkIdleTimeout().toMillis()
                : longConfig(
                        cfg,
                        RtmProcessorConfig.WATERMARK_IDLE_TIMEOUT_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_WATERMARK_IDLE_TIMEOUT_MS);
        ttlCleanupBatch = (int) longConfig(
                cfg, RtmProcessorConfig.TTL_CLEANUP_BATCH_CONFIG, RtmProcessorConfig.DEFAULT_TTL_CLEANUP_BATCH);
        commitIntervalMs = longConfig(cfg, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 30_000L);
        if (microBatchIntervalMs <= 0 || timerResolutionMs <= 0 || idleTimeoutMs < 0 || ttlCleanupBatch <= 0) {
            throw new IllegalArgumentException("invalid rtm.* configuration for operator " + spec.name()
                    + ": microBatchIntervalMs=" + microBatchIntervalMs + ", timerResolutionMs=" + timerResolutionMs
                    + ", idleTimeoutMs=" + idleTimeoutMs + ", ttlCleanupBatch=" + ttlCleanupBatch);
        }
        watermarkDelayMs = spec.watermarkDelay().toMillis();
        if (executionMode == ExecutionMode.MICRO_BATCH) {
            Serde<I> vs = spec.valueSerde() != null ? spec.valueSerde() : (Serde<I>) context.valueSerde();
            valueSerializer = vs.serializer();
            valueDeserializer = vs.deserializer();
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
        handle.state = HandleState.CREATED;
        try {
            processor.init(spec.outputMode(), timeMode);
        } catch (RuntimeException e) {
            throw userFunctionError("init", e);
        }
        handle.state = HandleState.INITIALIZED;
        initialized = true;
        registerMetrics(context);
        LOG.debug(
                "operator {} task {} initialized: mode={}, timeMode={}",
                spec.name(),
                context.taskId(),
                executionMode,
                timeMode);
    }

    /**
     * Loads the persisted watermark, batch id and buffer sequence on first use (not in init), so that a store
     * filled after init (restoration, tests) is honoured.
     */
    private void loadMeta() {
        if (metaLoaded) {
            return;
        }
        metaLoaded = true;
        byte[] wm = store.get(Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK)));
        if (wm != null) {
            hasWatermark = true;
            watermark = Layout.getLong(wm, 0);
            publishedWatermark = watermark;
            maxEventTime = Math.max(maxEventTime, watermark + watermarkDelayMs);
        }
        byte[] b = store.get(Bytes.wrap(Layout.metaKey(Layout.META_BATCH_ID)));
        batchId = b == null ? 0 : Layout.getLong(b, 0);
        if (executionMode == ExecutionMode.MICRO_BATCH) {
            nextSeq = lastBufferSeq() + 1;
        }
        LOG.debug(
                "operator {} restored watermark={}, batchId={}",
                spec.name(),
                hasWatermark ? watermark : "none",
                batchId);
    }

    private static long longConfig(Map<String, Object> cfg, String key, long dflt) {
        Object v = cfg.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            return v instanceof Number n
                    ? n.longValue()
                    : Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number: " + v, e);
        }
    }

    private void registerMetrics(ProcessingContext context) {
        metrics = new OperatorMetrics(
                context.metrics(),
                Thread.currentThread().getName(),
                context.taskId().toString(),
                spec.name());
        if (timeMode == TimeMode.EVENT_TIME) {
            metrics.gauge(RtmProcessorMetrics.WATERMARK, "event-time watermark of the task in epoch ms", () -> {
                long w = publishedWatermark;
                return w == Long.MIN_VALUE ? Double.NaN : (double) w;
            });
        }
        KeyValueStore<Bytes, byte[]> s = store;
        metrics.gauge(RtmProcessorMetrics.STORE_ENTRIES, "approximate number of entries in the operator store", () ->
                (double) s.approximateNumEntries());
    }

    /**
     * @param context the context of the processor that forwards (source of the wall clock)
     * @param output where output records go
     */
    void setOutput(ProcessingContext context, Output<K, O> output) {
        this.timeContext = context;
        this.output = output;
    }

    // ---------------------------------------------------------------- current key and time

    byte[] currentKeySuffix(String stateName) {
        if (currentKeySuffix == null) {
            throw new StateErrors.ImplicitKeyNotFoundException(stateName);
        }
        return currentKeySuffix;
    }

    byte[] currentKeyBytes(String what) {
        if (currentKeyBytes == null) {
            throw new StateErrors.ImplicitKeyNotFoundException(what);
        }
        return currentKeyBytes;
    }

    /** Processing time of the current call (constant within a micro-batch). */
    long currentProcessingTime() {
        return currentProcessingTime;
    }

    long watermarkForTimerValues() {
        loadMeta();
        return hasWatermark ? watermark : 0L;
    }

    long batchId() {
        loadMeta();
        return batchId;
    }

    private void setKey(byte[] keyBytes, long processingTime) {
        currentKeyBytes = keyBytes;
        currentKeySuffix = Layout.keySuffix(keyBytes);
        currentProcessingTime = processingTime;
    }

    private void clearKey() {
        currentKeyBytes = null;
        currentKeySuffix = null;
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
            if (isLate(eventTime)) {
                return;
            }
        }
        byte[] keyBytes = keySerializer.serialize(topic, key);
        TimerValuesImpl tv = new TimerValuesImpl(now, watermarkForTimerValues());
        setKey(keyBytes, now);
        handle.state = HandleState.DATA_PROCESSED;
        try {
            Iterator<O> out;
            try {
                out = processor.handleInputRows(key, new SingleRowIterator<>(value), tv);
            } catch (RuntimeException e) {
                throw userFunctionError("handleInputRows", e);
            }
            forwardAll("handleInputRows", out, key, timestamp, headers);
        } finally {
            clearKey();
        }
        if (timeMode == TimeMode.EVENT_TIME) {
            observeEventTime(eventTime);
        }
        fireDueTimersForTimeMode(now);
    }

    /** Spark's rule ({@code WatermarkSupport.watermarkExpression}): a row at or below the watermark is late. */
    private boolean isLate(long eventTime) {
        if (hasWatermark && eventTime <= watermark) {
            droppedLate++;
            metrics.lateRecords.record();
            if (LOG.isDebugEnabled()) {
                LOG.debug(
                        "operator {} dropped a late record: eventTime={} <= watermark={} ({} so far)",
                        spec.name(),
                        eventTime,
                        watermark,
                        droppedLate);
            }
            return true;
        }
        return false;
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
    private static RuntimeException userFunctionError(String function, RuntimeException e) {
        return e instanceof dev.rtmstreams.processor.RtmException
                ? e
                : new StateErrors.UserFunctionException(function, e);
    }

    private void observeEventTime(long eventTime) {
        if (eventTime > maxEventTime) {
            maxEventTime = eventTime;
        }
        advanceWatermark(eventTime - watermarkDelayMs);
    }

    /** Watermark never regresses; persisted on every advance so it survives restarts. */
    private void advanceWatermark(long candidate) {
        if (!hasWatermark || candidate > watermark) {
            hasWatermark = true;
            watermark = candidate;
            publishedWatermark = candidate;
            store.put(Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK)), Layout.longValue(candidate));
        }
    }

    // ---------------------------------------------------------------- initial state

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
        if (store.get(seenKey) != null) {
            throw new StateErrors.CannotReinitializeStateOnKeyException(String.valueOf(key));
        }
        store.put(seenKey, Layout.EMPTY);
        setKey(keyBytes, now);
        HandleState before = handle.state;
        handle.state = HandleState.INITIALIZED;
        try {
            p.handleInitialState(key, initialState, new TimerValuesImpl(now, watermarkForTimerValues()));
        } catch (RuntimeException e) {
            throw userFunctionError("handleInitialState", e);
        } finally {
            clearKey();
            handle.state = before;
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
            applyIdleTimeout(now);
        }
        fireDueTimersForTimeMode(now);
        cleanupTtl(now);
        if (now - epochStartWallClock >= commitIntervalMs) {
            epochStartWallClock = now;
            incrementBatchId();
        }
    }

    private void applyIdleTimeout(long now) {
        if (idleTimeoutMs > 0 && maxEventTime != Long.MIN_VALUE && now - lastInputWallClock >= idleTimeoutMs) {
            advanceWatermark(maxEventTime + (now - lastInputWallClock) - watermarkDelayMs);
        }
    }

    private void incrementBatchId() {
        batchId++;
        store.put(Bytes.wrap(Layout.metaKey(Layout.META_BATCH_ID)), Layout.longValue(batchId));
    }

    // ---------------------------------------------------------------- timers

    void registerTimer(long time) {
        byte[] key = currentKeyBytes("timers");
        store.put(Bytes.wrap(Layout.timerKey(time, key)), Layout.EMPTY);
        store.put(Bytes.wrap(Layout.timerByKey(key, time)), Layout.EMPTY);
        if (nextTimerHint != Long.MIN_VALUE && time < nextTimerHint) {
            nextTimerHint = time;
        }
    }

    void deleteTimer(long time) {
        byte[] key = currentKeyBytes("timers");
        store.delete(Bytes.wrap(Layout.timerKey(time, key)));
        store.delete(Bytes.wrap(Layout.timerByKey(key, time)));
    }

    Iterator<Long> listTimers() {
        byte[] key = currentKeyBytes("timers");
        byte[] prefix = Layout.timerByKeyPrefix(key);
        List<Long> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(Bytes.wrap(prefix), BytesSer.INSTANCE)) {
            while (it.hasNext()) {
                byte[] k = it.next().key.get();
                if (k.length == prefix.length + 8) {
                    out.add(Layout.getTime(k, prefix.length));
                }
            }
        }
        return out.iterator();
    }

    /** Fires the due timers of the operator's time mode: up to the watermark (event time) or now (processing time). */
    private void fireDueTimersForTimeMode(long now) {
        if (timeMode == TimeMode.EVENT_TIME) {
            fireDueTimers(watermark, now);
        } else if (timeMode == TimeMode.PROCESSING_TIME) {
            fireDueTimers(now, now);
        }
    }

    /**
     * Fires every timer with time strictly below {@code upTo} (processing time: now; event time: the watermark), in
     * time order, each once, as Spark's {@code TimerStateImpl.getExpiredTimers} ({@code <}). As in Spark, the timer
     * is deleted after {@code handleExpiredTimer} returned and its output was forwarded, so {@code listTimers()}
     * inside the handler still lists it (and re-registering the same time there does not keep it). A due timer that
     * an earlier handler of this pass deleted does not fire. Timers registered below {@code upTo} while firing fire
     * in the next pass.
     */
    private void fireDueTimers(long upTo, long now) {
        if (timeMode == TimeMode.EVENT_TIME && !hasWatermark) {
            return;
        }
        if (nextTimerHint != Long.MIN_VALUE && nextTimerHint >= upTo) {
            return;
        }
        List<KeyValue<Long, byte[]>> due = new ArrayList<>();
        long next = Long.MAX_VALUE;
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(Layout.timeSectionStart(Layout.TIMER)),
                Bytes.wrap(Layout.timeSectionEnd(Layout.TIMER, Long.MAX_VALUE)))) {
            while (it.hasNext()) {
                byte[] k = it.next().key.get();
                long t = Layout.getTime(k, 1);
                if (t >= upTo || due.size() >= MAX_TIMERS_PER_PASS) {
                    next = t;
                    break;
                }
                due.add(KeyValue.pair(t, java.util.Arrays.copyOfRange(k, 9, k.length)));
            }
        }
        nextTimerHint = next;
        for (KeyValue<Long, byte[]> timer : due) {
            long t = timer.key;
            byte[] keyBytes = timer.value;
            Bytes timerKey = Bytes.wrap(Layout.timerKey(t, keyBytes));
            if (store.get(timerKey) == null) {
                continue; // deleted by a handler that ran earlier in this pass
            }
            K key = keyDeserializer.deserialize(topic, keyBytes);
            setKey(keyBytes, now);
            handle.state = HandleState.TIMER_PROCESSED;
            long outputTs = timeMode == TimeMode.EVENT_TIME ? t : now;
            metrics.timersFired.record();
            try {
                Iterator<O> out;
                try {
                    out = processor.handleExpiredTimer(
                            key, new TimerValuesImpl(now, watermarkForTimerValues()), new TimerValuesImpl.Expired(t));
                } catch (RuntimeException e) {
                    throw userFunctionError("handleExpiredTimer", e);
                }
                forwardAll("handleExpiredTimer", out, key, outputTs, null);
                store.delete(timerKey);
                store.delete(Bytes.wrap(Layout.timerByKey(keyBytes, t)));
            } finally {
                clearKey();
            }
        }
        if (!due.isEmpty()) {
            nextTimerHint = Long.MIN_VALUE; // timers may have been registered while firing: rescan next time
        }
    }

    // ---------------------------------------------------------------- TTL

    /**
     * Bounded incremental TTL cleanup (after Spark's TTL secondary index): walks the expiry-ordered index up to
     * {@code now}, at most {@code rtm.ttl.cleanup.batch} entries per pass, and physically removes what expired.
     * Index entries made stale by later writes are just dropped. Expired values are invisible before this runs.
     */
    int cleanupTtl(long now) {
        if (!handle.anyTtl) {
            return 0;
        }
        List<byte[]> index = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(Layout.timeSectionStart(Layout.TTL)), Bytes.wrap(Layout.timeSectionEnd(Layout.TTL, now)))) {
            while (it.hasNext() && index.size() < ttlCleanupBatch) {
                byte[] k = it.next().key.get();
                if (Layout.getTime(k, 1) <= now) {
                    index.add(k);
                }
            }
        }
        int removed = 0;
        for (byte[] k : index) {
            byte[] primary = java.util.Arrays.copyOfRange(k, 9, k.length);
            StateVariable var = handle.variables.get(Layout.stateNameOf(primary, 0));
            if (var != null) {
                removed += var.removeExpired(primary, now);
            }
            store.delete(Bytes.wrap(k));
        }
        if (removed > 0) {
            metrics.ttlExpiredRemoved.record(removed);
        }
        return index.size();
    }

    // ---------------------------------------------------------------- micro-batch contract

    /**
     * Micro-batch contract: appends the row, with its record timestamp and headers, to the persisted buffer (see
     * {@link Layout#encodeBufferEntry}).
     */
    void bufferRecord(K key, I value, long timestamp, Headers headers) {
        loadMeta();
        if (key == null) {
            dropNullKey();
            return;
        }
        lastInputWallClock = timeContext.currentSystemTimeMs();
        byte[] k = keySerializer.serialize(topic, key);
        byte[] v = value == null ? null : valueSerializer.serialize(topic, value);
        store.put(Bytes.wrap(Layout.bufferKey(nextSeq++)), Layout.encodeBufferEntry(k, timestamp, v, headers));
        bufferMayHoldRecords = true;
    }

    private long lastBufferSeq() {
        try (KeyValueIterator<Bytes, byte[]> it = store.reverseRange(
                Bytes.wrap(Layout.bufferKey(Long.MIN_VALUE)), Bytes.wrap(Layout.bufferKey(Long.MAX_VALUE)))) {
            return it.hasNext() ? Layout.getTime(it.next().key.get(), 1) : -1L;
        }
    }

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
     * Spark); then due timers fire (also when the batch has no data), the watermark advances, the batch id
     * increments and TTL cleanup runs. Buffered rows are deleted only after the batch ran (at-least-once).
     */
    void runMicroBatch(long now) {
        if (closed) {
            return;
        }
        loadMeta();
        if (timeMode == TimeMode.EVENT_TIME) {
            applyIdleTimeout(now);
        }
        if (!bufferMayHoldRecords) {
            // No new data. Like Spark (TransformWithStateExec#shouldRunAnotherBatch), a no-data batch still runs in
            // processing-time mode (timers, a new batch id) but not otherwise: the watermark moves only with data
            // (or the idle timeout, whose due timers fire here). Either way the buffer scan is skipped, which keeps a
            // short or as-fast-as-possible interval cheap when input pauses between loop passes.
            fireDueTimersForTimeMode(now);
            if (timeMode == TimeMode.PROCESSING_TIME) {
                incrementBatchId();
            }
            return;
        }
        bufferMayHoldRecords = false;
        Map<Bytes, KeyRows<K, I>> byKey = new LinkedHashMap<>();
        List<Bytes> bufferKeys = new ArrayList<>();
        long batchMaxEventTime = Long.MIN_VALUE;
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(Layout.bufferKey(Long.MIN_VALUE)), Bytes.wrap(Layout.bufferKey(Long.MAX_VALUE)))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                bufferKeys.add(kv.key);
                Layout.BufferEntry e = Layout.decodeBufferEntry(kv.value);
                byte[] kb = e.key();
                long ts = e.timestamp();
                I value = e.value() == null ? null : valueDeserializer.deserialize(topic, e.value());
                KeyRows<K, I> kr = byKey.computeIfAbsent(
                        Bytes.wrap(kb), b -> new KeyRows<>(kb, keyDeserializer.deserialize(topic, kb)));
                if (timeMode == TimeMode.EVENT_TIME) {
                    long et = spec.eventTimeExtractor().extract(kr.key, value, ts);
                    if (isLate(et)) {
                        continue;
                    }
                    batchMaxEventTime = Math.max(batchMaxEventTime, et);
                }
                kr.rows.add(value);
                kr.timestamp = Math.max(kr.timestamp, ts);
                kr.headers = e.headers();
            }
        }
        TimerValuesImpl tv = new TimerValuesImpl(now, watermarkForTimerValues());
        for (KeyRows<K, I> kr : byKey.values()) {
            if (kr.rows.isEmpty()) {
                continue;
            }
            setKey(kr.keyBytes, now);
            handle.state = HandleState.DATA_PROCESSED;
            try {
                Iterator<O> out;
                try {
                    out = processor.handleInputRows(kr.key, kr.rows.iterator(), tv);
                } catch (RuntimeException e) {
                    throw userFunctionError("handleInputRows", e);
                }
                forwardAll("handleInputRows", out, kr.key, kr.timestamp, kr.headers);
            } finally {
                clearKey();
            }
        }
        fireDueTimersForTimeMode(now);
        for (Bytes k : bufferKeys) {
            store.delete(k);
        }
        if (batchMaxEventTime != Long.MIN_VALUE) {
            observeEventTime(batchMaxEventTime);
        }
        incrementBatchId();
        cleanupTtl(now);
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
        try {
            if (processor != null) {
                try {
                    processor.close();
                } catch (RuntimeException e) {
                    throw userFunctionError("close", e);
                }
            }
        } finally {
            if (handle != null) {
                handle.state = HandleState.CLOSED;
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
                throw new java.util.NoSuchElementException();
            }
            consumed = true;
            T r = row;
            row = null;
            return r;
        }
    }
}
