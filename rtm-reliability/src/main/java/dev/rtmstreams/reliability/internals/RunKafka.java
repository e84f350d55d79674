package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.KafkaAccessCheck;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.KafkaCluster;
import dev.rtmstreams.testkit.KafkaClusterProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka a chaos run works against: a given cluster ({@code --bootstrap-servers}, its access checked first), or the
 * runner's own single child-JVM broker or {@link KafkaClusterProcess} ({@code --brokers}); and the run's topics and
 * streams group set up on it. {@link #close()} stops the runner's own broker or cluster.
 */
final class RunKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RunKafka.class);

    /** The /24 of the brokers' network namespaces (broker-network-partition): 10.213.0.11 and on, bridge .1. */
    static final String NETWORK_PREFIX = "10.213.0";

    private final ScenarioRunner.Settings s;
    private final KafkaBrokerProcess broker;
    private final KafkaClusterProcess cluster;
    private final String bootstrap;
    private final String ownBroker;

    private RunKafka(
            ScenarioRunner.Settings s,
            KafkaBrokerProcess broker,
            KafkaClusterProcess cluster,
            String bootstrap,
            String ownBroker) {
        this.s = s;
        this.broker = broker;
        this.cluster = cluster;
        this.bootstrap = bootstrap;
        this.ownBroker = ownBroker;
    }

    /**
     * Connects to the given cluster, checking the run's access to it, or starts the runner's own broker or cluster.
     *
     * @param s how the run runs
     * @return the run's Kafka; the caller closes it
     * @throws Exception when the access check fails or the broker does not start (a broker that was built is stopped)
     */
    static RunKafka start(ScenarioRunner.Settings s) throws Exception {
        if (s.bootstrapServers().isPresent()) {
            // a wrong password or a missing ACL stops the run here, naming the principal
            KafkaAccessCheck.verify(
                    new KafkaConnection(s.bootstrapServers().get(), s.kafkaClient()).config(Map.of()),
                    Map.of(),
                    Duration.ofSeconds(30));
            return new RunKafka(s, null, null, s.bootstrapServers().get(), null);
        }
        if (s.brokers() > 1) {
            KafkaClusterProcess.Builder b =
                    KafkaClusterProcess.builder().nodes(s.brokers()).jvmOptions(s.brokerJvmOptions());
            GroupSettings.BROKER_PROPERTIES.forEach(b::brokerProperty);
            boolean namespaces = s.scenario() == Scenario.BROKER_NETWORK_PARTITION;
            if (namespaces) {
                b.networkNamespaces(NETWORK_PREFIX);
            }
            KafkaClusterProcess cluster = started(b.build(), KafkaClusterProcess::start);
            String bootstrap = cluster.bootstrapServers();
            String ownBroker = s.brokers() + " child JVMs (KafkaClusterProcess: combined KRaft broker+controller nodes,"
                    + (namespaces ? " each in a network namespace of its own on " + NETWORK_PREFIX + ".0/24," : "")
                    + " replication factor " + s.replicationFactor() + ", min.insync.replicas "
                    + cluster.minInsyncReplicas() + ") " + bootstrap;
            return new RunKafka(s, null, cluster, bootstrap, ownBroker);
        }
        KafkaBrokerProcess.Builder b = KafkaBrokerProcess.builder().jvmOptions(s.brokerJvmOptions());
        GroupSettings.BROKER_PROPERTIES.forEach(b::brokerProperty);
        KafkaBrokerProcess broker = started(b.build(), KafkaBrokerProcess::start);
        String bootstrap = broker.bootstrapServers();
        return new RunKafka(s, broker, null, bootstrap, "child JVM (KafkaBrokerProcess) " + bootstrap);
    }

    /** @return {@code kafka}, started; closed when it does not start */
    private static <K extends KafkaCluster> K started(K kafka, Consumer<K> start) {
        try {
            start.accept(kafka);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        return kafka;
    }

    /** @return the bootstrap servers of the run's clients and service */
    String bootstrap() {
        return bootstrap;
    }

    /** @return the runner's own broker as the report describes it, or null on a given cluster */
    String ownBroker() {
        return ownBroker;
    }

    /** @return the runner's own single broker, or null */
    KafkaBrokerProcess broker() {
        return broker;
    }

    /** @return the runner's own cluster of several brokers, or null */
    KafkaClusterProcess cluster() {
        return cluster;
    }

    /** @return a connection of the runner's own clients, with the run's client settings */
    KafkaConnection connection() {
        return new KafkaConnection(bootstrap, s.kafkaClient());
    }

    /**
     * Creates the run's topics ({@code --partitions}, the run's replication factor, {@code min.insync.replicas=2}
     * from a factor of 3 on); topics that exist are kept.
     *
     * @param topics the topics
     * @throws Exception when a topic cannot be created
     */
    void createTopics(Collection<String> topics) throws Exception {
        try (Admin admin = Admin.create(connection().config(Map.of()))) {
            List<NewTopic> nts = new ArrayList<>();
            short rf = (short) s.replicationFactor();
            Map<String, String> configs = rf >= 3 ? Map.of("min.insync.replicas", "2") : Map.of();
            for (String t : topics) {
                nts.add(new NewTopic(t, s.partitions(), rf).configs(configs));
            }
            for (var f : admin.createTopics(nts).values().values()) {
                try {
                    f.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    /**
     * Under the streams protocol, sets the streams group's broker-side configs (standbys, session timeout, heartbeat)
     * before any member joins: the client-side settings of the real-time trigger do not reach the broker there.
     *
     * @param applicationId the group
     * @throws Exception when the broker refuses the configs
     */
    void configureGroup(String applicationId) throws Exception {
        Map<String, String> configs = s.group().streamsGroupConfig();
        if (configs.isEmpty()) {
            return;
        }
        List<AlterConfigOp> ops = new ArrayList<>();
        configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        try (Admin admin = Admin.create(connection().config(Map.of()))) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, applicationId), ops))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot set the streams group's configs " + configs + " (the broker bounds them with"
                            + " group.streams.min.session.timeout.ms and group.streams.min.heartbeat.interval.ms): "
                            + e.getCause(),
                    e);
        }
        LOG.info("streams group {} configured: {}", applicationId, configs);
    }

    /** Stops the runner's own broker or cluster, if any. */
    @Override
    public void close() {
        if (broker != null) {
            broker.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
