package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.InputWatermarks;
import dev.rtmstreams.processor.spi.PersistedWatermarks;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The event-time watermark of one single-input operator task, persisted in the operator store so that it survives
 * restarts: the shared {@link InputWatermarks} (the join's too) with one input, whose event time follows the wall clock
 * while it is idle ({@link InputWatermarks.IdleRule#FOLLOW_WALL_CLOCK}), persisted when the shared
 * {@link PersistedWatermarks} says (the join's too); this class is the operator's codec (the watermark alone, under
 * {@link Layout#META_WATERMARK}; the input's max is not persisted but restored as watermark plus delay).
 *
 * <p>By default every advance is written to the (changelogged) store. With {@link #persistBeforeCommit()} it is
 * written only by {@link #persistIfAdvanced()}, which the runtime calls right before each commit of the task, as
 * Spark records the watermark once per batch in its offset log: a restarted task resumes from the watermark of its
 * last commit, the point its input is replayed from, and an operator that sees its watermark move with nearly every
 * row saves one changelog write per row.
 */
final class WatermarkTracker {

    private final KeyValueStore<Bytes, byte[]> store;
    private final long delayMs;
    private final InputWatermarks tracker;
    private final PersistedWatermarks persisted;
    private final long[] lastInput = new long[1];

    /** Watermark published to metric reader threads; Long.MIN_VALUE: none yet. */
    private volatile long published = Long.MIN_VALUE;

    /**
     * @param store the operator store
     * @param delayMs allowed lateness subtracted from the max event time
     * @param idleTimeoutMs advance by wall-clock time once input has been silent for longer than this; 0 = never
     */
    WatermarkTracker(KeyValueStore<Bytes, byte[]> store, long delayMs, long idleTimeoutMs) {
        this.store = store;
        this.delayMs = delayMs;
        this.tracker = InputWatermarks.of(
                InputWatermarks.Combine.MIN, InputWatermarks.IdleRule.FOLLOW_WALL_CLOCK, idleTimeoutMs, delayMs);
        this.persisted =
                new PersistedWatermarks(tracker, PersistedWatermarks.Persist.EACH_MOVE, false, w -> write(w.value()));
    }

    /** Loads the persisted watermark (after restoration). */
    void load() {
        byte[] wm = store.get(Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK)));
        if (wm != null) {
            long watermark = ByteLayout.getLong(wm, 0);
            tracker.restore(watermark, watermark + delayMs);
            published = tracker.value();
        }
    }

    /** Writes the watermark only in {@link #persistIfAdvanced()}, not on every advance. */
    void persistBeforeCommit() {
        persisted.persist(PersistedWatermarks.Persist.DEFERRED);
    }

    /** Writes the watermark if it advanced since it was last written (called before each commit of the task). */
    void persistIfAdvanced() {
        persisted.persistIfMoved();
    }

    /** @return whether a watermark exists yet */
    boolean has() {
        return tracker.has();
    }

    /** @return the watermark; meaningful only when {@link #has()} */
    long value() {
        return tracker.value();
    }

    /** @return the watermark as user code sees it in {@code TimerValues}: 0 before the first one */
    long forTimerValues() {
        return tracker.has() ? tracker.value() : 0L;
    }

    /** @return the watermark for metric readers (any thread); Long.MIN_VALUE before the first one */
    long published() {
        return published;
    }

    /** @return whether a row with {@code eventTime} is late: at or below the watermark */
    boolean isLate(long eventTime) {
        return tracker.isLate(eventTime);
    }

    /** Takes {@code eventTime} of a processed row (or a batch's max) into account. */
    void observe(long eventTime) {
        persisted.observe(0, eventTime);
        advanced(persisted.advance());
    }

    /**
     * With an idle timeout, once input has been silent for longer than it: advances as if event time kept pace with
     * the wall clock since the last input.
     */
    void applyIdleTimeout(long now, long lastInputWallClock) {
        if (tracker.idleTimeoutEnabled()) {
            lastInput[0] = lastInputWallClock;
            advanced(persisted.advance(now, lastInput));
        }
    }

    private void advanced(boolean moved) {
        if (moved) {
            published = tracker.value();
        }
    }

    /** The codec: the watermark alone, {@code [watermark i64]}. */
    private void write(long watermark) {
        store.put(Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK)), ByteLayout.longValue(watermark));
    }
}
