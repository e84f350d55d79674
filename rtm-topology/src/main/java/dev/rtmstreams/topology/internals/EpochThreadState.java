package dev.rtmstreams.topology.internals;

import dev.rtmstreams.topology.CommitProgress;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.LatencyStats;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Recorder;

/**
 * The epoch state of one stream thread of an {@link EpochRuntime}: the latency recorders of the open epoch, its commits
 * and topic counts, and the published values of the latest closed epoch (read by the metrics). Counters are touched by
 * the stream thread only; recorders are wait-free.
 */
final class EpochThreadState {
    final String thread;
    final Recorder queuing = new Recorder(3);
    final Recorder processing = new Recorder(3);
    final Recorder e2e = new Recorder(3);
    final Recorder visible = new Recorder(3);
    final EpochCommits commits;
    Map<String, long[]> counts = new HashMap<>();
    /** Source timestamps of the output records sent in the open transaction (exactly-once). */
    long[] pendingTimestamps = new long[64];

    int pendingVisible;
    volatile LatencyStats[] last = {LatencyStats.EMPTY, LatencyStats.EMPTY, LatencyStats.EMPTY, LatencyStats.EMPTY};
    volatile CommitProgress lastCommits = CommitProgress.NONE;
    volatile long commitsTotal;
    volatile long abortsTotal;
    volatile long epochs;
    volatile long inputRowsTotal;
    volatile double busy = -1;

    EpochThreadState(String thread, long startMs, long epochIntervalMs) {
        this.thread = thread;
        this.commits = new EpochCommits(epochIntervalMs, startMs);
    }

    /** An output record caused by a source record of timestamp {@code ts} joined the open transaction. */
    void awaitCommit(long ts) {
        if (pendingVisible == pendingTimestamps.length) {
            pendingTimestamps = Arrays.copyOf(pendingTimestamps, pendingVisible * 2);
        }
        pendingTimestamps[pendingVisible++] = ts;
    }

    /** The open transaction committed at {@code nowMs}: its output records became visible. */
    void committedVisible(long nowMs) {
        for (int i = 0; i < pendingVisible; i++) {
            visible.recordValue(Math.max(0, nowMs - pendingTimestamps[i]));
        }
        pendingVisible = 0;
        if (pendingTimestamps.length > 4096) {
            pendingTimestamps = new long[64];
        }
    }

    void count(String topic, int n) {
        long[] c = counts.get(topic);
        if (c == null) {
            counts.put(topic, new long[] {n});
        } else {
            c[0] += n;
        }
    }

    void published(EpochProgress p) {
        last = new LatencyStats[] {
            p.sourceQueuingLatencyMs(), p.processingLatencyMs(), p.e2eLatencyMs(), p.e2eVisibleLatencyMs()
        };
        lastCommits = p.commits();
        commitsTotal = commitsTotal + p.commits().commits();
        abortsTotal = abortsTotal + p.commits().aborts();
        epochs = epochs + 1;
        inputRowsTotal = inputRowsTotal + p.numInputRows();
        busy = p.busyFraction();
    }

    long lastStat(int metric, int q) {
        return pick(last[metric], q);
    }

    long lastCommitStat(int q) {
        return pick(lastCommits.durationUs(), q);
    }

    long lastCommitPart(int part) {
        CommitProgress c = lastCommits;
        return switch (part) {
            case 0 -> c.preCommitUs();
            case 1 -> c.producerFlushUs();
            case 2 -> c.offsetsUs();
            default -> c.endTxnUs();
        };
    }

    private static long pick(LatencyStats s, int q) {
        return switch (q) {
            case 0 -> s.p50();
            case 1 -> s.p90();
            case 2 -> s.p95();
            case 3 -> s.p99();
            default -> s.max();
        };
    }
}
