package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.Watermarks;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The event-time watermark of one operator task: max event time seen minus the allowed delay, never regressing,
 * persisted in the operator store so that it survives restarts; optionally advanced by wall-clock time while input
 * is idle. Rows at or below it are late (Spark's {@code WatermarkSupport}: {@code <=}); the late and never-regress rules
 * are {@link Watermarks}', shared with the join; the one input, the idle rule and when to persist are this tracker's.
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
    private final long idleTimeoutMs;

    private boolean persistBeforeCommit;
    private boolean unpersisted;
    private boolean has;
    private long watermark;
    private long maxEventTime = Long.MIN_VALUE;
    /** Watermark published to metric reader threads; Long.MIN_VALUE: none yet. */
    private volatile long published = Long.MIN_VALUE;

    /**
     * @param store the operator store
     * @param delayMs allowed lateness subtracted from the max event time
     * @param idleTimeoutMs advance by wall-clock time after this long without input; 0 = never
     */
    WatermarkTracker(KeyValueStore<Bytes, byte[]> store, long delayMs, long idleTimeoutMs) {
        this.store = store;
        this.delayMs = delayMs;
        this.idleTimeoutMs = idleTimeoutMs;
    }

    /** Loads the persisted watermark (after restoration). */
    void load() {
        byte[] wm = store.get(Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK)));
        if (wm != null) {
            has = true;
            watermark = ByteLayout.getLong(wm, 0);
            published = watermark;
            maxEventTime = Math.max(maxEventTime, watermark + delayMs);
        }
    }

    /** Writes the watermark only in {@link #persistIfAdvanced()}, not on every advance. */
    void persistBeforeCommit() {
        persistBeforeCommit = true;
    }

    /** Writes the watermark if it advanced since it was last written (called before each commit of the task). */
    void persistIfAdvanced() {
        if (unpersisted) {
            unpersisted = false;
            write();
        }
    }

    /** @return whether a watermark exists yet */
    boolean has() {
        return has;
    }

    /** @return the watermark; meaningful only when {@link #has()} */
    long value() {
        return watermark;
    }

    /** @return the watermark as user code sees it in {@code TimerValues}: 0 before the first one */
    long forTimerValues() {
        return has ? watermark : 0L;
    }

    /** @return the watermark for metric readers (any thread); Long.MIN_VALUE before the first one */
    long published() {
        return published;
    }

    /** @return whether a row with {@code eventTime} is late: at or below the watermark */
    boolean isLate(long eventTime) {
        return has && Watermarks.isLate(eventTime, watermark);
    }

    /** Takes {@code eventTime} of a processed row (or a batch's max) into account. */
    void observe(long eventTime) {
        if (eventTime > maxEventTime) {
            maxEventTime = eventTime;
        }
        advance(eventTime - delayMs);
    }

    /** With an idle timeout: advances as if event time kept pace with the wall clock since the last input. */
    void applyIdleTimeout(long now, long lastInputWallClock) {
        if (idleTimeoutMs > 0 && maxEventTime != Long.MIN_VALUE && now - lastInputWallClock >= idleTimeoutMs) {
            advance(maxEventTime + (now - lastInputWallClock) - delayMs);
        }
    }

    private void advance(long candidate) {
        if (!has || Watermarks.advances(candidate, watermark)) {
            has = true;
            watermark = candidate;
            published = candidate;
            if (persistBeforeCommit) {
                unpersisted = true;
            } else {
                write();
            }
        }
    }

    private void write() {
        store.put(Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK)), ByteLayout.longValue(watermark));
    }
}
