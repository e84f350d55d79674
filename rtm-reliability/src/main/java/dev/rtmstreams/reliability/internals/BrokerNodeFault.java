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
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fault of one or every broker of the runner's own cluster ({@code --brokers 3}) at the scheduled time: {@code kill -9}
 * of the broker leading most partitions of the tasks on partition 0 (their inputs, outputs and changelogs) or of the
 * active controller, started again after the downtime; {@code SIGSTOP} of that leader for longer than the broker
 * session and the clients' request timeouts, then {@code SIGCONT}; {@code kill -9} of the coordinator of the service's
 * commits (the transaction coordinator of a stream thread's transactional id, caught in a commit, under exactly-once;
 * the group coordinator under at-least-once), started again after the downtime; that leader cut off from the network
 * (its network namespace's link down) while it runs, connected again after the downtime; or every broker stopped
 * cleanly and started again in turn. Each waits until the in-sync replicas of the run's topics and the service's internal topics are full again.
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
        PAUSE,
        /**
         * kill -9 of the coordinator of the service's commits, restart after the downtime: under exactly-once the
         * transaction coordinator of a stream thread's transactional id while it commits, else the group coordinator.
         */
        TXN_COORDINATOR_KILL,
        /**
         * The broker leading most partitions of the tasks on partition 0 cut off from the network (its network
         * namespace's link down) while it keeps running, connected again after the downtime.
         */
        NETWORK_PARTITION
    }

    /**
     * The least a paused broker stays frozen: longer than the broker session (3 s, after which the controller fences it
     * and moves its leaders) and than the clients' {@code request.timeout.ms} (30 s, after which they give up on
     * requests it holds).
     */
    static final Duration PAUSE_AT_LEAST = Duration.ofSeconds(35);

    /**
     * How long the transaction coordinators are polled for a commit of the service under way before the kill falls
     * back to an open transaction: several checkpoint intervals.
     */
    static final Duration COMMIT_WATCH = Duration.ofSeconds(10);

    private static final String OFFSETS_TOPIC = "__consumer_offsets";

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

    /**
     * The broker a single-node fault hits.
     *
     * @param node its node id
     * @param role what it is to the service, for the report
     * @param failedOver whether its role moved to another broker
     * @param failover what {@code failedOver} waits for, for the report
     * @param seen what was observed while choosing it, or empty
     * @param seenNanos when it was observed, -1 if nothing was
     */
    private record Target(
            int node, String role, BooleanSupplier failedOver, String failover, String seen, long seenNanos) {}

    private InjectedFault.BrokerFault inject(RunContext run, Runnable whileDown) throws Exception {
        KafkaClusterProcess cluster = run.cluster();
        List<String> topics = topicsOf(run, cluster);
        if (kind == Kind.ROLLING_RESTART) {
            return rollingRestart(run, cluster, topics);
        }
        boolean commits = kind == Kind.TXN_COORDINATOR_KILL && run.settings().exactlyOnce();
        Target target;
        KafkaBrokerProcess broker;
        long faultNanos;
        List<String> steps = new ArrayList<>();
        // under exactly-once the coordinators are polled until a commit of the service is under way, and its
        // coordinator is killed at once, before anything else (closing the admin client takes a while)
        try (ServiceTransactions txns =
                commits ? new ServiceTransactions(run.kafka().config(Map.of()), run.applicationId()) : null) {
            target = switch (kind) {
                case CONTROLLER_KILL -> controller(cluster);
                case TXN_COORDINATOR_KILL ->
                    commits ? transactionCoordinator(txns, cluster) : groupCoordinator(run, cluster);
                default -> partitionLeader(run, cluster, topics);
            };
            broker = cluster.node(target.node());
            long pid = broker.pid().orElse(-1L);
            faultNanos = System.nanoTime();
            if (kind == Kind.PAUSE) {
                broker.pause();
                steps.add("SIGSTOP of broker " + target.node() + " (pid " + pid + ")");
            } else if (kind == Kind.NETWORK_PARTITION) {
                cluster.disconnect(target.node());
                steps.add("broker " + target.node() + " (pid " + pid + ") cut off from the network");
            } else {
                broker.kill();
                steps.add("kill -9 of broker " + target.node() + " (pid " + pid + ")");
            }
        }
        if (target.seenNanos() >= 0) {
            steps.add(
                    0,
                    String.format(
                            Locale.ROOT,
                            "%s, %.1f ms before the kill",
                            target.seen(),
                            (faultNanos - target.seenNanos()) / 1e6));
        }
        int node = target.node();
        double atS = run.secondsIntoLoad(faultNanos);
        long failoverMs = awaitSince(faultNanos, cluster, target.failover(), target.failedOver());
        steps.add(target.failover() + (failoverMs < 0 ? " not within " + WAIT : " after " + failoverMs + " ms"));
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
        } else if (kind == Kind.NETWORK_PARTITION) {
            cluster.reconnect(node);
            startMs = 0;
            steps.add("connected again after " + downMs + " ms, its process running throughout: " + broker.isRunning());
        } else {
            broker.start();
            startMs = broker.lastStartupTime().toMillis();
            steps.add("started again after " + downMs + " ms down, ready in " + startMs + " ms");
        }
        long isrFullMs = awaitFullIsr(cluster, topics, faultNanos);
        steps.add(isrFullMs < 0 ? "in-sync replicas not full within " + WAIT : "in-sync replicas full");
        LOG.info("broker fault {}: {}", kind, steps);
        return new InjectedFault.BrokerFault(
                faultNanos,
                kindText(node),
                atS,
                List.of(node),
                target.role(),
                failoverMs,
                downMs,
                startMs,
                isrFullMs,
                steps);
    }

    private static Target controller(KafkaClusterProcess cluster) {
        int node = cluster.activeController();
        return new Target(
                node,
                "active controller",
                () -> cluster.activeController() != node,
                "another active controller",
                "",
                -1);
    }

    /** The broker leading most partitions of the tasks on partition 0. */
    private static Target partitionLeader(RunContext run, KafkaClusterProcess cluster, List<String> topics) {
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
        int node = most.getKey();
        List<TopicPartition> led = List.copyOf(most.getValue());
        return new Target(
                node,
                String.format(
                        Locale.ROOT,
                        "leader of %d of the %d partitions of the tasks on partition 0 (inputs, outputs, changelogs)",
                        led.size(),
                        partitions.size()),
                () -> movedAway(node, led, cluster),
                "new leaders of its partitions",
                "",
                -1);
    }

    /**
     * Under exactly-once: the coordinator of one of the service's transactional ids, caught while it commits a
     * transaction of the service ({@code PrepareCommit}) within {@link #COMMIT_WATCH}, else while one is open.
     */
    private static Target transactionCoordinator(ServiceTransactions txns, KafkaClusterProcess cluster) {
        ServiceTransactions.Seen seen = txns.awaitCommit(COMMIT_WATCH.toNanos());
        int node = seen.coordinator();
        String id = seen.transactionalId();
        return new Target(
                node,
                "transaction coordinator of " + id + " (its transaction seen in " + seen.state()
                        + " just before the kill)",
                () -> cluster.transactionCoordinator(id).orElse(node) != node,
                "another coordinator of " + id,
                String.format(
                        Locale.ROOT,
                        "transaction of %s seen in %s on coordinator %d after %d polls",
                        id,
                        seen.state(),
                        node,
                        seen.polls()),
                seen.seenNanos());
    }

    /**
     * Under at-least-once (no transactions): the coordinator of the service's group, which its offset commits go to:
     * the leader of the group's {@code __consumer_offsets} partition, killed at the scheduled time.
     */
    private static Target groupCoordinator(RunContext run, KafkaClusterProcess cluster) {
        String group = run.applicationId();
        int partitions = cluster.leaders(List.of(OFFSETS_TOPIC)).size();
        TopicPartition tp = new TopicPartition(OFFSETS_TOPIC, Utils.abs(group.hashCode()) % partitions);
        int node = cluster.leaderOf(tp);
        return new Target(
                node,
                "group coordinator of " + group + " (leader of " + tp + "; at-least-once: no transactions)",
                () -> movedAway(node, List.of(tp), cluster),
                "another group coordinator",
                "",
                -1);
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
            case NETWORK_PARTITION ->
                "partition leader broker " + node + " cut off from the network, connected again after " + downtime;
            case TXN_COORDINATOR_KILL ->
                "kill -9 of the coordinator of the service's commits, broker " + node + ", start again after "
                        + downtime;
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
        Map<TopicPartition, Integer> now = cluster.leaders(topicsOf(partitions));
        return partitions.stream().allMatch(tp -> now.containsKey(tp) && now.get(tp) != node);
    }

    /** @return ms from the fault until the condition held, -1 if not within {@link #WAIT} */
    private static long awaitSince(
            long faultNanos, KafkaClusterProcess cluster, String what, BooleanSupplier condition) {
        try {
            cluster.await(what, WAIT, condition);
            return RunContext.millis(System.nanoTime() - faultNanos);
        } catch (IllegalStateException e) {
            LOG.warn("{}", e.getMessage());
            return -1;
        }
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
