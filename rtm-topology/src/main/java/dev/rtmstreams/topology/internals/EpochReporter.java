package dev.rtmstreams.topology.internals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.AssignmentReport;
import dev.rtmstreams.topology.CommitProgress;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.GroupSlots;
import dev.rtmstreams.topology.LatencyStats;
import dev.rtmstreams.topology.ProgressListener;
import dev.rtmstreams.topology.SourceProgress;
import dev.rtmstreams.topology.internals.compat.Versions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress-thread side of an {@link EpochRuntime}: one thread that turns each closed epoch's snapshot into an
 * {@link EpochProgress} (reading the Kafka Streams metrics), keeps the latest and recent ones, logs each as one JSON
 * line on {@value EpochRuntime#PROGRESS_LOGGER} and calls the listeners; it also runs the post-rebalance assignment
 * check. Logs under {@link EpochRuntime}'s name.
 */
final class EpochReporter implements AutoCloseable {

    private static final int RECENT = 100;
    private static final Logger LOG = LoggerFactory.getLogger(EpochRuntime.class);
    private static final Logger PROGRESS_LOG = LoggerFactory.getLogger(EpochRuntime.PROGRESS_LOGGER);

    private final String applicationId;
    private final ExecutionMode mode;
    private final Time time;
    private final double targetUtilization;
    private final int tasksPerSlot;
    private final List<ProgressListener> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService executor;
    private final ObjectMapper json = new ObjectMapper();
    /** Per stream thread: Spark's custom metrics at its previous epoch (epochs of one thread are reported in order). */
    private final Map<String, StateOperatorDeltas> stateOperatorDeltas = new java.util.concurrent.ConcurrentHashMap<>();

    private final ArrayDeque<EpochProgress> recent = new ArrayDeque<>();
    private volatile KafkaStreams streams;
    private volatile EpochProgress latest;
    private volatile AssignmentReport latestAssignment;

    /**
     * @param applicationId the application id, reported in progress
     * @param mode trigger mode, reported in progress
     * @param time the clock
     * @param targetUtilization slot busy fraction target
     * @param tasksPerSlot slot packing
     * @param listeners initial listeners
     */
    EpochReporter(
            String applicationId,
            ExecutionMode mode,
            Time time,
            double targetUtilization,
            int tasksPerSlot,
            List<ProgressListener> listeners) {
        this.applicationId = applicationId;
        this.mode = mode;
        this.time = time;
        this.targetUtilization = targetUtilization;
        this.tasksPerSlot = tasksPerSlot;
        this.listeners.addAll(listeners);
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "rtm-progress-" + applicationId);
            t.setDaemon(true);
            return t;
        });
    }

    /** Sets the Kafka Streams instance whose metrics and assignment are read. */
    void attach(KafkaStreams kafkaStreams) {
        this.streams = kafkaStreams;
    }

    /** @return the latest epoch report of any thread */
    Optional<EpochProgress> latest() {
        return Optional.ofNullable(latest);
    }

    /** @return up to the last 100 epoch reports, oldest first */
    List<EpochProgress> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    /** @return the latest assignment report */
    Optional<AssignmentReport> latestAssignment() {
        return Optional.ofNullable(latestAssignment);
    }

    /**
     * Hands a closed epoch to the progress thread; after {@link #close} it is dropped (logged at debug).
     *
     * @param snap the epoch
     */
    void submit(Snapshot snap) {
        try {
            executor.execute(() -> publish(snap));
        } catch (RejectedExecutionException closed) {
            LOG.debug("epoch {} of {} closed after shutdown; not reported", snap.epochId, snap.state.thread);
        }
    }

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
                            .next(dev.rtmstreams.processor.RtmProcessorMetrics.sparkCustomMetrics(m, thread)),
                    snap.commits,
                    stats(snap.visible),
                    Versions.rtm(),
                    Versions.kafkaStreams());
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
    String toJson(Object progress) {
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

    private volatile GroupSlotsProbe groupSlots;

    /** Sets how the assignment check counts the whole group's slots (null: it does not). */
    void groupSlots(GroupSlotsProbe probe) {
        this.groupSlots = probe;
    }

    /** Schedules the post-rebalance assignment check on the progress thread. */
    void scheduleAssignmentCheck() {
        try {
            executor.execute(this::checkAssignment);
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
            GroupSlotsProbe probe = groupSlots;
            GroupSlots group = probe == null ? null : probe.probe();
            if (group != null && group.undersized()) {
                violations.add("the group has " + group.slotsPresent() + " slots (stream threads) on "
                        + group.instancesPresent() + " instance(s), the topology needs " + group.slotsRequired()
                        + " at tasksPerSlot=" + tasksPerSlot + " (expected " + group.slotsExpected()
                        + "): start more instances or stream threads");
            }
            AssignmentReport report = new AssignmentReport(
                    applicationId, time.milliseconds(), slots, tasksPerSlot, targetUtilization, violations, group);
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

    /** Stops the progress thread after delivering what is queued (waits up to 5 s). */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
    }

    /** One stream thread's closed epoch, handed from the stream thread to the progress thread. */
    record Snapshot(
            long epochId,
            EpochThreadState state,
            long startMs,
            long endMs,
            Map<String, long[]> counts,
            Map<TopicPartition, OffsetAndMetadata> offsets,
            Histogram queuing,
            Histogram processing,
            Histogram e2e,
            Histogram visible,
            CommitProgress commits) {}
}
