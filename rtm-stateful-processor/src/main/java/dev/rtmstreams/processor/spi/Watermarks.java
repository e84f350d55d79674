package dev.rtmstreams.processor.spi;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The event-time watermark rules every rtm operator shares, after Spark's {@code WatermarkSupport} and
 * {@code EventTimeWatermarkExec}: a row at or below the watermark is late ({@code t <= wm}), and a watermark never
 * moves backwards.
 *
 * <p>Only the rules live here; each operator keeps its own policy: how it marks "no watermark yet" (the operator's
 * tracker keeps a flag, the join's persisted meta record the sentinel {@link Long#MIN_VALUE}), how it derives a
 * candidate from its inputs' max event times (one input, or the MIN/MAX of two), and when it persists the watermark.
 * Both methods are pure and allocation-free, for the per-record path.
 *
 * <pre>{@code
 * if (has && Watermarks.isLate(eventTime, watermark)) { drop(); }
 * if (!has || Watermarks.advances(candidate, watermark)) { watermark = candidate; has = true; }
 * }</pre>
 */
@InterfaceStability.Unstable
public final class Watermarks {

    private Watermarks() {}

    /**
     * Spark's late rule ({@code WatermarkSupport.watermarkExpression}): a row whose event time is at or below the
     * watermark is late. Inclusive, so that a row exactly at the watermark is late in every operator alike.
     *
     * @param eventTime the row's event time
     * @param watermark the current watermark; the caller has checked that one exists
     * @return whether the row is late: {@code eventTime <= watermark}
     */
    public static boolean isLate(long eventTime, long watermark) {
        return eventTime <= watermark;
    }

    /**
     * The "never regress" rule: a watermark moves only forwards, so a candidate replaces it only when strictly higher
     * (an equal candidate is no move, and writes nothing).
     *
     * @param candidate the watermark the inputs would allow now (e.g. max event time minus the allowed delay)
     * @param watermark the current watermark; the caller has checked that one exists
     * @return whether {@code candidate} moves the watermark: {@code candidate > watermark}
     */
    public static boolean advances(long candidate, long watermark) {
        return candidate > watermark;
    }

    /**
     * Adds a delay or bound to a time, saturating at the long range instead of wrapping (an unbounded join bound is
     * {@link Long#MIN_VALUE} or {@link Long#MAX_VALUE}).
     *
     * @param time a time in ms
     * @param delta the amount to add, negative to subtract
     * @return {@code time + delta}, or {@link Long#MIN_VALUE} / {@link Long#MAX_VALUE} where it would overflow
     */
    public static long saturatedAdd(long time, long delta) {
        long r = time + delta;
        if (((time ^ r) & (delta ^ r)) < 0) {
            return time < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }
}
