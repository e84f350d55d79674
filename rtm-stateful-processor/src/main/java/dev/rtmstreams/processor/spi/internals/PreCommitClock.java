package dev.rtmstreams.processor.spi.internals;

/**
 * The per-thread time of the before-commit actions of operator stores, kept below the SPI: the store layer adds to it,
 * the SPI's {@code PreCommitTime} reads and resets it. Per thread, so a stream thread reads only its own stores' time.
 */
public final class PreCommitClock {

    private static final ThreadLocal<long[]> PENDING = ThreadLocal.withInitial(() -> new long[] {0, -1});

    private PreCommitClock() {}

    /**
     * Adds one action's run to the calling thread's time.
     *
     * @param startNanos {@link System#nanoTime()} before the action
     * @param endNanos {@link System#nanoTime()} after it
     */
    public static void record(long startNanos, long endNanos) {
        long[] p = PENDING.get();
        p[0] += Math.max(0, endNanos - startNanos);
        if (p[1] < 0) {
            p[1] = startNanos;
        }
    }

    /**
     * Returns the calling thread's time since the last call and starts counting again.
     *
     * @return {total nanos, start nanos of the first action}, or null when no action ran
     */
    public static long[] take() {
        long[] p = PENDING.get();
        if (p[1] < 0) {
            return null;
        }
        long[] taken = {p[0], p[1]};
        p[0] = 0;
        p[1] = -1;
        return taken;
    }
}
