package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.ValueJoiner3;
import dev.rtmstreams.processor.spi.TaskShared;
import dev.rtmstreams.processor.spi.TimeQueue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The join algorithm of one task, as seen from one of the two side processors (both processors of a task share the
 * same stores). Modelled on Kafka Streams' {@code KStreamKStreamJoin} (each side puts its row into its own buffer and
 * probes the other side's buffer) with Spark's watermark rules ({@code StreamingSymmetricHashJoinExec},
 * {@code StreamingJoinHelper}): late = event time at or below the global watermark ({@code t <= wm}, Spark's
 * {@code WatermarkSupport.watermarkExpression}); a left row is evicted once {@code wm > t + upper}, a right row once
 * {@code wm > t - lower} (Spark's state watermark for inclusive bounds, {@code getStateWatermark}: the {@code <=}
 * conjunct shifts it 1 ms down, so a row is kept 1 ms of watermark longer than a match could need).
 *
 * <p>This class drives the task's parts for one side processor: each side's rows ({@link SideBuffer}), the watermarks
 * and sequence allocator ({@link JoinMeta}), the records not joined ({@link JoinDrops}), the rows' bytes
 * ({@link JoinSerdes}) and the matching ({@link JoinMatcher}). It runs the real-time contract itself and hands the
 * micro-batch contract to {@link JoinMicroBatch}.
 */
final class JoinCore<K, L, R, VR> {

    private static final int EVICT_EVERY = 16;
    /**
     * A record-triggered eviction pass runs only once the rows it may evict span at least this much event time, so
     * that at high rates a pass evicts hundreds of rows for the one RocksDB iterator it opens (in a steady state at
     * 10k events/s, passes every 16 records spent a third of the eviction's time opening iterators). State is kept at
     * most this much event time longer; the punctuator and micro-batch passes are not held back.
     */
    static final long EVICT_MIN_SPAN_MS = 100;

    private final ProcessorContext<K, Object> context;
    /** Per side (0 = left, 1 = right). */
    private final SideBuffer[] sides;
    /** The task's shared join state (filters, meta), dropped when both side processors of this incarnation closed. */
    private final TaskShared<JoinTaskState> taskState;

    private final JoinMeta meta;
    private final JoinSensors sensors;
    private final JoinDrops<K> drops;
    private final JoinSerdes<K, L, R> serdes;
    private final JoinMatcher<K, L, R, VR> matcher;
    private final JoinMicroBatch<K> microBatch;

    private int sinceEviction;

    JoinCore(
            JoinSpec<K, L, R> spec,
            ValueJoiner3<K, L, R, VR> joiner,
            ProcessorContext<K, Object> context,
            long idleTimeoutMs,
            TaskShared<JoinTaskState> taskState) {
        this.context = context;
        this.serdes = new JoinSerdes<>(spec);
        this.taskState = taskState;
        JoinTaskState shared = taskState.acquire(context, JoinTaskState::new);
        try {
            boolean build = !shared.indexesBuilt;
            if (build) {
                shared.filters = new BufferKeyFilter[] {SideBuffer.newKeyFilter(spec), SideBuffer.newKeyFilter(spec)};
                shared.idFilters =
                        new BufferKeyFilter[] {SideBuffer.newIdFilter(spec, true), SideBuffer.newIdFilter(spec, false)};
                shared.timeIndexes = new TimeQueue[] {
                    SideBuffer.newTimeIndex(spec, context, true), SideBuffer.newTimeIndex(spec, context, false)
                };
            }
            this.sides = new SideBuffer[] {
                new SideBuffer(true, spec, context, shared), new SideBuffer(false, spec, context, shared)
            };
            if (build) {
                sides[0].rebuild((keyBytes, row) -> serdes.rowIdBytes(true, keyBytes, row));
                sides[1].rebuild((keyBytes, row) -> serdes.rowIdBytes(false, keyBytes, row));
                shared.indexesBuilt = true;
            }
            this.meta = new JoinMeta(spec, context, shared, idleTimeoutMs, sides[0], sides[1]);
            this.sensors = new JoinSensors(spec, context);
            sensors.gaugeTimeIndex(0, shared.timeIndexes[0]);
            sensors.gaugeTimeIndex(1, shared.timeIndexes[1]);
            this.drops = new JoinDrops<>(spec, context, sensors);
            this.matcher = new JoinMatcher<>(spec, joiner, context, serdes, sides, meta, drops);
            this.microBatch = new JoinMicroBatch<>(spec, context, shared, serdes, meta, drops, matcher);
        } catch (RuntimeException e) {
            // a processor whose init failed is not closed with a core: its hold is given up here
            taskState.release(context);
            throw e;
        }
    }

