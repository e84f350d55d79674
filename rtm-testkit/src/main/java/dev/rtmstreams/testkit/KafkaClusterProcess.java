package dev.rtmstreams.testkit;

import dev.rtmstreams.testkit.internals.ClusterLookups;
import dev.rtmstreams.testkit.internals.ClusterNetwork;
import dev.rtmstreams.testkit.internals.NetworkNamespaces;
import dev.rtmstreams.testkit.internals.NodeThreads;
import dev.rtmstreams.tools.Directories;
import dev.rtmstreams.tools.Ports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KRaft Kafka cluster of N nodes, each a {@link KafkaBrokerProcess} in its own JVM with its own log directory and
 * ports, so that fault tests can kill ({@code kill -9}), stop, restart, pause and resume one node while clients keep
 * working against the others.
 *
 * <pre>{@code
 * try (KafkaClusterProcess cluster = KafkaClusterProcess.builder().nodes(3).build().start()) {
 *   cluster.createTopic("orders", 3);                 // replication factor 3, min ISR 2
 *   int leader = cluster.leaderOf(new TopicPartition("orders", 0));
 *   cluster.node(leader).kill();                       // a new leader is elected among the other two
 *   cluster.node(leader).start();                      // same port and data: it rejoins the ISR
 *   cluster.awaitFullIsr(Duration.ofSeconds(30), "orders");
 *   cluster.node(cluster.activeController()).kill();   // another voter becomes the active controller
 * }
 * }</pre>
 *
 * <p>Nodes: ids 1..N, every node {@code process.roles=broker,controller} and a voter of a static controller quorum
 * ({@code controller.quorum.voters}) of all N. Combined nodes because of what a test machine is: three JVMs instead of
 * six (three brokers plus three controllers) halve the idle CPU, heap and start time, and on two cores a separate
 * controller quorum would mostly measure JVM overhead. What it costs: a killed node takes a broker and a voter down
 * together, so "lose the active controller" also loses that node's partition leaders (as it does in a combined-mode
 * production cluster; Kafka recommends dedicated controllers for large production clusters, not for tests). A
 * single node ({@code nodes(1)}, the default) is exactly a {@link KafkaBrokerProcess}.
 *
 * <p>Defaults of a cluster of three or more nodes (the caller's {@link BrokerProcessBuilder#brokerProperty(String,
 * Object)} wins): {@code default.replication.factor=3}, {@code min.insync.replicas=2}, {@code
 * offsets.topic.replication.factor=3}, {@code transaction.state.log.replication.factor=3}, {@code
 * transaction.state.log.min.isr=2} (and the share coordinator's state topic alike); the topic helpers of {@link
 * KafkaCluster} create topics with replication factor {@link #replicationFactor()} = {@code min(3, N)}. Below three
 * nodes the factors are {@code N} and min ISR 1. Every node keeps the single broker's other defaults (broker session
 * timeout 3 s, so a killed node is fenced and its partitions get new leaders within about 3 s).
 *
 * <p>{@link #bootstrapServers()} names every node, so clients bootstrap while any one of them is up.
 *
 * <p>Network namespaces ({@link Builder#networkNamespaces(String)}, needs root or {@code CAP_NET_ADMIN} and {@code
 * ip}): each node runs in a network namespace of its own, node {@code i} on address {@code <prefix>.<10+i>}, joined by
 * a veth pair to a bridge ({@code <prefix>.1}) that this JVM's clients reach every node through; then {@link
 * #disconnect(int)} cuts one node off (clients and the other nodes no longer reach it, nor it them) while its process
 * keeps running, and {@link #reconnect(int)} joins it again. {@link #close()} deletes the namespaces, links and bridge
 * (a shutdown hook does if this JVM exits first). Without them every node listens on {@code localhost}.
 *
 * <p>Lifecycle: built, {@link #start()} (all nodes at once: a node is ready only when a majority of the quorum runs),
 * then faults on single nodes through {@link #node(int)}, then {@link #close()} (idempotent, stops every node).
 *
 * <p>Thread-safety: the lookups may be called from any thread; each node's lifecycle methods run one at a time.
 */
@InterfaceStability.Evolving
public final class KafkaClusterProcess implements KafkaCluster {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClusterProcess.class);

    /** The longest a lookup waits for the cluster. */
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(15);

    private final List<KafkaBrokerProcess> nodes;
    private final Path baseDir;
    private final boolean deleteBaseDirOnClose;
    private final ClusterNetwork network;
    private boolean closed;

    private KafkaClusterProcess(
            List<KafkaBrokerProcess> nodes, Path baseDir, boolean deleteBaseDirOnClose, ClusterNetwork network) {
        this.nodes = List.copyOf(nodes);
        this.baseDir = baseDir;
        this.deleteBaseDirOnClose = deleteBaseDirOnClose;
        this.network = network;
    }

    /**
     * Returns a builder with defaults: one node, free ports, a temporary base directory deleted on close,
     * {@code -Xms128m -Xmx512m} per node, start timeout 120 s, stop timeout 30 s, log level WARN.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts every node at once and waits until each is registered and unfenced.
     *
     * @return this cluster, for chaining
     * @throws IllegalStateException if the cluster is closed, a node runs already, or a node does not become ready
     *     within the start timeout (every node is then stopped; the message names the node and holds its output)
     */
    public KafkaClusterProcess start() {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("cluster is closed; build a new one");
            }
        }
        long t0 = System.nanoTime();
        NodeThreads.startAll(nodes, KafkaBrokerProcess::nodeId, KafkaBrokerProcess::start, KafkaBrokerProcess::kill);
        LOG.info(
                "Kafka cluster of {} nodes ready at {} in {} ms",
                nodes.size(),
                bootstrapServers(),
                (System.nanoTime() - t0) / 1_000_000);
        return this;
    }

    /**
     * Returns the number of nodes.
     *
     * @return N, at least 1
     */
    public int size() {
        return nodes.size();
    }

    /**
     * Returns a node, to kill, stop, start, pause or resume it, or to read its pid.
     *
     * @param nodeId 1..{@link #size()}
     * @return the node; never null
     * @throws IllegalArgumentException if there is no such node (the message names the id and the range)
     */
    public KafkaBrokerProcess node(int nodeId) {
        if (nodeId < 1 || nodeId > nodes.size()) {
            throw new IllegalArgumentException("no broker node " + nodeId + ": node ids are 1.." + nodes.size());
        }
        return nodes.get(nodeId - 1);
    }

    /**
     * Returns every node, in node-id order.
     *
     * @return an immutable list; never null
     */
    public List<KafkaBrokerProcess> nodes() {
        return nodes;
    }

    /**
     * Returns the pids of the nodes that run, in node-id order (for CPU accounting).
     *
     * @return an immutable list; empty when none runs
     */
    public List<Long> pids() {
        return nodes.stream().flatMap(n -> n.pid().stream()).toList();
    }

    /**
     * Cuts a node off the network while its process keeps running: its link to the bridge of the cluster's
     * {@link Builder#networkNamespaces(String) network namespaces} goes down, so neither clients nor the other nodes
     * reach it and it reaches none of them.
     *
     * @param nodeId 1..{@link #size()}
     * @throws IllegalStateException if the cluster was built without network namespaces, or {@code ip} fails (the
     *     message names the command and its output)
     */
    public void disconnect(int nodeId) {
        requireNetwork("disconnect").disconnect(node(nodeId).nodeId());
    }

    /**
     * Connects a {@link #disconnect(int) disconnected} node again.
     *
     * @param nodeId 1..{@link #size()}
     * @throws IllegalStateException if the cluster was built without network namespaces, or {@code ip} fails
     */
    public void reconnect(int nodeId) {
        requireNetwork("reconnect").reconnect(node(nodeId).nodeId());
    }

    private NetworkNamespaces requireNetwork(String what) {
        return network.namespaces()
                .orElseThrow(() -> new IllegalStateException(
                        "cannot " + what + " a node: the cluster was built without Builder.networkNamespaces"));
    }

    /**
     * Returns {@code localhost:<port>} (with network namespaces {@code <address>:<port>}) of every node, comma-separated; fixed from build time on.
     *
     * @return the bootstrap servers; never null
     */
    @Override
    public String bootstrapServers() {
        return nodes.stream().map(KafkaBrokerProcess::bootstrapServers).collect(Collectors.joining(","));
    }

    /**
     * Returns {@code min(3, N)}: the replication factor of the topic helpers and the cluster's default.
     *
     * @return the replication factor
     */
    @Override
    public short replicationFactor() {
        return (short) Math.min(3, nodes.size());
    }

    /**
     * Returns the cluster's {@code min.insync.replicas} default: 2 from three nodes on, else 1.
     *
     * @return the minimum in-sync replicas
     */
    public int minInsyncReplicas() {
        return nodes.size() >= 3 ? 2 : 1;
    }

    /**
     * Returns the node that leads a partition now.
     *
     * @param partition an existing topic partition; not null
     * @return the leader's node id
     * @throws IllegalStateException if the partition has no leader, or the cluster does not answer within 15 s
     */
    public int leaderOf(TopicPartition partition) {
        return lookups()
                .leader(partition)
                .orElseThrow(() -> new IllegalStateException("partition " + partition + " has no leader"));
    }

    /**
     * Returns the leaders of every partition of some topics in one request.
     *
     * @param topics existing topics; not null
     * @return the leader's node id per partition, in topic and partition order; partitions without a leader (their
     *     leader was fenced and no in-sync replica is left) are left out
     * @throws IllegalStateException if a topic does not exist, or the cluster does not answer within 15 s
     */
    public Map<TopicPartition, Integer> leaders(Collection<String> topics) {
        return lookups().leaders(List.copyOf(topics));
    }

    /**
     * Returns the in-sync replicas of a partition, as the controller last committed them.
     *
     * @param partition an existing topic partition; not null
     * @return node ids, leader first where it is in sync; never null
     * @throws IllegalStateException if the cluster does not answer within 15 s
     */
    public List<Integer> inSyncReplicas(TopicPartition partition) {
        return lookups().inSyncReplicas(partition);
    }

    /**
     * Returns the active controller: the leader of the KRaft metadata quorum ({@code describeMetadataQuorum}).
     *
     * @return its node id
     * @throws IllegalStateException if the quorum has no leader, or the cluster does not answer within 15 s
     */
    public int activeController() {
        return lookups().activeController();
    }

    /**
     * Returns the node that hosts the transaction coordinator of a transactional id ({@code describeTransactions}:
     * the leader of the id's {@code __transaction_state} partition).
     *
     * @param transactionalId a transactional id; not null
     * @return its node id, or empty when the cluster knows no transaction of that id yet
     * @throws IllegalStateException if the cluster does not answer within 15 s
     */
    public OptionalInt transactionCoordinator(String transactionalId) {
        return lookups().transactionCoordinator(Objects.requireNonNull(transactionalId, "transactionalId"));
    }

    /**
     * Waits until every partition of the topics has all its replicas in sync (e.g. after a restarted node caught up).
     *
     * @param timeout the longest wait; positive
     * @param topics existing topics, internal ones such as {@code __consumer_offsets} included; not null
     * @return how long the wait took
     * @throws IllegalStateException if a partition is still short of in-sync replicas after the timeout (the message
     *     names it and its replicas)
     */
    public Duration awaitFullIsr(Duration timeout, String... topics) {
        return awaitFullIsr(timeout, List.of(topics));
    }

    /**
     * Waits until every partition of the topics has all its replicas in sync.
     *
     * @param timeout the longest wait; positive
     * @param topics existing topics; not null
     * @return how long the wait took
     * @throws IllegalStateException if a partition is still short of in-sync replicas after the timeout
     */
    public Duration awaitFullIsr(Duration timeout, Collection<String> topics) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return lookups().awaitFullIsr(List.copyOf(topics), timeout);
    }

    /**
     * Waits until a condition over the cluster holds, e.g. that a partition has a leader other than a killed node:
     * {@code cluster.await("a new leader", Duration.ofSeconds(30), () -> cluster.leaderOf(tp) != killed)}. The
     * condition is checked every 100 ms; one that throws (a lookup that timed out, a partition without a leader yet)
     * counts as not holding yet.
     *
     * @param what what is awaited, for the message; not null
     * @param timeout the longest wait; positive
     * @param condition the condition; not null
     * @return how long the wait took
     * @throws IllegalStateException if the condition does not hold within the timeout (the message names what)
     */
    public Duration await(String what, Duration timeout, BooleanSupplier condition) {
        Objects.requireNonNull(condition, "condition");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return ClusterLookups.await(
                Objects.requireNonNull(what, "what"), timeout, () -> condition.getAsBoolean() ? null : "not yet");
    }

    private ClusterLookups lookups() {
        return new ClusterLookups(clientConfig(), LOOKUP_TIMEOUT);
    }

    /**
     * Stops every node and deletes the base directory when it was temporary or
     * {@link BrokerProcessBuilder#deleteLogDirOnClose(boolean)} asked so. Nodes whose data is deleted anyway are
     * killed; nodes whose directory is kept are stopped gracefully, all at once (one after the other, the last ones
     * would wait for a controller quorum that is gone). Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        NodeThreads.stopAll(
                nodes,
                KafkaBrokerProcess::nodeId,
                node -> {
                    if (deleteBaseDirOnClose) {
                        node.kill();
                    }
                    node.close();
                },
                KafkaBrokerProcess::kill);
        network.close();
        if (deleteBaseDirOnClose) {
            Directories.deleteQuietly(baseDir);
        }
    }

    @Override
    public String toString() {
        return "KafkaClusterProcess[" + nodes.size() + " nodes, " + bootstrapServers() + ", dir=" + baseDir + "]";
    }

    /**
     * Builds a {@link KafkaClusterProcess}; the options it shares with a single broker's builder are
     * {@link BrokerProcessBuilder}'s, and go to every node. Not thread-safe.
     */
    @InterfaceStability.Evolving
    public static final class Builder extends BrokerProcessBuilder<Builder> {
        private int nodes = 1;
        private String networkPrefix;

        private Builder() {}

        @Override
        Builder self() {
            return this;
        }

        /**
         * Runs each node in a network namespace of its own, so that {@link KafkaClusterProcess#disconnect(int)} can cut
         * it off while it keeps running: node {@code i} on address {@code <prefix>.<10+i>}, its namespace joined by a
         * veth pair to a bridge with address {@code <prefix>.1} in this JVM's namespace, which clients reach the nodes
         * through. The namespaces, links and bridge are made by {@link #build()} and deleted by
         * {@link KafkaClusterProcess#close()} (or when this JVM exits). Needs root (or {@code CAP_NET_ADMIN}) and
         * {@code ip} from iproute2. Default: none, every node on
         * {@code localhost}.
         *
         * @param prefix the first three octets of a /24 used nowhere else on the machine, e.g. {@code 10.213.0}
         * @return this builder
         */
        public Builder networkNamespaces(String prefix) {
            this.networkPrefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /**
         * Sets the number of nodes. Default 1.
         *
         * @param nodes 1..9; three is what survives the loss of one node with {@code min.insync.replicas=2}
         * @return this builder
         */
        public Builder nodes(int nodes) {
            this.nodes = nodes;
            return this;
        }

        /**
         * Validates the options, chooses two free ports per node (client and controller listeners, kept across
         * restarts), creates the directories and builds a cluster that is not started yet.
         *
         * @return the cluster; call {@link KafkaClusterProcess#start()}
         * @throws IllegalArgumentException if the node count, a timeout or the level is invalid (the message names
         *     the value)
         * @throws IllegalStateException if a directory cannot be created
         */
        public KafkaClusterProcess build() {
            if (nodes < 1 || nodes > 9) {
                throw new IllegalArgumentException("nodes must be 1..9: " + nodes);
            }
            Path dir = createLogDir("rtm-kafka-cluster-", "the cluster directory");
            boolean deleteDir = deletesLogDirOnClose();
            int[] ports = Ports.freePorts(2 * nodes);
            int[] controllerPorts = new int[nodes];
            System.arraycopy(ports, nodes, controllerPorts, 0, nodes);
            ClusterNetwork network = null;
            List<KafkaBrokerProcess> built = new ArrayList<>();
            try {
                network = ClusterNetwork.create(controllerPorts, networkPrefix);
                for (int i = 0; i < nodes; i++) {
                    KafkaBrokerProcess.Builder b = KafkaBrokerProcess.builder()
                            .layout(network.layouts().get(i))
                            .port(ports[i])
                            .controllerPort(controllerPorts[i]);
                    copyTo(b, dir.resolve("node-" + (i + 1)));
                    network.javaLauncher(i + 1, dir).ifPresent(b::javaExecutable);
                    built.add(b.build());
                }
            } catch (RuntimeException e) {
                if (network != null) {
                    network.close();
                }
                if (deleteDir) {
                    Directories.deleteQuietly(dir);
                }
                throw e;
            }
            return new KafkaClusterProcess(built, dir, deleteDir, network);
        }
    }
}
