package dev.rtmstreams.adattribution.ops;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionAbortedException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

/**
 * How the service answers a stream thread that died: a new thread in its place when the thread's transactional
 * producer failed in a way a new producer clears, at most {@link #MAX_REPLACEMENTS} times in {@link #WINDOW};
 * otherwise the service stops.
 *
 * <p>Under exactly-once, a broker cut off from the network while it leads a partition of an open transaction can make
 * the transaction coordinator abort that transaction on its timeout (10 s in Kafka Streams) while the producer still
 * waits on the cut-off broker; the producer's commit then fails with {@link InvalidTxnStateException}, which Kafka
 * Streams does not treat as a migrated task, so the stream thread dies. Nothing of the aborted transaction is visible
 * to {@code read_committed} readers and its input offsets were not committed, so a replacement thread (a new producer
 * with its own transactional id; the dead thread's tasks closed dirty and restored from their changelogs) processes
 * the same inputs again without a loss or a duplicate. Any other failure stops the service: retrying a bug or a
 * configuration error in a loop would only hide it.
 */
public final class StreamThreadFailures {

    /** How many threads may be replaced in {@link #WINDOW} before a further failure stops the service. */
    public static final int MAX_REPLACEMENTS = 3;
    /** The window {@link #MAX_REPLACEMENTS} counts over. */
    public static final Duration WINDOW = Duration.ofMinutes(10);

    private final LongSupplier nanoClock;
    private final Deque<Long> replacedAt = new ArrayDeque<>();

    /** Counts replacements on the JVM's monotonic clock. */
    public StreamThreadFailures() {
        this(System::nanoTime);
    }

    StreamThreadFailures(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /**
     * @param failure what the stream thread died of
     * @return {@link StreamThreadExceptionResponse#REPLACE_THREAD} for a transactional producer failure (anywhere in
     *     the cause chain) while fewer than {@link #MAX_REPLACEMENTS} threads were replaced in the last {@link
     *     #WINDOW}; else {@link StreamThreadExceptionResponse#SHUTDOWN_CLIENT}
     */
    public synchronized StreamThreadExceptionResponse respond(Throwable failure) {
        if (!isTransactionFailure(failure)) {
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        long now = nanoClock.getAsLong();
        while (!replacedAt.isEmpty() && now - replacedAt.peekFirst() >= WINDOW.toNanos()) {
            replacedAt.removeFirst();
        }
        if (replacedAt.size() >= MAX_REPLACEMENTS) {
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        replacedAt.addLast(now);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    /**
     * @param failure a stream thread's failure
     * @return whether it, or an exception in its cause chain, is a failure of a transactional producer that a new
     *     producer does not inherit (an aborted or invalid transaction, a fenced or expired producer id)
     */
    static boolean isTransactionFailure(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (t instanceof InvalidTxnStateException
                    || t instanceof TransactionAbortedException
                    || t instanceof InvalidProducerEpochException
                    || t instanceof ProducerFencedException
                    || t instanceof InvalidPidMappingException) {
                return true;
            }
        }
        return false;
    }
}
