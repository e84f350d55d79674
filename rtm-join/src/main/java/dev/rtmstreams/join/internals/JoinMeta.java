package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.WatermarkPolicy;
import dev.rtmstreams.processor.errors.StateFormatVersionTooNewException;
import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.InputWatermarks;
import dev.rtmstreams.processor.spi.PersistedWatermarks;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The metadata of one join task, as one side processor sees it: the two inputs' watermark tracker (the operator
 * runtime's {@link InputWatermarks}: side maxima, policy MIN or MAX, idle inputs left out, never moving backwards),
 * the inputs' last arrival for idleness, and the row sequence allocator; live in the task's shared
 * {@link JoinTaskState}, persisted as one record in the changelogged meta store ({@link Meta}'s layout).
 */
final class JoinMeta {

    static final Bytes META_KEY = Bytes.wrap("meta".getBytes(StandardCharsets.UTF_8));

    /**
     * Key of the join's state format version in the meta store: value {@code [version:4]}, written at the first start
     * of a task and checked at every start. It covers every layout of the join's stores ({@link Codec}, {@link Meta},
     * {@link RowBatch}); a release that changes any of them raises {@link #FORMAT_VERSION} and keeps reading the
     * earlier versions it lists in {@link #READABLE_FORMAT_VERSIONS}. A store without the record was written before it
     * existed, in version 1. Version 2 is version 1 with the rows keyed by time segment ({@code EvictionIndex.SEGMENTS},
     * {@link Codec#segmentRowKey}): written only by joins that use segments, so that a release reading only version 1
     * refuses rows it could not find.
     */
    static final Bytes FORMAT_KEY = Bytes.wrap("format".getBytes(StandardCharsets.UTF_8));

    /** The join's newest state format version. */
    static final int FORMAT_VERSION = 2;

    /** Every join state format version this release reads, oldest first. */
    static final List<Integer> READABLE_FORMAT_VERSIONS = List.of(1, 2);

    /** @return the format version a join writes: 2 with segmented rows, else 1 */
    static int formatVersionOf(JoinSpec<?, ?, ?> spec) {
        return spec.evictionIndex() == EvictionIndex.SEGMENTS ? 2 : 1;
    }

    private static final Bytes[] SIDE_KEYS = {Bytes.wrap(new byte[] {0}), Bytes.wrap(new byte[] {1})};
    private static final long SEQ_BLOCK = 4096;

    private final JoinSpec<?, ?, ?> spec;
    private final ProcessorContext<?, ?> context;
    private final KeyValueStore<Bytes, byte[]> store;
    /** Last arrival (wall clock) per input of this task; only used when {@link #idleTimeoutMs} is positive. */
    private final KeyValueStore<Bytes, byte[]> activity;
    /** Watermark idle timeout in ms; 0 = disabled. */
    private final long idleTimeoutMs;

    private final JoinTaskState shared;
    /**
     * Whether the watermark part of the meta record may be written lazily (only with a sequence block): true when the
     * side maxima can be recovered exactly from the buffers after a restart, see {@link #lazyAllowed}.
     */
    private final boolean lazy;

    private final SideBuffer[] buffers;
    /** Per input, its last arrival (wall clock) as read for one idleness check. */
    private final long[] lastInput = new long[2];

    private long lastMarked = Long.MIN_VALUE;
    private long nextSeq;
    private long seqEnd;
    private boolean blockAllocated;

    JoinMeta(
            JoinSpec<?, ?, ?> spec,
            ProcessorContext<?, ?> context,
            JoinTaskState shared,
            long idleTimeoutMs,
            SideBuffer leftBuffer,
            SideBuffer rightBuffer) {
        this.spec = spec;
        this.context = context;
        this.store = context.getStateStore(spec.metaStore());
        this.activity = context.getStateStore(spec.activityStore());
        this.idleTimeoutMs = idleTimeoutMs;
        this.shared = shared;
        this.lazy = lazyAllowed(spec, idleTimeoutMs);
        this.buffers = new SideBuffer[] {leftBuffer, rightBuffer};
    }

    /** @return whether inputs can become idle (a watermark idle timeout is set) */
    boolean idleTimeoutEnabled() {
        return idleTimeoutMs > 0;
    }

    /** @return the task's live metadata (shared by both sides), loaded on first use in this task incarnation */
    Meta get() {
        if (shared.meta == null) {
            shared.meta = load();
        }
        return shared.meta;
    }

    /**
     * The downgrade guard, at task start (after restoration, before any record): refuses a meta store whose format
     * version this release does not read, and records the version of the join's layout ({@link #formatVersionOf}) in
     * a store that has none or another one (the rows are rewritten to that layout when the task starts).
     *
     * @param spec the join
     * @param store the join's meta store
     * @throws StateFormatVersionTooNewException {@code STATE_STORE_FORMAT_VERSION_TOO_NEW} when the store holds state
     *     of a newer format version
     */
    static void checkFormatVersion(JoinSpec<?, ?, ?> spec, KeyValueStore<Bytes, byte[]> store) {
        byte[] v = store.get(FORMAT_KEY);
        int writes = formatVersionOf(spec);
        if (v == null) {
            store.put(FORMAT_KEY, formatVersionValue(writes));
            return;
        }
        int found = v.length >= 4 ? ByteLayout.getInt(v, 0) : -1;
        if (!READABLE_FORMAT_VERSIONS.contains(found)) {
            throw new StateFormatVersionTooNewException(
                    spec.name(),
                    spec.metaStore(),
                    found,
                    FORMAT_VERSION,
                    READABLE_FORMAT_VERSIONS.stream().map(String::valueOf).collect(Collectors.joining(", ")));
        }
        if (found != writes) {
            store.put(FORMAT_KEY, formatVersionValue(writes));
        }
    }

    /** @return the stored form of a format version, {@code [version:4]} */
    static byte[] formatVersionValue(int version) {
        byte[] b = new byte[4];
        ByteLayout.putInt(b, 0, version);
        return b;
    }

    /** Persists the metadata now (e.g. a new sequence block, or the end of a micro-batch). */
    void write(Meta m) {
        m.persisted.write();
    }

    /**
     * Persists the metadata if its watermarks moved since the last write and are not recovered lazily (the end of a
     * record's handling: one write however many times they moved).
     */
    void persistIfMoved(Meta m) {
        m.persisted.persistIfMoved();
    }

    /**
     * Loads the persisted metadata. When the watermarks are persisted lazily, the side maxima are completed from the
     * buffers: the newest row of each side is still buffered (see {@link #lazyAllowed}), so the restored maxima, and
     * the global watermark derived from them, equal those before the restart; the persisted global watermark is kept
     * when it is higher, so the watermark never moves backwards.
     */
    private Meta load() {
        // Moves are written at the end of each record's handling (persistIfMoved), or, when the watermarks are
        // recovered from the buffers after a restart, only with the record's other writes (sequence blocks)
        Meta m = Meta.decode(
                store.get(META_KEY),
                newWatermarks(spec, idleTimeoutMs),
                lazy ? PersistedWatermarks.Persist.RECOVERABLE : PersistedWatermarks.Persist.DEFERRED,
                bytes -> store.put(META_KEY, bytes));
        if (lazy) {
            m.observe(true, buffers[0].newest());
            m.observe(false, buffers[1].newest());
            advance(m);
        }
        return m;
    }

    /**
     * @param spec the join
     * @param idleTimeoutMs the watermark idle timeout in ms; 0: none
     * @return a new watermark tracker of the join's two inputs (0 = left, 1 = right)
     */
    static InputWatermarks newWatermarks(JoinSpec<?, ?, ?> spec, long idleTimeoutMs) {
        return InputWatermarks.of(
                spec.policy() == WatermarkPolicy.MIN ? InputWatermarks.Combine.MIN : InputWatermarks.Combine.MAX,
                InputWatermarks.IdleRule.LEAVE_OUT,
                Math.max(0, idleTimeoutMs),
                spec.leftDelayMs(),
                spec.rightDelayMs());
    }

    /**
     * Allocates a row sequence number from this processor's block; a new block is taken from {@code m}, which must
     * then be persisted before the number is used ({@link #takeBlockAllocated}).
     */
    long nextSeq(Meta m) {
        if (nextSeq >= seqEnd) {
            nextSeq = m.seqHigh;
            seqEnd = nextSeq + SEQ_BLOCK;
            m.seqHigh = seqEnd;
            blockAllocated = true;
        }
        return nextSeq++;
    }

    /** @return whether {@link #nextSeq} took a new block since the last call (then the metadata must be written) */
    boolean takeBlockAllocated() {
        boolean allocated = blockAllocated;
        blockAllocated = false;
        return allocated;
    }

    // ---------------------------------------------------------------- watermark

    /**
     * Recomputes the global watermark from the side maxima; it never moves backwards. Under MIN with an idle timeout,
     * an input without a record for longer than the timeout is left out. @return true when it moved
     */
    boolean advance(Meta m) {
        if (spec.policy() == WatermarkPolicy.MIN && idleTimeoutMs > 0) {
            long now = context.currentSystemTimeMs();
            lastInput[0] = lastInput(0, now);
            lastInput[1] = lastInput(1, now);
            return m.persisted.advance(now, lastInput);
        }
        return m.persisted.advance();
    }

    /** With an idle timeout, re-evaluates the watermark without input (an input can become idle): writes a move. */
    void advanceIfIdle() {
        if (idleTimeoutMs > 0) {
            Meta m = get();
            advance(m);
            persistIfMoved(m);
        }
    }

    // ---------------------------------------------------------------- idleness

    /**
     * Records that this side has seen input now (wall clock); at most one store write per distinct wall-clock value.
     * An input without an entry yet (fresh task incarnation) counts as active from the first time it is checked.
     */
    void markActive(boolean left) {
        if (idleTimeoutMs <= 0) {
            return;
        }
        long now = context.currentSystemTimeMs();
        if (now != lastMarked) {
            lastMarked = now;
            activity.put(SIDE_KEYS[left ? 0 : 1], ByteLayout.longValue(now));
        }
    }

    /** @return the side's last arrival (wall clock); an input without one yet counts as arriving now */
    private long lastInput(int side, long now) {
        byte[] v = activity.get(SIDE_KEYS[side]);
        if (v == null) {
            activity.put(SIDE_KEYS[side], ByteLayout.longValue(now));
            return now;
        }
        return ByteLayout.getLong(v, 0);
    }

    /**
     * Whether the watermarks need not be persisted with every change. They can be recovered after a restart when each
     * side's newest row is never evicted while it is the newest and the global watermark is a function of the side
     * maxima alone: policy MIN, not a left semi join (a left row matched on arrival is never buffered), no idle
     * timeout (idleness depends on the wall clock), and
     * {@code upper >= -leftDelay} (a left row leaves once {@code wm > t + upper}, and {@code wm <= leftMax - leftDelay})
     * and {@code lower <= rightDelay} (a right row leaves once {@code wm > t - lower}, {@code wm <= rightMax -
     * rightDelay}). A late record ({@code t <= wm <= max - delay}) never raises a side's maximum; a copy dropped by
     * {@code distinctBy} may, and then the change is written ({@code JoinMatcher}). Otherwise every change is written.
     */
    static boolean lazyAllowed(JoinSpec<?, ?, ?> spec, long idleTimeoutMs) {
        return spec.policy() == WatermarkPolicy.MIN
                && spec.joinType() != JoinType.LEFT_SEMI // a left row matched on arrival is not buffered
                && idleTimeoutMs <= 0
                && spec.upperMs() >= -spec.leftDelayMs()
                && spec.lowerMs() <= spec.rightDelayMs();
    }
}
