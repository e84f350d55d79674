package dev.rtmstreams.topology;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The commits of one checkpoint epoch of a stream thread and where their time went. Under exactly-once in real-time
 * mode a thread commits a transaction every transaction interval ({@link RtmStreams.Builder#transactionInterval})
 * while its epochs close at the checkpoint interval, so an epoch holds many commits; otherwise each commit closes its
 * own epoch. A commit's duration runs from the first of its parts to the end of the last one, on the stream thread
 * (the thread processes nothing meanwhile). Kafka Streams 4.4 flushes no store memtable at a commit, so the parts are:
 * <ul>
 *   <li>{@code preCommitUs}: rtm-streams' operator stores writing what they batch until the commit (the join's
 *       changelog rows, watermarks), see {@link dev.rtmstreams.processor.spi.PreCommitTime};</li>
 *   <li>{@code producerFlushUs}: the producer flush, waiting for the acknowledgements of the records sent since the
 *       previous commit;</li>
 *   <li>{@code offsetsUs}: the input offsets: {@code sendOffsetsToTransaction} under exactly-once, the consumer's
 *       {@code commitSync} under at-least-once;</li>
 *   <li>{@code endTxnUs}: {@code commitTransaction} (the EndTxn request) under exactly-once, 0 under
 *       at-least-once.</li>
 * </ul>
 * What Kafka Streams does after the commit (at-least-once: writing the changelog offsets into each RocksDB store's
 * offsets column family) is not in these figures.
 *
 * @param commits successful commits in the epoch
 * @param aborts transactions aborted in the epoch (their output was never visible to {@code read_committed} readers)
 * @param durationUs percentiles of the commits' durations, in microseconds
 * @param preCommitUs mean time per commit of the before-commit store work, in microseconds
 * @param producerFlushUs mean time per commit of the producer flush, in microseconds
 * @param offsetsUs mean time per commit of committing the input offsets, in microseconds
 * @param endTxnUs mean time per commit of ending the transaction, in microseconds
 */
@InterfaceStability.Evolving
public record CommitProgress(
        long commits,
        long aborts,
        LatencyStats durationUs,
        long preCommitUs,
        long producerFlushUs,
        long offsetsUs,
        long endTxnUs) {

    /** An epoch without measured commits. */
    public static final CommitProgress NONE = new CommitProgress(0, 0, LatencyStats.EMPTY, 0, 0, 0, 0);
}
