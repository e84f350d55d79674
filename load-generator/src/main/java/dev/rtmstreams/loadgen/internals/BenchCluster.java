package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.KafkaCluster;
import dev.rtmstreams.testkit.KafkaClusterProcess;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The Kafka cluster of one mode's run: the one given ({@code --bootstrap-servers}), or a fresh broker in its own JVM
 * or in this one ({@link BenchOptions.BrokerKind}), or a fresh cluster of {@code --brokers} child-process brokers
 * ({@link KafkaClusterProcess}), stopped on close; and the creation of the run's topics.
 */
final class BenchCluster implements AutoCloseable {

    /** The broker started for the run, or null for a given cluster. */
    private final KafkaCluster owned;

    private final String bootstrapServers;
    private final List<Long> brokerPids;

    private BenchCluster(KafkaCluster owned, String bootstrapServers, List<Long> brokerPids) {
        this.owned = owned;
        this.bootstrapServers = bootstrapServers;
        this.brokerPids = List.copyOf(brokerPids);
    }

    /**
     * Connects to the given cluster or starts a broker.
     *
     * @param o the options: the cluster, or where to start the broker
     * @return the cluster
     */
    static BenchCluster start(BenchOptions o) {
        if (o.bootstrapServers().isPresent()) {
            return new BenchCluster(null, o.bootstrapServers().get(), List.of());
        }
        if (o.brokers() > 1) {
            KafkaClusterProcess cluster =
                    KafkaClusterProcess.builder().nodes(o.brokers()).build();
            startOrClose(cluster, cluster::start);
            return new BenchCluster(cluster, cluster.bootstrapServers(), cluster.pids());
        }
        if (o.broker() == BenchOptions.BrokerKind.CHILD_PROCESS) {
            KafkaBrokerProcess broker = EmbeddedKafkaCluster.childProcess().build();
            startOrClose(broker, broker::start);
            return new BenchCluster(
                    broker, broker.bootstrapServers(), broker.pid().stream().toList());
        }
        EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().build();
        startOrClose(cluster, cluster::start);
        return new BenchCluster(cluster, cluster.bootstrapServers(), List.of());
    }

    private static void startOrClose(KafkaCluster cluster, Runnable start) {
        try {
            start.run();
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** @return the bootstrap servers */
    String bootstrapServers() {
        return bootstrapServers;
    }

    /** @return the process ids of the brokers started in their own JVMs; empty for an in-process or given one */
    List<Long> brokerPids() {
        return brokerPids;
    }

    /** Stops the broker started for the run, if any. */
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }

    /**
     * Creates the input and output topics of the attribution workload, ignoring those that exist.
     *
     * @param bootstrap the cluster
     * @param topics the names
     * @param partitions partitions per topic
     * @throws InterruptedException if interrupted
     * @throws ExecutionException on a broker error other than "exists"
     */
    public static void createTopics(String bootstrap, TopicNames topics, int partitions)
            throws InterruptedException, ExecutionException {
        createTopics(bootstrap, allTopics(topics), partitions);
    }

    static List<String> allTopics(TopicNames topics) {
        return List.of(
                topics.impressions(),
                topics.clicks(),
                topics.requests(),
                topics.acks(),
                topics.attributedClicks(),
                topics.logRecords(),
                topics.echo());
    }

    /**
     * The partitions of existing topics.
     *
     * @param bootstrap the cluster
     * @param names the topic names
     * @return partitions by topic, in the order given
     * @throws InterruptedException if interrupted
     * @throws ExecutionException on a broker error (e.g. a topic that does not exist)
     */
    static Map<String, Integer> partitions(String bootstrap, List<String> names)
            throws InterruptedException, ExecutionException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<String, org.apache.kafka.clients.admin.TopicDescription> d =
                    admin.describeTopics(names).allTopicNames().get();
            Map<String, Integer> out = new java.util.LinkedHashMap<>();
            names.forEach(n -> out.put(n, d.get(n).partitions().size()));
            return out;
        }
    }

    /**
     * Creates topics, ignoring those that exist.
     *
     * @param bootstrap the cluster
     * @param names the topic names
     * @param partitions partitions per topic
     * @throws InterruptedException if interrupted
     * @throws ExecutionException on a broker error other than "exists"
     */
    public static void createTopics(String bootstrap, List<String> names, int partitions)
            throws InterruptedException, ExecutionException {
        createTopics(bootstrap, names, partitions, (short) 1);
    }

    /**
     * Creates topics with a replication factor, ignoring those that exist; from replication factor 3 on with
     * {@code min.insync.replicas=2}.
     *
     * @param bootstrap the cluster
     * @param names the topic names
     * @param partitions partitions per topic
     * @param replicationFactor replicas per partition
     * @throws InterruptedException if interrupted
     * @throws ExecutionException on a broker error other than "exists"
     */
    static void createTopics(String bootstrap, List<String> names, int partitions, short replicationFactor)
            throws InterruptedException, ExecutionException {
        Map<String, String> configs = replicationFactor >= 3 ? Map.of("min.insync.replicas", "2") : Map.of();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            for (String t : names) {
                try {
                    admin.createTopics(List.of(new NewTopic(t, partitions, replicationFactor).configs(configs)))
                            .all()
                            .get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }
}
