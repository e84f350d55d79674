package dev.rtmstreams.topology.internals;

import dev.rtmstreams.processor.spi.PreCommitTime;
import dev.rtmstreams.topology.CommitProgress;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The commit cycle of one stream thread and the epochs it closes: a small state machine, confined to its stream
 * thread, fed by the instrumented clients in the order Kafka Streams 4.4 commits
 * ({@code TaskExecutor#commitTasksAndMaybeUpdateCommittableOffsets}: per task {@code StreamTask#prepareCommit}, which
 * runs the stores' before-commit actions and flushes the producer; then {@code sendOffsetsToTransaction} and
 * {@code commitTransaction} under exactly-once, or the consumer's {@code commitSync} under at-least-once).
 *
 * <pre>
 *   idle --preCommit/flushed/offsetsSent--> in commit --committed--> idle (commit counted; epoch may close)
 *                                            in commit --aborted----> idle (abort counted; its parts dropped)
 * </pre>
 * An epoch closes at a commit when the epoch interval has passed since it started (interval 0: at every commit), or
 * at an idle moment of the thread once the interval has passed ({@link #closeIfDue}); it
 * carries the offsets of all its commits (the latest per partition) and the commit figures ({@link CommitProgress}).
 * A closed epoch's offsets and figures are never reported again; an aborted commit's offsets are never reported.
 */
final class EpochCommits {

    /** What {@link #committed} returns when the epoch closed. */
    record Closed(long startMs, long endMs, Map<TopicPartition, OffsetAndMetadata> offsets, CommitProgress commits) {}

    /**
     * A part that starts this long after the previous one ended belongs to a new commit: Kafka Streams prepared a
     * commit (flushing the producer) that then had nothing to commit, and the parts of that one are dropped.
     */
    static final long STALE_GAP_NANOS = 100_000_000L;

    private final long epochIntervalMs;
    private long epochStartMs;

    // the commit in progress (nanoseconds)
    private long cycleStart = -1;
    private long lastEnd;
    private long pre;
    private long flush;
    private long offsets;
    private Map<TopicPartition, OffsetAndMetadata> pendingOffsets = new HashMap<>();

    // the epoch's commits
    private Map<TopicPartition, OffsetAndMetadata> epochOffsets = new HashMap<>();
    private Histogram durationsUs = new Histogram(3);
    private long commits;
    private long aborts;
    private long sumPre;
    private long sumFlush;
    private long sumOffsets;
    private long sumEndTxn;

    /**
     * @param epochIntervalMs how long an epoch lasts at least (0: each commit closes one)
     * @param startMs when the first epoch starts
     */
    EpochCommits(long epochIntervalMs, long startMs) {
        if (epochIntervalMs < 0) {
            throw new IllegalArgumentException("epochIntervalMs must not be negative: " + epochIntervalMs);
        }
        this.epochIntervalMs = epochIntervalMs;
        this.epochStartMs = startMs;
    }

    /** The stores' before-commit actions ran (taken from {@link PreCommitTime}). */
    void preCommit(PreCommitTime.Sample sample) {
        if (sample.firstStartNanos() >= 0) {
            begin(sample.firstStartNanos());
            pre += sample.nanos();
            lastEnd = Math.max(lastEnd, sample.firstStartNanos() + sample.nanos());
        }
    }

    /** The producer was flushed from {@code startNanos} to {@code endNanos}. */
    void flushed(long startNanos, long endNanos) {
        begin(startNanos);
        flush += endNanos - startNanos;
        lastEnd = endNanos;
    }

    /**
     * The input offsets were added to the transaction (exactly-once).
     *
     * @param sent the offsets
     */
    void offsetsSent(Map<TopicPartition, OffsetAndMetadata> sent, long startNanos, long endNanos) {
        begin(startNanos);
        offsets += endNanos - startNanos;
        lastEnd = endNanos;
        pendingOffsets.putAll(sent);
    }

    /**
     * A commit succeeded: the transaction committed ({@code transaction}, EndTxn from {@code startNanos} to
     * {@code endNanos}) or the consumer committed {@code committed} (at-least-once, {@code commitSync} from
     * {@code startNanos} to {@code endNanos}).
     *
     * @param committed offsets committed by this call (at-least-once); those sent earlier in the transaction are
     *     added
     * @param nowMs wall-clock time of the commit's end
     * @return the epoch when this commit closed it, else null
     */
    Closed committed(
            Map<TopicPartition, OffsetAndMetadata> committed,
            boolean transaction,
            long startNanos,
            long endNanos,
            long nowMs) {
        begin(startNanos);
        long last = endNanos - startNanos;
        long endTxn = transaction ? last : 0;
        long offs = offsets + (transaction ? 0 : last);
        durationsUs.recordValue(Math.max(0, (endNanos - cycleStart) / 1000));
        commits++;
        sumPre += pre;
        sumFlush += flush;
        sumOffsets += offs;
        sumEndTxn += endTxn;
        epochOffsets.putAll(pendingOffsets);
        epochOffsets.putAll(committed);
        resetCycle();
        if (nowMs - epochStartMs < epochIntervalMs) {
            return null;
        }
        return close(nowMs);
    }

    /** The transaction was aborted: its offsets were not committed and its parts are dropped. */
    void aborted() {
        if (cycleStart >= 0 || !pendingOffsets.isEmpty()) {
            aborts++;
        }
        resetCycle();
    }

    /**
     * Closes the epoch when it has commits and its interval has passed: a thread that went idle after its last commit
     * (Kafka Streams commits only after processing something) would otherwise hold that commit's report back until
     * its next input.
     *
     * @return the epoch, or null when it stays open
     */
    Closed closeIfDue(long nowMs) {
        return commits > 0 && nowMs - epochStartMs >= epochIntervalMs ? close(nowMs) : null;
    }

    /**
     * Closes the epoch now if it has commits (a closing thread whose last epoch did not reach the interval).
     *
     * @return the epoch, or null when it had no commit
     */
    Closed closeNow(long nowMs) {
        return commits == 0 ? null : close(nowMs);
    }

    /** @return commits in the open epoch */
    long openCommits() {
        return commits;
    }

    private Closed close(long nowMs) {
        Closed c = new Closed(epochStartMs, nowMs, epochOffsets, progress());
        epochStartMs = nowMs;
        epochOffsets = new HashMap<>();
        durationsUs = new Histogram(3);
        commits = 0;
        aborts = 0;
        sumPre = 0;
        sumFlush = 0;
        sumOffsets = 0;
        sumEndTxn = 0;
        return c;
    }

    private CommitProgress progress() {
        long n = Math.max(1, commits);
        return new CommitProgress(
                commits,
                aborts,
                EpochReporter.stats(durationsUs),
                sumPre / n / 1000,
                sumFlush / n / 1000,
                sumOffsets / n / 1000,
                sumEndTxn / n / 1000);
    }

    private void begin(long startNanos) {
        if (cycleStart >= 0 && startNanos - lastEnd > STALE_GAP_NANOS && pendingOffsets.isEmpty()) {
            resetCycle();
        }
        if (cycleStart < 0 || startNanos < cycleStart) {
            cycleStart = startNanos;
        }
    }

    private void resetCycle() {
        cycleStart = -1;
        pre = 0;
        flush = 0;
        offsets = 0;
        if (!pendingOffsets.isEmpty()) {
            pendingOffsets = new HashMap<>();
        }
    }
}
