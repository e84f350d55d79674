package dev.rtmstreams.tools;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;

/**
 * Rate control by scheduled sends: item {@code i} is due at {@code start + offset(i)}; each wake-up
 * sends every item that is due (a burst, which the Kafka producer batches) and then sleeps until
 * the next is due, at most {@code maxSleep}. If sending cannot keep up, items go out as fast as
 * possible and the lag behind schedule is recorded: the result says whether the pacer fell behind
 * by more than the tolerance.
 *
 * <p>Time comes from an injected {@link Ticker} so tests can drive it.
 */
public final class Pacer {

    /** A source of monotonic time and a way to wait. */
    public interface Ticker {
        /** @return monotonic nanoseconds */
        long nanoTime();

        /** @param nanos how long to wait, positive */
        void sleepNanos(long nanos);

        /** The system clock: {@link System#nanoTime()} and {@link LockSupport#parkNanos(long)}. */
        Ticker SYSTEM = new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void sleepNanos(long nanos) {
                LockSupport.parkNanos(nanos);
            }
        };
    }

    /** Receives the items as they become due. */
    @FunctionalInterface
    public interface Sink {
        /**
         * Sends one item.
         *
         * @param index the item index
         * @param nowNanos the ticker time just before sending
         */
        void send(long index, long nowNanos);
    }

    /**
     * What happened during a paced run.
     *
     * @param sent items sent
     * @param elapsedNanos from start to the last send (at least the scheduled span)
     * @param maxLagNanos the largest delay of a send behind its schedule
     * @param fellBehind whether the lag exceeded the tolerance
     * @param stopped whether the run was stopped before all items were sent
     */
    public record Result(long sent, long elapsedNanos, long maxLagNanos, boolean fellBehind, boolean stopped) {
        /**
         * Returns the achieved rate.
         *
         * @return items per second over the elapsed time
         */
        public double achievedRate() {
            return elapsedNanos <= 0 ? sent : sent * 1e9 / elapsedNanos;
        }
    }

    private final Ticker ticker;
    private final Duration tolerance;
    private final long maxSleepNanos;

    /**
     * Creates a pacer.
     *
     * @param ticker the time source; not null
     * @param tolerance the lag behind schedule that counts as falling behind; not negative
     * @param maxSleep the longest single sleep (bounds how late a stop is noticed); positive
     * @throws IllegalArgumentException if a duration is out of range
     */
    public Pacer(Ticker ticker, Duration tolerance, Duration maxSleep) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
        if (tolerance.isNegative()) {
            throw new IllegalArgumentException("tolerance must not be negative: " + tolerance);
        }
        if (maxSleep.isNegative() || maxSleep.isZero()) {
            throw new IllegalArgumentException("maxSleep must be positive: " + maxSleep);
        }
        this.maxSleepNanos = maxSleep.toNanos();
    }

    /**
     * Sends {@code count} items on schedule.
     *
     * @param count the number of items
     * @param offsetNanos the scheduled offset of item i from the start, non-decreasing in i
     * @param sink receives the items in order
     * @param stop polled between bursts; true ends the run early
     * @return what happened
     */
    public Result run(long count, LongUnaryOperator offsetNanos, Sink sink, BooleanSupplier stop) {
        long start = ticker.nanoTime();
        long maxLag = 0;
        long i = 0;
        long lastSend = start;
        while (i < count) {
            if (stop.getAsBoolean()) {
                return new Result(i, lastSend - start, maxLag, maxLag > tolerance.toNanos(), true);
            }
            long now = ticker.nanoTime();
            long elapsed = now - start;
            while (i < count) {
                long due = offsetNanos.applyAsLong(i);
                if (due > elapsed) {
                    break;
                }
                maxLag = Math.max(maxLag, elapsed - due);
                sink.send(i, now);
                lastSend = now;
                i++;
                if ((i & 255) == 0) {
                    now = ticker.nanoTime();
                    elapsed = now - start;
                }
            }
            if (i < count) {
                long wait = offsetNanos.applyAsLong(i) - (ticker.nanoTime() - start);
                if (wait > 0) {
                    ticker.sleepNanos(Math.min(wait, maxSleepNanos));
                }
            }
        }
        long elapsed = Math.max(lastSend - start, count > 0 ? offsetNanos.applyAsLong(count - 1) : 0);
        return new Result(i, elapsed, maxLag, maxLag > tolerance.toNanos(), false);
    }
}
