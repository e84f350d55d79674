package dev.rtmstreams.topology;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.internals.compat.Versions;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Report of one checkpoint epoch, like Spark's {@code StreamingQueryProgress}. An epoch is the work of one stream
 * thread between two of its commits (offset commits under at-least-once, transaction commits under exactly-once):
 * the commit that ends the epoch is a real, successful commit. Under exactly-once in real-time mode transactions
 * commit at the (short) transaction interval and an epoch closes at the first commit once the checkpoint interval
 * has passed, so one epoch spans many commits ({@link #commits()}). Logged as one JSON line per epoch
 * (logger {@code dev.rtmstreams.topology.progress}) and passed to {@link ProgressListener}s.
 * Values measured on other threads (state and busy-fraction metrics) are read right after the commit.
 *
 * @param applicationId Kafka Streams {@code application.id}
 * @param epochId id of the epoch, unique and increasing within this application instance (across its threads)
 * @param threadName the stream thread (slot) that ran the epoch
 * @param mode the trigger mode
 * @param startTimeMs wall-clock start (epoch ms): the previous commit of this thread, or its first poll
 * @param endTimeMs wall-clock end (epoch ms): the commit that closed the epoch
 * @param numInputRows records polled during the epoch, all source topics (incl. repartition topics) together
 * @param inputRowsPerSecond {@code numInputRows} per second of epoch duration
 * @param sources per source topic; unmodifiable
 * @param watermarkMs the lowest event-time watermark reported by this thread's operators, or null when no
 *     operator reports one
 * @param stateRowsEstimate estimated number of keys in this thread's RocksDB stores ({@code estimate-num-keys}),
 *     -1 when no store reports it
 * @param stateBytesEstimate estimated bytes of this thread's RocksDB stores (SST files plus memtables), -1 when
 *     no store reports it
 * @param busyFraction share of the thread's time spent processing, punctuating and committing (Kafka Streams'
 *     {@code process-ratio + punctuate-ratio + commit-ratio}), -1 when unknown
 * @param sourceQueuingLatencyMs Kafka record timestamp (append time for LogAppendTime topics, else create time)
 *     to the poll that returned it, for records of external source topics
 * @param processingLatencyMs poll of the source record to the send of an output record it caused
 * @param e2eLatencyMs source record timestamp to the send of an output record it caused
 * @param stateOperators the thread's transformWithState operators with Spark's custom metrics for the epoch;
 *     unmodifiable, empty when the thread runs none
 * @param commits the epoch's commits and where their time went; {@link CommitProgress#NONE} when not measured
 * @param e2eVisibleLatencyMs under exactly-once: source record timestamp to the commit of the transaction that made
 *     an output record it caused visible to {@code read_committed} readers (what such a reader waits for, apart
 *     from its own fetch); {@link LatencyStats#EMPTY} under at-least-once, where output is visible when sent
 *     ({@code e2eLatencyMs})
 * @param rtmVersion the rtm-streams version that ran the epoch, e.g. {@code 0.2.0}; {@code unknown} when not
 *     packaged with one; never null
 * @param kafkaStreamsVersion the Kafka Streams version that ran the epoch, e.g. {@code 4.4.0}; {@code unknown} when
 *     it cannot be read; never null
 */
@InterfaceStability.Evolving
public record EpochProgress(
        String applicationId,
        long epochId,
        String threadName,
        ExecutionMode mode,
        long startTimeMs,
        long endTimeMs,
        long numInputRows,
        double inputRowsPerSecond,
        Map<String, SourceProgress> sources,
        Long watermarkMs,
        long stateRowsEstimate,
        long stateBytesEstimate,
        double busyFraction,
        LatencyStats sourceQueuingLatencyMs,
        LatencyStats processingLatencyMs,
        LatencyStats e2eLatencyMs,
        java.util.List<StateOperatorProgress> stateOperators,
        CommitProgress commits,
        LatencyStats e2eVisibleLatencyMs,
        String rtmVersion,
        String kafkaStreamsVersion) {

    /** Copies the sources and operators; a null version is {@code unknown}. */
    public EpochProgress {
        sources = Map.copyOf(sources);
        stateOperators = java.util.List.copyOf(stateOperators);
        java.util.Objects.requireNonNull(commits, "commits");
        java.util.Objects.requireNonNull(e2eVisibleLatencyMs, "e2eVisibleLatencyMs");
        rtmVersion = rtmVersion == null ? Versions.UNKNOWN : rtmVersion;
        kafkaStreamsVersion = kafkaStreamsVersion == null ? Versions.UNKNOWN : kafkaStreamsVersion;
    }

    /**
     * The report without versions, as before they were added: {@link #rtmVersion()} and
     * {@link #kafkaStreamsVersion()} are this process's.
     */
    public EpochProgress(
            String applicationId,
            long epochId,
            String threadName,
            ExecutionMode mode,
            long startTimeMs,
            long endTimeMs,
            long numInputRows,
            double inputRowsPerSecond,
            Map<String, SourceProgress> sources,
            Long watermarkMs,
            long stateRowsEstimate,
            long stateBytesEstimate,
            double busyFraction,
            LatencyStats sourceQueuingLatencyMs,
            LatencyStats processingLatencyMs,
            LatencyStats e2eLatencyMs,
            java.util.List<StateOperatorProgress> stateOperators,
            CommitProgress commits,
            LatencyStats e2eVisibleLatencyMs) {
        this(
                applicationId,
                epochId,
                threadName,
                mode,
                startTimeMs,
                endTimeMs,
                numInputRows,
                inputRowsPerSecond,
                sources,
                watermarkMs,
                stateRowsEstimate,
                stateBytesEstimate,
                busyFraction,
                sourceQueuingLatencyMs,
                processingLatencyMs,
                e2eLatencyMs,
                stateOperators,
                commits,
                e2eVisibleLatencyMs,
                Versions.rtm(),
                Versions.kafkaStreams());
    }

    /** @return {@code endTimeMs - startTimeMs} */
    public long durationMs() {
        return endTimeMs - startTimeMs;
    }
}
