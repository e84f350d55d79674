package dev.rtmstreams.processor.spi;

import dev.rtmstreams.processor.spi.internals.PreCommitClock;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * How long the before-commit actions of operator stores ({@link OperatorStores#beforeCommit}) ran on the calling
 * stream thread since the last {@link #take()}: the store work of a commit (the join's batched changelog rows, the
 * persisted watermarks). Kafka Streams runs them when it prepares a commit, right before it flushes the producer; an
 * execution layer that measures commits (rtm-topology's checkpoint epochs) takes the time at each commit. Nothing
 * else is done at a commit by rtm-streams' stores: Kafka Streams 4.4 writes a RocksDB store's changelog offsets into
 * the store itself (KIP-1035) and flushes no memtable at a commit.
 *
 * <p>Per thread, so a stream thread reads only its own stores' time; a thread that never takes the time keeps one
 * small record of two longs.
 */
@InterfaceStability.Unstable
public final class PreCommitTime {

    /**
     * The before-commit time of one commit.
     *
     * @param nanos total time the actions ran, in nanoseconds (0 when none ran)
     * @param firstStartNanos {@link System#nanoTime()} when the first of them started, or -1 when none ran
     */
    public record Sample(long nanos, long firstStartNanos) {

        /** No action ran. */
        public static final Sample NONE = new Sample(0, -1);
    }

    private PreCommitTime() {}

    /**
     * Adds one action's run to the calling thread's time.
     *
     * @param startNanos {@link System#nanoTime()} before the action
     * @param endNanos {@link System#nanoTime()} after it
     */
    public static void record(long startNanos, long endNanos) {
        PreCommitClock.record(startNanos, endNanos);
    }

    /**
     * Returns the calling thread's time since the last call and starts counting again.
     *
     * @return the time; {@link Sample#NONE} when no action ran; never null
     */
    public static Sample take() {
        long[] taken = PreCommitClock.take();
        return taken == null ? Sample.NONE : new Sample(taken[0], taken[1]);
    }
}
