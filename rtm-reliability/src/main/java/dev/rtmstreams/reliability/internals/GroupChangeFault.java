package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.tools.PrometheusText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Instances of one application id started, stopped, restarted or killed under load (scale-out, scale-in,
 * rolling-restart, instance-kill), with the group's active tasks sampled from every running instance's {@code /metrics}
 * every 250 ms (a {@link TaskTimeline}) from before the load until every moved task processes again on its new owner.
 * The strike returns once the running instances hold every task, each once, unchanged for 3 s.
 */
final class GroupChangeFault implements Fault {

    /** What is done to the group at the scheduled time. */
    enum Kind {
        /** one instance runs; the others are started at once */
        SCALE_OUT,
        /** all run; all but the last are stopped gracefully (SIGTERM), one after the other */
        SCALE_IN,
        /** all run; each is stopped gracefully and started again with its state directory, one after the other */
        ROLLING_RESTART,
        /** all run; the first is killed ({@code kill -9}) */
        KILL
    }

    private static final Logger LOG = LoggerFactory.getLogger(GroupChangeFault.class);
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(250);
    private static final Duration STABLE_FOR = Duration.ofSeconds(3);
    private static final Duration SHARE_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(60);

    private final Kind kind;
    private final GroupSettings group;
    private final TaskTimeline timeline = new TaskTimeline();
    private final AtomicBoolean sampling = new AtomicBoolean();
    private Thread sampler;
    private volatile long firstInputNanos = -1;

    GroupChangeFault(Kind kind, GroupSettings group) {
        this.kind = kind;
        this.group = group;
    }

    Kind kind() {
        return kind;
    }

    @Override
    public int instances() {
        return group.instances();
    }

    @Override
    public int startedAtFirst() {
        return kind == Kind.SCALE_OUT ? 1 : group.instances();
    }

    /**
     * Starts sampling, starts watching for the load's first input record (the load run's per-second series count
     * from its first send, which comes a few seconds after the runner starts it) and waits until the running instances
     * share every task.
     */
    @Override
    public void beforeLoad(RunContext run) throws InterruptedException {
        startSampling(run);
        watchFirstInput(run);
        Set<String> running = running(run);
        if (awaitSettled(run, running, System.nanoTime() + SHARE_TIMEOUT.toNanos()) < 0) {
            stopSampling();
            throw new IllegalStateException("the " + running.size() + " instances did not share the " + tasksTotal(run)
                    + " tasks within 90 s: " + timeline.ownership(System.nanoTime(), running));
        }
    }

    @Override
    public Optional<Strike> strike() {
        return Optional.of(this::change);
    }

    @Override
    public void afterLoad(RunContext run) {
        stopSampling();
    }

    /** Two sub-topologies (attribution, correlation), one task per partition each. */
    private static long tasksTotal(RunContext run) {
        return 2L * run.settings().partitions();
    }

    private InjectedFault.GroupChange change(RunContext run, Runnable whileDown) throws Exception {
        try {
            return changeAndMeasure(run);
        } finally {
            stopSampling();
        }
    }

