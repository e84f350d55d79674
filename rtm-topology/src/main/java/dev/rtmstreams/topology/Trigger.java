package dev.rtmstreams.topology;

import dev.rtmstreams.processor.ExecutionMode;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * How an rtm-streams application executes, as Spark's {@code Trigger.RealTime}/{@code Trigger.ProcessingTime}.
 * Switching between the two is the only code change needed to move an application between modes:
 * <pre>{@code
 * RtmStreams rtm = RtmStreams.builder(topology, props)
 *     .trigger(Trigger.realTime(Duration.ofMinutes(5)))   // or Trigger.microBatch(Duration.ofSeconds(1))
 *     .build();
 * }</pre>
 * <ul>
 *   <li><b>Real-time</b>: every record is processed as soon as it is polled; {@code transformWithState} operators
 *       call {@code handleInputRows} once per record. The interval is the <em>checkpoint interval</em> ("how often
 *       we checkpoint, not how often we process"): Kafka Streams' {@code commit.interval.ms} is set to it, so each
 *       commit closes one checkpoint epoch. Default 5 minutes like Spark. Spark's minimum is 5 s; rtm-streams
 *       accepts down to {@link #MIN_CHECKPOINT_INTERVAL} (100 ms) because short checkpoints are useful in tests.
 *       Under exactly-once, transactions commit at their own, shorter interval
 *       ({@link RtmStreams.Builder#transactionInterval}) and the checkpoint interval sets how often epochs close.</li>
 *   <li><b>Micro-batch</b>: rows are buffered for the interval and handed to {@code handleInputRows} once per key
 *       per batch; Kafka Streams commits once per interval. An interval of {@link Duration#ZERO} means <em>as fast
 *       as possible</em> (Spark's {@code Trigger.ProcessingTime("0 minutes")}): a batch ends at every pass of the
 *       stream thread's loop, and Kafka Streams commits every {@link #MIN_CHECKPOINT_INTERVAL} (a commit flushes
 *       every RocksDB store, too costly at every pass). The trigger governs the whole topology: under
 *       {@link RtmStreams} every output record (stateless paths included) is held until its checkpoint epoch ends
 *       and is sent when Kafka Streams commits, so output appears per epoch as in Spark's micro-batch mode.</li>
 * </ul>
 * Immutable; equal when mode and interval are equal.
 */
@InterfaceStability.Evolving
public final class Trigger {

    /** The lowest accepted checkpoint interval of a real-time trigger (100 ms; Spark's minimum is 5 s). */
    public static final Duration MIN_CHECKPOINT_INTERVAL = Duration.ofMillis(100);
    /** The default checkpoint interval of a real-time trigger (5 minutes, like Spark). */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofMinutes(5);
    /**
     * The lowest accepted non-zero micro-batch interval (10 ms). {@link Duration#ZERO} is accepted too and means
     * "as fast as possible", see {@link #microBatch(Duration)}.
     */
    public static final Duration MIN_MICRO_BATCH_INTERVAL = Duration.ofMillis(10);

    private final ExecutionMode mode;
    private final Duration interval;

    private Trigger(ExecutionMode mode, Duration interval) {
        this.mode = mode;
        this.interval = interval;
    }

    /** @return a real-time trigger with the default checkpoint interval of 5 minutes */
    public static Trigger realTime() {
        return realTime(DEFAULT_CHECKPOINT_INTERVAL);
    }

    /**
     * @param checkpointInterval how often offsets (and, under exactly-once, transactions) are committed; each
     *     commit closes a checkpoint epoch. Not a latency target.
     * @return a real-time trigger
     * @throws IllegalArgumentException when the interval is null or below {@link #MIN_CHECKPOINT_INTERVAL}
     */
    public static Trigger realTime(Duration checkpointInterval) {
        Objects.requireNonNull(checkpointInterval, "checkpointInterval");
        if (checkpointInterval.compareTo(MIN_CHECKPOINT_INTERVAL) < 0) {
            throw new IllegalArgumentException(
                    "checkpointInterval must be at least " + MIN_CHECKPOINT_INTERVAL + ": " + checkpointInterval);
        }
        return new Trigger(ExecutionMode.REAL_TIME, checkpointInterval);
    }

    /**
     * @param interval the micro-batch (trigger) interval; also the commit interval. {@link Duration#ZERO} means
     *     <em>as fast as possible</em> (Spark's {@code Trigger.ProcessingTime("0 minutes")}): a batch ends at every
     *     pass of the stream thread's loop (the batch punctuator is scheduled every 1 ms, the smallest interval Kafka
     *     Streams accepts, and a wall-clock punctuator fires at most once per loop pass); Kafka Streams then commits
     *     (checkpoints) every {@link #MIN_CHECKPOINT_INTERVAL}, not at every pass: a commit flushes every RocksDB
     *     store.
     * @return a micro-batch trigger
     * @throws IllegalArgumentException when the interval is null, negative, or neither zero nor at least
     *     {@link #MIN_MICRO_BATCH_INTERVAL}
     */
    public static Trigger microBatch(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative()) {
            throw new IllegalArgumentException("micro-batch interval must not be negative: " + interval);
        }
        if (!interval.isZero() && interval.compareTo(MIN_MICRO_BATCH_INTERVAL) < 0) {
            throw new IllegalArgumentException("micro-batch interval must be zero (as fast as possible) or at least "
                    + MIN_MICRO_BATCH_INTERVAL + ": " + interval);
        }
        return new Trigger(ExecutionMode.MICRO_BATCH, interval);
    }

    /** @return the execution mode */
    public ExecutionMode mode() {
        return mode;
    }

    /** @return true for a real-time trigger */
    public boolean isRealTime() {
        return mode == ExecutionMode.REAL_TIME;
    }

    /**
     * @return the checkpoint interval (real-time) or the batch interval (micro-batch; {@link Duration#ZERO} for as
     *     fast as possible); never null
     */
    public Duration interval() {
        return interval;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Trigger t && t.mode == mode && t.interval.equals(interval);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, interval);
    }

    @Override
    public String toString() {
        return (mode == ExecutionMode.REAL_TIME ? "Trigger.realTime(" : "Trigger.microBatch(") + interval + ")";
    }
}
