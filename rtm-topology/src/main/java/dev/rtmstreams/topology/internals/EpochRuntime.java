package dev.rtmstreams.topology.internals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.AssignmentReport;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.LatencyStats;
import dev.rtmstreams.topology.ProgressListener;
import dev.rtmstreams.topology.SourceProgress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
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
import org.apache.kafka.streams.ThreadMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoint epochs and latency measurement of one application instance.
 * <p>Hot path (stream threads): {@link #onPoll} reads the clock once per poll, stamps each record with a 16-byte
 * header and records its queuing latency; {@link #onSend} reads the clock once per output record and records
 * processing and end-to-end latency into wait-free HdrHistogram {@link Recorder}s; {@link #onCommit} swaps the
 * interval histograms and counters and hands the snapshot to one progress thread, which reads metrics, builds the
 * {@link EpochProgress}, logs it as JSON and calls the listeners. All per-thread state is confined to its stream
 * thread except the recorders and the published values.
 */
public final class EpochRuntime implements AutoCloseable {

    /** Logger of the one-JSON-line-per-epoch progress log. */
    public static final String PROGRESS_LOGGER = "dev.rtmstreams.topology.progress";
    /** Metric group of the rtm metrics inside {@code KafkaStreams#metrics()}. */
    public static final String METRIC_GROUP = "rtm-epoch-metrics";
    /** The three latency metric names, as Databricks names them. */
    public static final List<String> LATENCY_METRICS =
            List.of("sourceQueuingLatencyMs", "processingLatencyMs", "e2eLatencyMs");

    private static final int RECENT = 100;
    private static final Logger LOG = LoggerFactory.getLogger(EpochRuntime.class);
    private static final Logger PROGRESS_LOG = LoggerFactory.getLogger(PROGRESS_LOGGER);

    private final String applicationId;
    private final String internalPrefix;
    private final ExecutionMode mode;
    private final Time time;
    private final double targetUtilization;
    private final int tasksPerSlot;
    private final List<ProgressListener> listeners = new CopyOnWriteArrayList<>();
    private final ThreadLocal<ThreadState> local = new ThreadLocal<>();
    private final AtomicLong epochIds = new AtomicLong();
    private final ExecutorService progressExecutor;
    private final ObjectMapper json = new ObjectMapper();
    /** Per stream thread: Spark's custom metrics at its previous epoch (epochs of one thread are reported in order). */
    private final Map<String, TopicKind> topicKinds = new java.util.concurrent.ConcurrentHashMap<>();

    private final Map<String, StateOperatorDeltas> stateOperatorDeltas = new java.util.concurrent.ConcurrentHashMap<>();

    private final Metrics metrics;
    private final ArrayDeque<EpochProgress> recent = new ArrayDeque<>();
    private volatile KafkaStreams streams;
    private volatile EpochProgress latest;
    private volatile AssignmentReport latestAssignment;

    /**
     * @param applicationId the application id (internal topics start with it)
     * @param mode trigger mode, reported in progress
     * @param time the clock (injected; {@code Time.SYSTEM} in production)
     * @param targetUtilization slot busy fraction target
     * @param tasksPerSlot slot packing
     * @param listeners initial listeners
     */
    public EpochRuntime(
            String applicationId,
            ExecutionMode mode,
            Time time,
            double targetUtilization,
            int tasksPerSlot,
            List<ProgressListener> listeners) {
        this.applicationId = applicationId;
        this.internalPrefix = applicationId + "-";
        this.mode = mode;
        this.time = time;
        this.targetUtilization = targetUtilization;
        this.tasksPerSlot = tasksPerSlot;
        this.listeners.addAll(listeners);
        this.metrics = new Metrics(new MetricConfig(), List.of(), time);
        this.progressExecutor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "rtm-progress-" + applicationId);
            t.setDaemon(true);
            return t;
        });
    }

    /** Sets the Kafka Streams instance whose metrics and assignment are read. */
    public void attach(KafkaStreams kafkaStreams) {
        this.streams = kafkaStreams;
    }

    /** @return the latest epoch report of any thread */
    public Optional<EpochProgress> latest() {
        return Optional.ofNullable(latest);
    }

    /** @return up to the last 100 epoch reports, oldest first */
    public List<EpochProgress> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    /** @return the latest assignment report */
    public Optional<AssignmentReport> latestAssignment() {
        return Optional.ofNullable(latestAssignment);
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
            s = new ThreadState(t.getName(), time.milliseconds());
            local.set(s);
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
            }
            return strip(record);
        }
        if (record.timestamp() != null && record.timestamp() >= 0) {
            // no source header (e.g. emitted by a punctuator from buffered rows): the output timestamp, which Kafka
            // Streams derives from the input record's, stands in for the source append time
            s.e2e.recordValue(Math.max(0, now - record.timestamp()));
        }
        return record;
    }

    /** Removes the latency header (in place: a producer record holds its own copy of the headers until it is sent). */
    private static ProducerRecord<byte[], byte[]> strip(ProducerRecord<byte[], byte[]> r) {
        r.headers().remove(LatencyHeader.KEY);
        return r;
    }

    /** Called after every successful commit (offsets or transaction) of a stream thread, on that thread. */
    void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        long now = time.milliseconds();
        ThreadState s = state();
        Snapshot snap = new Snapshot(
                epochIds.getAndIncrement(),
                s,
                s.startMs,
                now,
                s.counts,
                new HashMap<>(offsets),
                s.queuing.getIntervalHistogram(),
                s.processing.getIntervalHistogram(),
                s.e2e.getIntervalHistogram());
        s.counts = new HashMap<>();
        s.startMs = now;
        try {
            progressExecutor.execute(() -> publish(snap));
        } catch (RejectedExecutionException closed) {
            LOG.debug("epoch {} of {} closed after shutdown; not reported", snap.epochId, s.thread);
        }
    }

    // ---------------------------------------------------------------- progress-thread side

    private void publish(Snapshot snap) {
        try {
            KafkaStreams ks = streams;
            Map<MetricName, ? extends Metric> m = ks == null ? Map.of() : ks.metrics();
            String thread = snap.state.thread;
            long duration = Math.max(1, snap.endMs - snap.startMs);
            Map<String, Map<Integer, Long>> offsetsByTopic = new TreeMap<>();
            snap.offsets.forEach((tp, om) -> offsetsByTopic
                    .computeIfAbsent(tp.topic(), k -> new TreeMap<>())
                    .put(tp.partition(), om.offset()));
            Map<String, SourceProgress> sources = new TreeMap<>();
            long total = 0;
            java.util.Set<String> topics = new java.util.TreeSet<>(snap.counts.keySet());
            topics.addAll(offsetsByTopic.keySet());
            for (String topic : topics) {
                long[] c = snap.counts.get(topic);
                long n = c == null ? 0 : c[0];
                total += n;
                sources.put(
                        topic,
                        new SourceProgress(
                                topic, n, n * 1000.0 / duration, offsetsByTopic.getOrDefault(topic, Map.of())));
            }
            long sst = MetricsReader.sumStateMetric(m, thread, "total-sst-files-size");
            long mem = MetricsReader.sumStateMetric(m, thread, "size-all-mem-tables");
            long bytes = sst < 0 && mem < 0 ? -1 : Math.max(0, sst) + Math.max(0, mem);
            LatencyStats q = stats(snap.queuing);
            LatencyStats p = stats(snap.processing);
            LatencyStats e = stats(snap.e2e);
            double busy = MetricsReader.busyFraction(m, thread);
            EpochProgress progress = new EpochProgress(
                    applicationId,
                    snap.epochId,
                    thread,
                    mode,
                    snap.startMs,
                    snap.endMs,
                    total,
                    total * 1000.0 / duration,
                    sources,
                    MetricsReader.watermark(m, thread),
                    MetricsReader.sumStateMetric(m, thread, "estimate-num-keys"),
                    bytes,
                    busy,
                    q,
                    p,
                    e,
                    stateOperatorDeltas
                            .computeIfAbsent(thread, t -> new StateOperatorDeltas())
                            .next(dev.rtmstreams.processor.RtmProcessorMetrics.sparkCustomMetrics(m, thread)));
            snap.state.published(progress);
            latest = progress;
            synchronized (recent) {
                recent.addLast(progress);
                if (recent.size() > RECENT) {
                    recent.removeFirst();
                }
            }
            if (PROGRESS_LOG.isInfoEnabled()) {
                PROGRESS_LOG.info(toJson(progress));
            }
            for (ProgressListener l : listeners) {
                try {
                    l.onEpochProgress(progress);
                } catch (RuntimeException ex) {
                    LOG.warn("progress listener {} failed on epoch {}", l, progress.epochId(), ex);
                }
            }
        } catch (RuntimeException ex) {
            LOG.warn("cannot report epoch {} of {}", snap.epochId, snap.state.thread, ex);
        }
    }

    /** @return the progress as one JSON line */
    public String toJson(Object progress) {
        try {
            return json.writeValueAsString(progress);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException("cannot serialize progress", ex);
        }
    }

    static LatencyStats stats(Histogram h) {
        if (h.getTotalCount() == 0) {
            return LatencyStats.EMPTY;
        }
        return new LatencyStats(
                h.getTotalCount(),
                h.getValueAtPercentile(50),
                h.getValueAtPercentile(90),
                h.getValueAtPercentile(95),
                h.getValueAtPercentile(99),
                h.getMaxValue());
    }

    /** Schedules the post-rebalance assignment check on the progress thread. */
    public void scheduleAssignmentCheck() {
        try {
            progressExecutor.execute(this::checkAssignment);
        } catch (RejectedExecutionException closed) {
            LOG.debug("assignment check after shutdown skipped");
        }
    }

    private void checkAssignment() {
        KafkaStreams ks = streams;
        if (ks == null) {
            return;
        }
        try {
            Map<MetricName, ? extends Metric> m = ks.metrics();
            List<ThreadMetadata> md = new ArrayList<>(ks.metadataForLocalThreads());
            md.sort(Comparator.comparing(ThreadMetadata::threadName));
            List<AssignmentReport.Slot> slots = new ArrayList<>();
            List<String> violations = new ArrayList<>();
            for (ThreadMetadata t : md) {
                List<String> active = t.activeTasks().stream()
                        .map(x -> x.taskId().toString())
                        .sorted()
                        .toList();
                List<String> standby = t.standbyTasks().stream()
                        .map(x -> x.taskId().toString())
                        .sorted()
                        .toList();
                double busy = MetricsReader.busyFraction(m, t.threadName());
                slots.add(new AssignmentReport.Slot(t.threadName(), active, standby, busy, busy > targetUtilization));
                if (active.size() > tasksPerSlot) {
                    violations.add("slot " + t.threadName() + " runs " + active.size() + " active tasks " + active
                            + ", more than tasksPerSlot=" + tasksPerSlot);
                }
            }
            AssignmentReport report = new AssignmentReport(
                    applicationId, time.milliseconds(), slots, tasksPerSlot, targetUtilization, violations);
            latestAssignment = report;
            if (violations.isEmpty()) {
                LOG.info(
                        "assignment of {}: {} active tasks on {} slots, within {} task(s) per slot: {}",
                        applicationId,
                        report.activeTasks(),
                        slots.size(),
                        tasksPerSlot,
                        toJson(report));
            } else {
                LOG.warn(
                        "assignment of {} violates real-time slot rules: {}; {}",
                        applicationId,
                        violations,
                        toJson(report));
            }
            for (ProgressListener l : listeners) {
                try {
                    l.onAssignment(report);
                } catch (RuntimeException ex) {
                    LOG.warn("progress listener {} failed on assignment report", l, ex);
                }
            }
        } catch (RuntimeException ex) {
            LOG.warn("assignment check of {} failed", applicationId, ex);
        }
    }

    private void registerGauges(ThreadState s) {
        Map<String, String> tags = Map.of("thread-id", s.thread);
        String[] qs = {"p50", "p90", "p95", "p99", "max"};
        for (int i = 0; i < LATENCY_METRICS.size(); i++) {
            int metric = i;
            for (int j = 0; j < qs.length; j++) {
                int q = j;
                MetricName name = metrics.metricName(
                        LATENCY_METRICS.get(i) + "-" + qs[j],
                        METRIC_GROUP,
                        LATENCY_METRICS.get(i) + " " + qs[j] + " of the latest checkpoint epoch",
                        tags);
                metrics.addMetric(name, (Gauge<Long>) (cfg, now) -> s.lastStat(metric, q));
            }
        }
        metrics.addMetric(
                metrics.metricName("epoch-total", METRIC_GROUP, "closed checkpoint epochs", tags),
                (Gauge<Long>) (cfg, now) -> s.epochs);
        metrics.addMetric(
                metrics.metricName("input-rows-total", METRIC_GROUP, "records polled, all epochs", tags),
                (Gauge<Long>) (cfg, now) -> s.inputRowsTotal);
        metrics.addMetric(
                metrics.metricName(
                        "busy-fraction", METRIC_GROUP, "process+punctuate+commit ratio at the latest epoch", tags),
                (Gauge<Double>) (cfg, now) -> s.busy);
    }

    /** Stops the progress thread after delivering what is queued (waits up to 5 s). */
    @Override
    public void close() {
        progressExecutor.shutdown();
        try {
            if (!progressExecutor.awaitTermination(5, TimeUnit.SECONDS)) {
                progressExecutor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            progressExecutor.shutdownNow();
        }
        metrics.close();
    }

    /** Per stream thread state. Counters are touched by the stream thread only; recorders are wait-free. */
    static final class ThreadState {
        final String thread;
        final Recorder queuing = new Recorder(3);
        final Recorder processing = new Recorder(3);
        final Recorder e2e = new Recorder(3);
        Map<String, long[]> counts = new HashMap<>();
        long startMs;
        volatile LatencyStats[] last = {LatencyStats.EMPTY, LatencyStats.EMPTY, LatencyStats.EMPTY};
        volatile long epochs;
        volatile long inputRowsTotal;
        volatile double busy = -1;

        ThreadState(String thread, long startMs) {
            this.thread = thread;
            this.startMs = startMs;
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
            last = new LatencyStats[] {p.sourceQueuingLatencyMs(), p.processingLatencyMs(), p.e2eLatencyMs()};
            epochs = epochs + 1;
            inputRowsTotal = inputRowsTotal + p.numInputRows();
            busy = p.busyFraction();
        }

        long lastStat(int metric, int q) {
            LatencyStats s = last[metric];
            return switch (q) {
                case 0 -> s.p50();
                case 1 -> s.p90();
                case 2 -> s.p95();
                case 3 -> s.p99();
                default -> s.max();
            };
        }
    }

    private record Snapshot(
            long epochId,
            ThreadState state,
            long startMs,
            long endMs,
            Map<String, long[]> counts,
            Map<TopicPartition, OffsetAndMetadata> offsets,
            Histogram queuing,
            Histogram processing,
            Histogram e2e) {}
}