    private InjectedFault.GroupChange changeAndMeasure(RunContext run) throws Exception {
        List<ServiceInstance> all = run.instances();
        long faultNanos = System.nanoTime();
        double atS = run.secondsIntoLoad(faultNanos);
        SortedMap<String, SortedSet<String>> before = timeline.ownership(faultNanos, running(run));
        List<String> steps = new ArrayList<>();
        String what = switch (kind) {
            case SCALE_OUT -> {
                List<ServiceInstance> added = all.subList(1, all.size());
                added.forEach(ServiceInstance::start);
                for (ServiceInstance i : added) {
                    i.awaitRunning(run.settings().readyTimeout());
                    steps.add(step(i.name() + " started, RUNNING", faultNanos));
                }
                yield "scale-out 1 -> " + all.size();
            }
            case SCALE_IN -> {
                for (ServiceInstance i : all.subList(0, all.size() - 1)) {
                    Duration took = i.stop();
                    steps.add(step(i.name() + " stopped (SIGTERM) in " + took.toMillis() + " ms", faultNanos));
                }
                yield "scale-in " + all.size() + " -> 1";
            }
            case ROLLING_RESTART -> {
                for (ServiceInstance i : all) {
                    Duration took = i.stop();
                    steps.add(step(i.name() + " stopped (SIGTERM) in " + took.toMillis() + " ms", faultNanos));
                    i.start();
                    i.awaitRunning(run.settings().readyTimeout());
                    steps.add(step(i.name() + " RUNNING again", faultNanos));
                    long settled = awaitSettled(run, running(run), System.nanoTime() + SETTLE_TIMEOUT.toNanos());
                    steps.add(
                            settled < 0
                                    ? i.name() + ": the group did not settle within 120 s"
                                    : step("group settled", faultNanos));
                }
                yield "rolling restart of " + all.size() + " instances";
            }
            case KILL -> {
                ServiceInstance victim = all.get(0);
                String pid = Long.toString(victim.pid());
                victim.kill9();
                steps.add(step(victim.name() + " killed (kill -9, pid " + pid + ")", faultNanos));
                yield "kill -9 of " + victim.name() + ", one of " + all.size();
            }
        };
        Set<String> after = running(run);
        long settledNanos = awaitSettled(run, after, System.nanoTime() + SETTLE_TIMEOUT.toNanos());
        SortedMap<String, SortedSet<String>> assignmentAfter =
                timeline.ownership(settledNanos < 0 ? System.nanoTime() : settledNanos, after);
        SortedSet<String> moved = TaskTimeline.moved(before, assignmentAfter);
        long resumedMs = awaitMovedResumed(moved, assignmentAfter, faultNanos);
        long windowEnd = System.nanoTime();
        TaskTimeline.Pause pause = timeline.longestPause(allTasks(run), faultNanos, windowEnd);
        LOG.info(
                "{}: settled {} ms after the fault; moved {}; moved tasks processing again after {} ms",
                what,
                settledNanos < 0 ? -1 : RunContext.millis(settledNanos - faultNanos),
                moved,
                resumedMs);
        return new InjectedFault.GroupChange(
                faultNanos,
                what,
                atS,
                firstInputNanos < 0 ? -1 : RunContext.round3((faultNanos - firstInputNanos) / 1e9),
                group.protocol(),
                group.effectiveStandbyReplicas(),
                group.staticMembership(),
                group.effectiveSessionTimeout().toMillis(),
                steps,
                lists(before),
                lists(assignmentAfter),
                tasksTotal(run),
                settledNanos < 0 ? -1 : RunContext.millis(settledNanos - faultNanos),
                moved.size(),
                List.copyOf(moved),
                resumedMs,
                pause.pauseMs(),
                pause.task() + (pause.recovered() ? "" : " (not processing at the end of the window)"));
    }

