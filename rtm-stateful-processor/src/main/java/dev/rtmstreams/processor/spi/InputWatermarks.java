package dev.rtmstreams.processor.spi;

import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The event-time watermark of one operator task with one or more inputs, the one tracker every rtm operator uses
 * (the stateful processor and deduplication with one input, the join with two): each input's max event time, minus
 * the input's delay, gives the input's candidate; the candidates combine by {@link Combine MIN or MAX} (Spark's
 * {@code spark.sql.streaming.multipleWatermarkPolicy}); the watermark follows the combined candidate and never moves
 * backwards ({@link Watermarks#advances}); a row at or below it is late ({@link Watermarks#isLate}).
 *
 * <p>With an idle timeout, an input that has received nothing for longer than that is idle (Flink's rule), and the
 * operator's {@link IdleRule} says what that does: an operator with one input lets its idle input's event time follow
 * the wall clock (so that event-time timers fire without new input), a join leaves its idle input out of the MIN (as
 * Flink does; all inputs idle: the watermark holds). Under MAX, idleness changes nothing.
 *
 * <p>Persistence is the owner's: it restores the tracker after a restart ({@link #restore}) and writes
 * {@link #value()} and {@link #maxEventTime} when they move. Not thread-safe: used by the task's stream thread only.
 * Allocation-free on the per-record path ({@link #observe}, {@link #advance()}).
 */
@InterfaceStability.Unstable
public final class InputWatermarks {

    /** "None yet": {@link #value()} before the first watermark, {@link #maxEventTime} before the input's first row. */
    public static final long NONE = Long.MIN_VALUE;

    /** How the inputs' candidates combine into the watermark. */
    public enum Combine {
        /** The slowest input holds the watermark (the default; Spark's {@code min}). */
        MIN,
        /** The fastest input moves the watermark (Spark's {@code max}). */
        MAX
    }

    /** What an idle input does to the watermark (see the class comment). */
    public enum IdleRule {
        /** The idle input's max event time advances with the wall clock since its last record. */
        FOLLOW_WALL_CLOCK,
        /** The idle input is left out of the MIN; when every input is idle the watermark holds. */
        LEAVE_OUT
    }

    private final Combine combine;
    private final IdleRule idleRule;
    private final long idleTimeoutMs;
    private final long[] delays;
    private final long[] maxima;
    private long watermark = NONE;

    private InputWatermarks(Combine combine, IdleRule idleRule, long idleTimeoutMs, long[] delays) {
        this.combine = combine;
        this.idleRule = idleRule;
        this.idleTimeoutMs = idleTimeoutMs;
        this.delays = delays;
        this.maxima = new long[delays.length];
        Arrays.fill(maxima, NONE);
    }

    /**
     * @param combine how the inputs' candidates combine; not null
     * @param idleRule what an idle input does; not null
     * @param idleTimeoutMs an input silent for longer than this is idle; 0: inputs are never idle
     * @param delaysMs per input, the allowed delay subtracted from its max event time; at least one, none negative
     * @return a tracker without watermark or rows
     * @throws IllegalArgumentException naming the bad value
     */
    public static InputWatermarks of(Combine combine, IdleRule idleRule, long idleTimeoutMs, long... delaysMs) {
        Objects.requireNonNull(combine, "combine");
        Objects.requireNonNull(idleRule, "idleRule");
        if (idleTimeoutMs < 0) {
            throw new IllegalArgumentException("idleTimeoutMs must not be negative: " + idleTimeoutMs);
        }
        if (delaysMs == null || delaysMs.length == 0) {
            throw new IllegalArgumentException("at least one input is needed");
        }
        for (long d : delaysMs) {
            if (d < 0) {
                throw new IllegalArgumentException("an input's delay must not be negative: " + d + " ms");
            }
        }
        return new InputWatermarks(combine, idleRule, idleTimeoutMs, delaysMs.clone());
    }

    /** @return the number of inputs */
    public int inputs() {
        return delays.length;
    }

    /** @return whether inputs can become idle (a positive idle timeout) */
    public boolean idleTimeoutEnabled() {
        return idleTimeoutMs > 0;
    }

    /** @return whether a watermark exists yet */
    public boolean has() {
        return watermark != NONE;
    }

    /** @return the watermark, or {@link #NONE} before the first one */
    public long value() {
        return watermark;
    }

    /** @return whether a row with {@code eventTime} is late: at or below the watermark (never before the first one) */
    public boolean isLate(long eventTime) {
        return watermark != NONE && Watermarks.isLate(eventTime, watermark);
    }

    /** @return the max event time input {@code input} has seen, or {@link #NONE} */
    public long maxEventTime(int input) {
        return maxima[input];
    }

    /**
     * Takes a row's event time into its input's max (late rows too: Spark feeds every input row to its input's max).
     * The watermark moves only with {@link #advance()}.
     *
     * @return whether the input's max moved
     */
    public boolean observe(int input, long eventTime) {
        if (eventTime > maxima[input]) {
            maxima[input] = eventTime;
            return true;
        }
        return false;
    }

    /**
     * Restores the state persisted before a restart: the watermark and the inputs' maxima are raised to these values
     * (never lowered).
     *
     * @param persistedWatermark the watermark, or {@link #NONE}
     * @param persistedMaxima per input, the max event time or {@link #NONE}; as many as there are inputs
     */
    public void restore(long persistedWatermark, long... persistedMaxima) {
        if (persistedMaxima.length != maxima.length) {
            throw new IllegalArgumentException("expected " + maxima.length + " maxima, got " + persistedMaxima.length);
        }
        for (int i = 0; i < maxima.length; i++) {
            observe(i, persistedMaxima[i]);
        }
        raise(persistedWatermark);
    }

    /**
     * Moves the watermark to what the inputs allow, every input counted as active.
     *
     * @return whether it moved
     */
    public boolean advance() {
        return raise(candidate(Long.MIN_VALUE, null));
    }

    /**
     * Moves the watermark to what the inputs allow at wall-clock {@code nowMs}, idle inputs treated by the rule.
     *
     * @param nowMs the wall clock
     * @param lastInputMs per input, the wall-clock time of its last record ({@link #NONE}: unknown, counted as active)
     * @return whether it moved
     */
    public boolean advance(long nowMs, long[] lastInputMs) {
        return raise(candidate(nowMs, idleTimeoutMs > 0 ? lastInputMs : null));
    }

    /**
     * @param nowMs the wall clock (used only with {@code lastInputMs})
     * @param lastInputMs per input, the wall clock of its last record; null: no input is idle
     * @return the watermark the inputs allow now, or {@link #NONE}
     */
    private long candidate(long nowMs, long[] lastInputMs) {
        boolean min = combine == Combine.MIN;
        long result = NONE;
        boolean any = false;
        for (int i = 0; i < maxima.length; i++) {
            long silentMs = silentFor(i, nowMs, lastInputMs);
            long c;
            if (silentMs < 0) {
                c = shift(maxima[i], -delays[i]);
            } else if (idleRule == IdleRule.FOLLOW_WALL_CLOCK) {
                c = shift(shift(maxima[i], silentMs), -delays[i]);
            } else if (min) {
                continue; // LEAVE_OUT: an idle input is not waited for
            } else {
                c = shift(maxima[i], -delays[i]); // under MAX, idleness changes nothing
            }
            if (min && c == NONE) {
                return NONE; // an active input without rows holds the watermark
            }
            result = !any ? c : min ? Math.min(result, c) : Math.max(result, c);
            any = true;
        }
        return result; // NONE when every input was left out
    }

    /** @return how long input {@code i} has been silent when it is idle at {@code nowMs}, else -1 */
    private long silentFor(int i, long nowMs, long[] lastInputMs) {
        if (lastInputMs == null || lastInputMs[i] == NONE) {
            return -1;
        }
        if (maxima[i] == NONE && idleRule == IdleRule.FOLLOW_WALL_CLOCK) {
            return -1; // no event time to follow the clock from
        }
        long silent = nowMs - lastInputMs[i];
        return silent > idleTimeoutMs ? silent : -1;
    }

    private boolean raise(long candidate) {
        if (candidate != NONE && (watermark == NONE || Watermarks.advances(candidate, watermark))) {
            watermark = candidate;
            return true;
        }
        return false;
    }

    /** @return {@code t + d} saturated at the long range; {@link #NONE} stays {@link #NONE} */
    private static long shift(long t, long d) {
        return t == NONE ? NONE : Watermarks.saturatedAdd(t, d);
    }
}
