package dev.rtmstreams.topology.internals;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.AssignmentReport;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.ProgressListener;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Checkpoint epochs and latency measurement of one application instance.
 * <p>Hot path (stream threads): {@link #onPoll} reads the clock once per poll, stamps each record with a 16-byte
 * header and records its queuing latency; {@link #onSend} reads the clock once per output record and records
 * processing and end-to-end latency into wait-free HdrHistogram {@link Recorder}s; {@link #onCommit} swaps the
 * interval histograms and counters and hands the snapshot to the progress thread of its {@link EpochReporter}, which
 * reads metrics, builds the {@link EpochProgress}, logs it as JSON and calls the listeners. All per-thread state
 * ({@link EpochThreadState}) is confined to its stream thread except the recorders and the published values, which
 * the thread's gauges ({@link EpochGauges}) read.
 */
public final class EpochRuntime implements AutoCloseable {

    /** Logger of the one-JSON-line-per-epoch progress log. */
    public static final String PROGRESS_LOGGER = "dev.rtmstreams.topology.progress";
    /** Metric group of the rtm metrics inside {@code KafkaStreams#metrics()}. */
    public static final String METRIC_GROUP = "rtm-epoch-metrics";
    /** The three latency metric names, as Databricks names them. */
    public static final List<String> LATENCY_METRICS =
            List.of("sourceQueuingLatencyMs", "processingLatencyMs", "e2eLatencyMs", "e2eVisibleLatencyMs");
    /** Percentiles of the commit durations of the latest epoch (microseconds), a summary like the latencies. */
    public static final String COMMIT_DURATION_METRIC = "commitDurationUs";

    private final String internalPrefix;
    private final ExecutionMode mode;
    private final Time time;
    private final ThreadLocal<EpochThreadState> local = new ThreadLocal<>();
    private final AtomicLong epochIds = new AtomicLong();
    private final Map<String, TopicKind> topicKinds = new java.util.concurrent.ConcurrentHashMap<>();
    private final EpochGauges gauges;
    private final EpochReporter reporter;
    private final long epochIntervalMs;
    private final boolean exactlyOnce;
    private final List<EpochThreadState> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicLong mainConsumers = new AtomicLong();
    private volatile boolean leaveGroupOnClose;

    /**
     * @param applicationId the application id (internal topics start with it)
     * @param mode trigger mode, reported in progress
     * @param time the clock (injected; {@code Time.SYSTEM} in production)
     * @param targetUtilization slot busy fraction target
     * @param tasksPerSlot slot packing
     * @param listeners initial listeners
     * @param epochIntervalMs how long an epoch lasts at least: the checkpoint interval when transactions commit more
     *     often than epochs close (exactly-once real-time mode), 0 when every commit closes an epoch
     * @param exactlyOnce true under {@code exactly_once_v2}: output becomes visible at its transaction's commit
     */
    public EpochRuntime(
            String applicationId,
            ExecutionMode mode,
            Time time,
            double targetUtilization,
            int tasksPerSlot,
            List<ProgressListener> listeners,
            long epochIntervalMs,
            boolean exactlyOnce) {
        if (epochIntervalMs < 0) {
            throw new IllegalArgumentException("epochIntervalMs must not be negative: " + epochIntervalMs);
        }
        this.epochIntervalMs = epochIntervalMs;
        this.exactlyOnce = exactlyOnce;
        this.internalPrefix = applicationId + "-";
        this.mode = mode;
        this.time = time;
        this.gauges = new EpochGauges(time);
        this.reporter = new EpochReporter(applicationId, mode, time, targetUtilization, tasksPerSlot, listeners);
    }

    /** Sets the Kafka Streams instance whose metrics and assignment are read. */
    public void attach(KafkaStreams kafkaStreams) {
        reporter.attach(kafkaStreams);
    }

    /** @return the latest epoch report of any thread */
    public Optional<EpochProgress> latest() {
        return reporter.latest();
    }

    /** @return up to the last 100 epoch reports, oldest first */
    public List<EpochProgress> recent() {
        return reporter.recent();
    }

    /** Makes the post-rebalance assignment check also count the whole group's slots. */
    public void groupSlots(GroupSlotsProbe probe) {
        reporter.groupSlots(probe);
    }

    /** @return the latest assignment report */
    public Optional<AssignmentReport> latestAssignment() {
        return reporter.latestAssignment();
    }

    /**
     * Counts a main consumer that reports to this runtime, as it is created: from the client supplier under the
     * classic protocol, through Kafka Streams' consumer wrapper under the streams protocol.
     */
    void mainConsumerCreated() {
        mainConsumers.incrementAndGet();
    }

    /**
     * @param leave whether the main consumers leave their group when Kafka Streams closes them without saying (Kafka
     *     Streams 4.1 calls {@code close()} on a consumer configured not to leave; 4.2 and later pass close options)
     */
    public void leaveGroupOnClose(boolean leave) {
        this.leaveGroupOnClose = leave;
    }

    /** @return whether a main consumer closed without options leaves its group */
    boolean leavesGroupOnClose() {
        return leaveGroupOnClose;
    }

    /** @return how many main consumers report to this runtime (one per stream thread once Kafka Streams is built) */
    public long mainConsumers() {
        return mainConsumers.get();
    }

    /** @return the rtm metrics (latest epoch's latency percentiles and counters per thread) */
    public Map<MetricName, ? extends Metric> rtmMetrics() {
        return gauges.metrics();
    }

    // ---------------------------------------------------------------- stream-thread side

    private EpochThreadState state() {
        EpochThreadState s = local.get();
        if (s == null) {
            Thread t = Thread.currentThread();
            s = new EpochThreadState(t.getName(), time.milliseconds(), epochIntervalMs);
            local.set(s);
            threads.add(s);
            gauges.register(s);
        }
        return s;
    }

    /** @return true under a micro-batch trigger: output records wait for the end of their epoch */
    boolean holdsOutputUntilEpochEnd() {
        return mode == ExecutionMode.MICRO_BATCH;
    }

    boolean isInternalTopic(String topic) {
        return kindOf(topic) != TopicKind.EXTERNAL;
    }

    /** What a topic is to this application, classified once per topic name (asked for every record polled or sent). */
    private TopicKind kindOf(String topic) {
        TopicKind kind = topicKinds.get(topic);
        if (kind == null) {
            kind = !topic.startsWith(internalPrefix)
                    ? TopicKind.EXTERNAL
                    : topic.endsWith("-changelog")
                            ? TopicKind.CHANGELOG
                            : topic.endsWith("-repartition") || topic.endsWith("-topic")
                                    ? TopicKind.REPARTITION
                                    : TopicKind.EXTERNAL;
            topicKinds.put(topic, kind);
        }
        return kind;
    }

    private enum TopicKind {
        /** a source or sink topic of the application */
        EXTERNAL,
        /** a state store's changelog */
        CHANGELOG,
        /** a repartition (or other internal, e.g. foreign-key subscription) topic */
        REPARTITION
    }

    /** Called by the main consumer after every non-empty poll, on the stream thread. */
    void onPoll(ConsumerRecords<byte[], byte[]> records) {
        long now = time.milliseconds();
        EpochThreadState s = state();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> list = records.records(tp);
            s.count(tp.topic(), list.size());
            boolean internal = isInternalTopic(tp.topic());
            for (ConsumerRecord<byte[], byte[]> r : list) {
                if (internal && LatencyHeader.find(r.headers()) != null) {
                    continue; // a shuffle: keep the original source's timestamp and poll time
                }
                long ts = r.timestamp();
                LatencyHeader.set(r.headers(), ts, now);
                if (!internal && ts >= 0) {
                    s.queuing.recordValue(Math.max(0, now - ts));
                }
            }
        }
    }

    /** Called by the producer for every record before it is sent, on the stream thread. */
    ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
        TopicKind kind = kindOf(record.topic());
        if (kind == TopicKind.REPARTITION) {
            return record; // repartition: the header travels to the next sub-topology
        }
        boolean internal = kind == TopicKind.CHANGELOG;
        Header h = record.headers() == null ? null : LatencyHeader.find(record.headers());
        if (internal) {
            return h == null ? record : strip(record);
        }
        long now = time.milliseconds();
        EpochThreadState s = state();
        if (h != null) {
            s.processing.recordValue(Math.max(0, now - LatencyHeader.pollTime(h)));
            long ts = LatencyHeader.sourceTimestamp(h);
            if (ts >= 0) {
                s.e2e.recordValue(Math.max(0, now - ts));
                if (exactlyOnce) {
                    s.awaitCommit(ts);
                }
            }
            return strip(record);
        }
        if (record.timestamp() != null && record.timestamp() >= 0) {
            // no source header (e.g. emitted by a punctuator from buffered rows): the output timestamp, which Kafka
            // Streams derives from the input record's, stands in for the source append time
            s.e2e.recordValue(Math.max(0, now - record.timestamp()));
            if (exactlyOnce) {
                s.awaitCommit(record.timestamp());
            }
        }
        return record;
    }

    /** Removes the latency header (in place: a producer record holds its own copy of the headers until it is sent). */
    private static ProducerRecord<byte[], byte[]> strip(ProducerRecord<byte[], byte[]> r) {
        r.headers().remove(LatencyHeader.KEY);
        return r;
    }

    /**
     * Called after every empty poll of the main consumer, on the stream thread: when transactions commit more often
     * than epochs close, closes an epoch whose interval has passed since its last commit (an idle thread makes no
     * further commit that would close it).
     */
    void onIdlePoll() {
        if (epochIntervalMs == 0) {
            return;
        }
        EpochThreadState s = local.get();
        if (s == null || s.commits.openCommits() == 0) {
            return;
        }
        EpochCommits.Closed closed = s.commits.closeIfDue(time.milliseconds());
        if (closed != null) {
            submit(s, closed);
        }
    }

    /** Called after each producer flush (Kafka Streams flushes before every commit), on the stream thread. */
    void onProducerFlush(long startNanos, long endNanos) {
        EpochThreadState s = state();
        s.commits.preCommit(dev.rtmstreams.processor.spi.PreCommitTime.take());
        s.commits.flushed(startNanos, endNanos);
    }

    /** Called after the input offsets were added to the transaction (exactly-once), on the stream thread. */
    void onOffsetsSent(Map<TopicPartition, OffsetAndMetadata> offsets, long startNanos, long endNanos) {
        EpochThreadState s = state();
        s.commits.preCommit(dev.rtmstreams.processor.spi.PreCommitTime.take());
        s.commits.offsetsSent(offsets, startNanos, endNanos);
    }

    /**
     * Called after every successful commit (offsets, or transaction when {@code transaction}) of a stream thread, on
     * that thread; closes the epoch when the epoch interval has passed (at once when it is 0).
     *
     * @param offsets the offsets committed by this call (at-least-once; empty for a transaction, whose offsets came
     *     through {@link #onOffsetsSent})
     */
    void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets, boolean transaction, long startNanos, long endNanos) {
        long now = time.milliseconds();
        EpochThreadState s = state();
        s.commits.preCommit(dev.rtmstreams.processor.spi.PreCommitTime.take());
        s.committedVisible(now);
        EpochCommits.Closed closed = s.commits.committed(offsets, transaction, startNanos, endNanos, now);
        if (closed != null) {
            submit(s, closed);
        }
    }

    /** Called when the transaction was aborted, on the stream thread: its output never becomes visible. */
    void onAbort() {
        EpochThreadState s = state();
        s.commits.aborted();
        s.pendingVisible = 0;
    }

    private void submit(EpochThreadState s, EpochCommits.Closed closed) {
        EpochReporter.Snapshot snap = new EpochReporter.Snapshot(
                epochIds.getAndIncrement(),
                s,
                closed.startMs(),
                closed.endMs(),
                s.counts,
                new HashMap<>(closed.offsets()),
                s.queuing.getIntervalHistogram(),
                s.processing.getIntervalHistogram(),
                s.e2e.getIntervalHistogram(),
                s.visible.getIntervalHistogram(),
                closed.commits());
        s.counts = new HashMap<>();
        reporter.submit(snap);
    }

    /**
     * Reports the open epochs that have commits but did not reach the epoch interval (the last ones of a closing
     * application). Call only once the stream threads have stopped.
     */
    public void closeOpenEpochs() {
        long now = time.milliseconds();
        for (EpochThreadState s : threads) {
            EpochCommits.Closed closed = s.commits.closeNow(now);
            if (closed != null) {
                submit(s, closed);
            }
        }
    }

    /** @return the progress as one JSON line */
    public String toJson(Object progress) {
        return reporter.toJson(progress);
    }

    /** Schedules the post-rebalance assignment check on the progress thread. */
    public void scheduleAssignmentCheck() {
        reporter.scheduleAssignmentCheck();
    }

    /** Stops the progress thread after delivering what is queued (waits up to 5 s). */
    @Override
    public void close() {
        reporter.close();
        gauges.close();
    }
}