    private static Map<String, List<String>> lists(Map<String, SortedSet<String>> assignment) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        assignment.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return out;
    }

    private static String step(String what, long faultNanos) {
        return String.format(Locale.ROOT, "%s at +%.1f s", what, (System.nanoTime() - faultNanos) / 1e9);
    }

    /** @return the names of the instances whose JVM is alive */
    private static Set<String> running(RunContext run) {
        Set<String> out = new LinkedHashSet<>();
        for (ServiceInstance i : run.instances()) {
            if (i.isAlive()) {
                out.add(i.name());
            }
        }
        return out;
    }

    private static Set<String> allTasks(RunContext run) {
        Set<String> out = new LinkedHashSet<>();
        for (int sub = 0; sub < 2; sub++) {
            for (int p = 0; p < run.settings().partitions(); p++) {
                out.add(sub + "_" + p);
            }
        }
        return out;
    }

    /**
     * Waits until the instances hold a complete assignment ({@link TaskTimeline#complete}) that stays the same for
     * {@link #STABLE_FOR}.
     *
     * @return when that assignment was first seen ({@link System#nanoTime()}), -1 when the deadline passed first
     */
    private long awaitSettled(RunContext run, Set<String> instances, long deadlineNanos) throws InterruptedException {
        Map<String, SortedSet<String>> candidate = null;
        long since = -1;
        while (System.nanoTime() < deadlineNanos) {
            long now = System.nanoTime();
            SortedMap<String, SortedSet<String>> own = timeline.ownership(now, instances);
            if (!TaskTimeline.complete(own, tasksTotal(run))) {
                candidate = null;
            } else if (!own.equals(candidate)) {
                candidate = own;
                since = now;
            } else if (now - since >= STABLE_FOR.toNanos()) {
                return since;
            }
            Thread.sleep(SAMPLE_EVERY.toMillis());
        }
        return -1;
    }

    /** @return ms from the fault until every moved task processed on its new owner, -1 if one did not within 60 s */
    private long awaitMovedResumed(Set<String> moved, Map<String, SortedSet<String>> after, long faultNanos)
            throws InterruptedException {
        long deadline = System.nanoTime() + RESUME_TIMEOUT.toNanos();
        while (true) {
            long latest = 0;
            boolean all = true;
            for (String task : moved) {
                String owner = after.entrySet().stream()
                        .filter(e -> e.getValue().contains(task))
                        .map(Map.Entry::getKey)
                        .findFirst()
                        .orElse("");
                long t = timeline.firstProgressOn(task, owner, faultNanos);
                if (t < 0) {
                    all = false;
                    break;
                }
                latest = Math.max(latest, t - faultNanos);
            }
            if (all) {
                return RunContext.millis(latest);
            }
            if (System.nanoTime() > deadline) {
                return -1;
            }
            Thread.sleep(SAMPLE_EVERY.toMillis());
        }
    }

    private void watchFirstInput(RunContext run) {
        KafkaConsumer<byte[], byte[]> consumer = run.kafka()
                .tailConsumer(
                        "chaos-first-input",
                        Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10),
                        run.topics().inputs());
        Thread t = new Thread(
                () -> {
                    try (consumer) {
                        while (sampling.get() && firstInputNanos < 0) {
                            if (!consumer.poll(Duration.ofMillis(20)).isEmpty()) {
                                firstInputNanos = System.nanoTime();
                            }
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("cannot watch for the first input record: {}", e.toString());
                    }
                },
                "chaos-first-input");
        t.setDaemon(true);
        t.start();
    }

    private synchronized void startSampling(RunContext run) {
        sampling.set(true);
        sampler = new Thread(
                () -> {
                    while (sampling.get()) {
                        for (ServiceInstance i : run.instances()) {
                            if (i.isAlive()) {
                                int jvm = i.starts();
                                String metrics = i.metrics();
                                timeline.add(sample(System.nanoTime(), i.name(), jvm, metrics, run.topics()));
                            }
                        }
                        try {
                            Thread.sleep(SAMPLE_EVERY.toMillis());
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "chaos-task-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /**
     * Reads one sample out of an instance's {@code /metrics}: its active tasks (those with a task-level
     * {@code process-total}, which Kafka Streams registers for active tasks only; its value is recorded at DEBUG level
     * only, so it stays 0 here) and per task the sum of its input partitions' {@code records-lead} (position minus log
     * start) on the stream threads' main consumers, which grows as the task consumes.
     *
     * @param nanos when it answered
     * @param instance the instance
     * @param jvm its start number
     * @param metrics the exposition text, or null when it did not answer (then no tasks)
     * @param topics the run's topics
     * @return the sample
     */
    static TaskTimeline.Sample sample(long nanos, String instance, int jvm, String metrics, ServiceTopics topics) {
        Set<String> active = PrometheusText.activeTasks(metrics);
        Map<String, Double> leads = PrometheusSamples.byLabels(
                metrics,
                "kafka_streams_consumer_fetch_manager_metrics_records_lead",
                List.of("topic", "partition"),
                labels -> {
                    String client = String.valueOf(labels.get("client_id"));
                    return client.contains("-StreamThread-") && !client.contains("restore-consumer");
                });
        Map<String, Double> progress = new LinkedHashMap<>();
        leads.forEach((topicPartition, lead) -> {
            String task = taskOf(topicPartition, topics);
            if (task != null) {
                progress.merge(task, lead, Double::sum);
            }
        });
        return new TaskTimeline.Sample(nanos, instance, jvm, active, progress);
    }

    /**
     * The service's task of an input partition: sub-topology 0 is the click attribution (impressions and clicks),
     * 1 the request/ack correlation (the state stores on {@code /metrics} carry these task ids: {@code
     * click-attribution-*} under {@code 0_*}).
     *
     * @param topicPartition {@code topic:partition}
     * @param topics the run's topics
     * @return the task id, or null for another topic
     */
    static String taskOf(String topicPartition, ServiceTopics topics) {
        int colon = topicPartition.lastIndexOf(':');
        String topic = topicPartition.substring(0, colon);
        String partition = topicPartition.substring(colon + 1);
        if (topic.equals(topics.impressions()) || topic.equals(topics.clicks())) {
            return "0_" + partition;
        }
        if (topic.equals(topics.requests()) || topic.equals(topics.acks())) {
            return "1_" + partition;
        }
        return null;
    }

    private synchronized void stopSampling() {
        sampling.set(false);
        if (sampler != null) {
            Threads.joinQuietly(sampler, 5_000);
        }
    }
}
