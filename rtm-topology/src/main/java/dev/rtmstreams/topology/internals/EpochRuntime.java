package dev.rtmstreams.topology.internals;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.AssignmentReport;
import dev.rtmstreams.topology.CommitProgress;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.LatencyStats;
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
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Checkpoint epochs and latency measurement of one application instance.
 * <p>Hot path (stream threads): {@link #onPoll} reads the clock once per poll, stamps each record with a 16-byte
 * header and records its queuing latency; {@link #onSend} reads the clock once per output record and records
 * processing and end-to-end latency into wait-free HdrHistogram {@link Recorder}s; {@link #onCommit} swaps the
 * interval histograms and counters and hands the snapshot to the progress thread of its {@link EpochReporter}, which
 * reads metrics, builds the {@link EpochProgress}, logs it as JSON and calls the listeners. All per-thread state is
 * confined to its stream thread except the recorders and the published values.
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
    private final ThreadLocal<ThreadState> local = new ThreadLocal<>();
    private final AtomicLong epochIds = new AtomicLong();
    private final Map<String, TopicKind> topicKinds = new java.util.concurrent.ConcurrentHashMap<>();
    private final Metrics metrics;
    private final EpochReporter reporter;
    private final long epochIntervalMs;
    private final boolean exactlyOnce;
    private final List<ThreadState> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
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
        this.metrics = new Metrics(new MetricConfig(), List.of(), time);
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

    /** @return the latest assignment report */
    /** Makes the post-rebalance assignment check also count the whole group's slots. */
    public void groupSlots(GroupSlotsProbe probe) {
        reporter.groupSlots(probe);
    }

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
        return metrics.metrics();
    }

    // ---------------------------------------------------------------- stream-thread side

    private ThreadState state() {
        ThreadState s = local.get();
        if (s == null) {
            Thread t = Thread.currentThread();
            s = new ThreadState(t.getName(), time.milliseconds(), epochIntervalMs);
            local.set(s);
            threads.add(s);
            registerGauges(s);
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
        ThreadState s = state();
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
        ThreadState s = state();
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
        ThreadState s = local.get();
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
        ThreadState s = state();
        s.commits.preCommit(dev.rtmstreams.processor.spi.PreCommitTime.take());
        s.commits.flushed(startNanos, endNanos);
    }

    /** Called after the input offsets were added to the transaction (exactly-once), on the stream thread. */
    void onOffsetsSent(Map<TopicPartition, OffsetAndMetadata> offsets, long startNanos, long endNanos) {
        ThreadState s = state();
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
        ThreadState s = state();
        s.commits.preCommit(dev.rtmstreams.processor.spi.PreCommitTime.take());
        s.committedVisible(now);
        EpochCommits.Closed closed = s.commits.committed(offsets, transaction, startNanos, endNanos, now);
        if (closed != null) {
            submit(s, closed);
        }
    }

    /** Called when the transaction was aborted, on the stream thread: its output never becomes visible. */
    void onAbort() {
        ThreadState s = state();
        s.commits.aborted();
        s.pendingVisible = 0;
    }

    private void submit(ThreadState s, EpochCommits.Closed closed) {
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
        for (ThreadState s : threads) {
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

    private void registerGauges(ThreadState s) {
        Map<String, String> tags = Map.of("thread-id", s.thread);
        String[] qs = {"p50", "p90", "p95", "p99", "max"};
        for (int j = 0; j < qs.length; j++) {
            int q = j;
            for (int i = 0; i < LATENCY_METRICS.size(); i++) {
                int metric = i;
                String m = LATENCY_METRICS.get(i);
                gauge(
                        m + "-" + qs[q],
                        m + " " + qs[q] + " of the latest checkpoint epoch",
                        tags,
                        (cfg, now) -> s.lastStat(metric, q));
            }
            gauge(
                    COMMIT_DURATION_METRIC + "-" + qs[q],
                    "commit duration " + qs[q] + " of the latest checkpoint epoch (microseconds)",
                    tags,
                    (cfg, now) -> s.lastCommitStat(q));
        }
        String[][] parts = {
            {"commit-pre-commit-us", "operator stores' before-commit writes"},
            {"commit-producer-flush-us", "producer flush"},
            {"commit-offsets-us", "input offsets (sendOffsetsToTransaction or commitSync)"},
            {"commit-end-txn-us", "commitTransaction (EndTxn)"}
        };
        for (int j = 0; j < parts.length; j++) {
            int part = j;
            gauge(
                    parts[j][0],
                    "mean per commit of the latest checkpoint epoch, microseconds: " + parts[j][1],
                    tags,
                    (cfg, now) -> s.lastCommitPart(part));
        }
        gauge("commit-total", "commits (transactions under exactly-once)", tags, (cfg, now) -> s.commitsTotal);
        gauge("commit-aborts-total", "aborted transactions", tags, (cfg, now) -> s.abortsTotal);
        gauge("epoch-total", "closed checkpoint epochs", tags, (cfg, now) -> s.epochs);
        gauge("input-rows-total", "records polled, all epochs", tags, (cfg, now) -> s.inputRowsTotal);
        metrics.addMetric(
                metrics.metricName(
                        "busy-fraction", METRIC_GROUP, "process+punctuate+commit ratio at the latest epoch", tags),
                (Gauge<Double>) (cfg, now) -> s.busy);
    }

    private void gauge(String name, String description, Map<String, String> tags, Gauge<Long> value) {
        metrics.addMetric(metrics.metricName(name, METRIC_GROUP, description, tags), value);
    }

    /** Stops the progress thread after delivering what is queued (waits up to 5 s). */
    @Override
    public void close() {
        reporter.close();
        metrics.close();
    }

    /** Per stream thread state. Counters are touched by the stream thread only; recorders are wait-free. */
    static final class ThreadState {
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

        ThreadState(String thread, long startMs, long epochIntervalMs) {
            this.thread = thread;
            this.commits = new EpochCommits(epochIntervalMs, startMs);
        }

        /** An output record caused by a source record of timestamp {@code ts} joined the open transaction. */
        void awaitCommit(long ts) {
            if (pendingVisible == pendingTimestamps.length) {
                pendingTimestamps = java.util.Arrays.copyOf(pendingTimestamps, pendingVisible * 2);
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
}
