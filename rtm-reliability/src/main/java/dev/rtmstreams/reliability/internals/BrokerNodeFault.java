package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.KafkaClusterProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fault of one or every broker of the runner's own cluster ({@code --brokers 3}) at the scheduled time: {@code kill -9}
 * of the broker leading most partitions of the tasks on partition 0 (their inputs, outputs and changelogs) or of the
 * active controller, started again after the downtime; {@code SIGSTOP} of that leader for longer than the broker
 * session and the clients' request timeouts, then {@code SIGCONT}; or every broker stopped cleanly and started again in
 * turn. Each waits until the in-sync replicas of the run's topics and the service's internal topics are full again.
 */
final class BrokerNodeFault implements Fault {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerNodeFault.class);

    /** What is done to the brokers. */
    enum Kind {
        /** kill -9 of the broker leading most partitions of the tasks on partition 0, restart after the downtime. */
        LEADER_KILL,
        /** kill -9 of the active controller, restart after the downtime. */
        CONTROLLER_KILL,
        /** each broker stopped cleanly and started again, the in-sync replicas full before the next. */
        ROLLING_RESTART,
        /** SIGSTOP of the broker leading most partitions of the tasks on partition 0, SIGCONT after a while. */
        PAUSE
    }

    /**
     * The least a paused broker stays frozen: longer than the broker session (3 s, after which the controller fences it
     * and moves its leaders) and than the clients' {@code request.timeout.ms} (30 s, after which they give up on
     * requests it holds).
     */
    static final Duration PAUSE_AT_LEAST = Duration.ofSeconds(35);

    /** The longest wait for new leaders, a new controller or full in-sync replicas. */
    private static final Duration WAIT = Duration.ofSeconds(120);

    private final Kind kind;
    private final Duration downtime;

    /**
     * @param kind what is done
     * @param downtime how long a killed broker stays down (a paused one at least {@link #PAUSE_AT_LEAST})
     */
    BrokerNodeFault(Kind kind, Duration downtime) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.downtime = Objects.requireNonNull(downtime, "downtime");
    }

    @Override
    public Optional<Strike> strike() {
        return Optional.of(this::inject);
    }

    private InjectedFault.BrokerFault inject(RunContext run, Runnable whileDown) throws Exception {
        KafkaClusterProcess cluster = run.cluster();
        List<String> topics = topicsOf(run, cluster);
        if (kind == Kind.ROLLING_RESTART) {
            return rollingRestart(run, cluster, topics);
        }
        int node;
        String role;
        List<TopicPartition> led = List.of();
        if (kind == Kind.CONTROLLER_KILL) {
            node = cluster.activeController();
            role = "active controller";
        } else {
            List<TopicPartition> partitions = taskPartitions(run, topics);
            Map<TopicPartition, Integer> leaders = cluster.leaders(topicsOf(partitions));
            Map<Integer, List<TopicPartition>> byLeader = new LinkedHashMap<>();
            for (TopicPartition tp : partitions) {
                Integer leader = leaders.get(tp);
                if (leader != null) {
                    byLeader.computeIfAbsent(leader, k -> new ArrayList<>()).add(tp);
                }
            }
            Map.Entry<Integer, List<TopicPartition>> most = byLeader.entrySet().stream()
                    .max(Map.Entry.comparingByValue((a, b) -> Integer.compare(a.size(), b.size())))
                    .orElseThrow(() -> new IllegalStateException("the tasks on partition 0 have no partitions"));
            node = most.getKey();
            led = List.copyOf(most.getValue());
            role = String.format(
                    Locale.ROOT,
                    "leader of %d of the %d partitions of the tasks on partition 0 (inputs, outputs, changelogs)",
                    led.size(),
                    partitions.size());
        }
        KafkaBrokerProcess broker = cluster.node(node);
        long faultNanos = System.nanoTime();
        double atS = run.secondsIntoLoad(faultNanos);
        List<String> steps = new ArrayList<>();
        if (kind == Kind.PAUSE) {
            broker.pause();
            steps.add("SIGSTOP of broker " + node + " (pid " + broker.pid().orElse(-1L) + ")");
        } else {
            long pid = broker.pid().orElse(-1L);
            broker.kill();
            steps.add("kill -9 of broker " + node + " (pid " + pid + ")");
        }
        List<TopicPartition> ledByIt = led;
        long failoverMs = kind == Kind.CONTROLLER_KILL
                ? waitFor(faultNanos, () -> otherThan(node, cluster::activeController))
                : waitFor(faultNanos, () -> movedAway(node, ledByIt, cluster));
        steps.add((kind == Kind.CONTROLLER_KILL ? "another active controller" : "new leaders of its partitions")
                + (failoverMs < 0 ? " not within " + WAIT : " after " + failoverMs + " ms"));
        whileDown.run();
        Duration down =
                kind == Kind.PAUSE ? (downtime.compareTo(PAUSE_AT_LEAST) < 0 ? PAUSE_AT_LEAST : downtime) : downtime;
        sleepUntil(faultNanos + down.toNanos());
        long downMs = RunContext.millis(System.nanoTime() - faultNanos);
        long startMs;
        if (kind == Kind.PAUSE) {
            broker.resume();
            startMs = 0;
            steps.add("SIGCONT after " + downMs + " ms");
        } else {
            broker.start();
            startMs = broker.lastStartupTime().toMillis();
            steps.add("started again after " + downMs + " ms down, ready in " + startMs + " ms");
        }
        long isrFullMs = awaitFullIsr(cluster, topics, faultNanos);
        steps.add(isrFullMs < 0 ? "in-sync replicas not full within " + WAIT : "in-sync replicas full");
        LOG.info("broker fault {}: {}", kind, steps);
        return new InjectedFault.BrokerFault(
                faultNanos, kindText(node), atS, List.of(node), role, failoverMs, downMs, startMs, isrFullMs, steps);
    }

    private InjectedFault.BrokerFault rollingRestart(RunContext run, KafkaClusterProcess cluster, List<String> topics) {
        long faultNanos = System.nanoTime();
        double atS = run.secondsIntoLoad(faultNanos);
        List<String> steps = new ArrayList<>();
        List<Integer> nodes = new ArrayList<>();
        long longestDown = 0;
        long longestStart = 0;
        long isrFullMs = 0;
        for (KafkaBrokerProcess broker : cluster.nodes()) {
            long t0 = System.nanoTime();
            Duration stop = broker.stop();
            broker.start();
            long downMs = RunContext.millis(System.nanoTime() - t0);
            long startMs = broker.lastStartupTime().toMillis();
            longestDown = Math.max(longestDown, downMs);
            longestStart = Math.max(longestStart, startMs);
            isrFullMs = awaitFullIsr(cluster, topics, faultNanos);
            nodes.add(broker.nodeId());
            steps.add(String.format(
                    Locale.ROOT,
                    "broker %d: stopped in %d ms, ready in %d ms, in-sync replicas %s at +%.1f s",
                    broker.nodeId(),
                    stop.toMillis(),
                    startMs,
                    isrFullMs < 0 ? "not full" : "full",
                    (System.nanoTime() - faultNanos) / 1e9));
            if (isrFullMs < 0) {
                break;
            }
        }
        return new InjectedFault.BrokerFault(
                faultNanos,
                "each broker stopped cleanly (SIGTERM) and started again in turn",
                atS,
                nodes,
                "every broker",
                null,
                longestDown,
                longestStart,
                isrFullMs,
                steps);
    }

    private String kindText(int node) {
        return switch (kind) {
            case LEADER_KILL -> "kill -9 of partition leader broker " + node + ", start again after " + downtime;
            case CONTROLLER_KILL ->
                "kill -9 of the active controller, broker " + node + ", start again after " + downtime;
            case PAUSE -> "SIGSTOP of partition leader broker " + node + ", SIGCONT after at least " + PAUSE_AT_LEAST;
            case ROLLING_RESTART -> throw new IllegalStateException("not a single-node fault");
        };
    }

    /** The run's topics and the service's internal topics (changelogs, repartitions). */
    private static List<String> topicsOf(RunContext run, KafkaClusterProcess cluster) {
        List<String> out = new ArrayList<>(run.topics().all());
        cluster.listTopics().stream()
                .filter(t -> t.startsWith(run.applicationId() + "-"))
                .sorted()
                .forEach(out::add);
        return out;
    }

    /** Partition 0 of the inputs and outputs of the run and of the service's changelogs: the tasks {@code *_0}. */
    private static List<TopicPartition> taskPartitions(RunContext run, List<String> topics) {
        List<String> names = new ArrayList<>(List.of(
                run.topics().impressions(),
                run.topics().clicks(),
                run.topics().requests(),
                run.topics().acks(),
                run.topics().attributedClicks(),
                run.topics().logRecords()));
        topics.stream().filter(t -> t.endsWith("-changelog")).forEach(names::add);
        return names.stream().map(t -> new TopicPartition(t, 0)).toList();
    }

    private static List<String> topicsOf(List<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::topic).distinct().toList();
    }

    /** Whether every one of the partitions has a leader other than the node. */
    private static boolean movedAway(int node, List<TopicPartition> partitions, KafkaClusterProcess cluster) {
        try {
            Map<TopicPartition, Integer> now = cluster.leaders(topicsOf(partitions));
            return partitions.stream().allMatch(tp -> now.containsKey(tp) && now.get(tp) != node);
        } catch (RuntimeException e) {
            return false; // the lookup timed out
        }
    }

    private static boolean otherThan(int node, java.util.function.IntSupplier lookup) {
        try {
            return lookup.getAsInt() != node;
        } catch (RuntimeException e) {
            return false; // no leader or controller yet, or the lookup timed out
        }
    }

    /** @return ms from the fault until the condition held, -1 if not within {@link #WAIT} */
    private static long waitFor(long faultNanos, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return -1;
            }
            Thread.sleep(100);
        }
        return RunContext.millis(System.nanoTime() - faultNanos);
    }

    /** @return ms from the fault until every replica of the topics is in sync, -1 if not within {@link #WAIT} */
    private static long awaitFullIsr(KafkaClusterProcess cluster, List<String> topics, long faultNanos) {
        try {
            cluster.awaitFullIsr(WAIT, topics);
            return RunContext.millis(System.nanoTime() - faultNanos);
        } catch (IllegalStateException e) {
            LOG.warn("in-sync replicas not full: {}", e.getMessage());
            return -1;
        }
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long wait = nanos - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}