    /** Sets a side's eviction hint from its oldest row (one seek); called at task init. */
    void initEvictionHint(boolean left) {
        sides[left ? 0 : 1].initEvictionHint();
    }

    // ---------------------------------------------------------------- real-time contract

    /** Handles one input record of one side under the real-time contract: late check, probe, insert, evict. */
    void processRealTime(boolean left, Record<K, ?> record, long eventTime) {
        meta.markActive(left);
        byte[] valueBytes = serdes.serializeValue(left, record.value());
        Meta m = meta.get();
        boolean metaMustBeWritten = false;
        if (JoinDrops.isLate(eventTime, m.global())) {
            drops.late(left, eventTime, m.global(), record.key(), valueBytes, record.timestamp(), record.headers());
        } else {
            byte[] keyBytes = serdes.serializeKey(left, record.key());
            metaMustBeWritten = matcher.joinAndInsert(
                    left,
                    record.key(),
                    keyBytes,
                    record.value(),
                    eventTime,
                    valueBytes,
                    record.timestamp(),
                    record.headers(),
                    m,
                    m.global());
        }
        // Like Spark, every input row (late ones too) feeds its input's max event time.
        m.observe(left, eventTime);
        meta.advance(m);
        // A new sequence block is always persisted before its first number is used. The watermarks are persisted with
        // each change only when they could not be recovered from the buffers (see JoinMeta#lazyAllowed: then the
        // shell's PersistedWatermarks never writes a move on its own): a changelog write per input record saved.
        if (metaMustBeWritten) {
            meta.write(m);
        } else {
            meta.persistIfMoved(m);
        }
        // Record-triggered eviction runs every EVICT_EVERY records of this side (one index iterator per pass); the
        // wall-clock punctuator covers idle sides. Lazy eviction never changes the output, only the state size.
        if (++sinceEviction >= EVICT_EVERY) {
            sinceEviction = 0;
            matcher.evict(left, m.global(), EVICT_MIN_SPAN_MS);
        }
    }

    /** Punctuation under the real-time contract: one bounded eviction pass over this side. */
    void punctuateRealTime(boolean left) {
        // With an idle timeout, an input can become idle without any record arriving: re-evaluate the watermark.
        meta.advanceIfIdle();
        matcher.evict(left, meta.get().global(), 1);
        sides[left ? 0 : 1].writeLocal(); // the rows inserted since the side was last read, for interactive queries
    }

    // ---------------------------------------------------------------- micro-batch contract

    /** Micro-batch contract: buffers one input record until the next micro-batch ({@link JoinMicroBatch#buffer}). */
    void bufferForMicroBatch(boolean left, Record<K, ?> record, long eventTime) {
        microBatch.buffer(left, record, eventTime);
    }

    /** Micro-batch contract: runs one micro-batch for both sides ({@link JoinMicroBatch#run}). */
    void runMicroBatch() {
        microBatch.run();
        sides[0].writeLocal(); // the batch's rows, for interactive queries
        sides[1].writeLocal();
    }

    // ---------------------------------------------------------------- records not joined

    /**
     * The watermark guard: the record's event time is too far ahead of the wall clock. It is not joined and does not
     * feed its side's max event time; it is counted and, with a late-records topic, written there.
     */
    void tooFarAhead(boolean left, Record<K, ?> record, long eventTime, long now, long maxSkewMs) {
        meta.markActive(left);
        drops.tooFarAhead(
                left,
                eventTime,
                now,
                maxSkewMs,
                record.key(),
                serdes.serializeValue(left, record.value()),
                record.timestamp(),
                record.headers());
    }

    void close() {
        // the task's state may change without this incarnation (a recycled standby applies the changelog): once both
        // side processors closed, the next incarnation rebuilds its filters and meta from the stores
        try {
            sensors.close();
        } finally {
            taskState.release(context);
        }
    }
}
