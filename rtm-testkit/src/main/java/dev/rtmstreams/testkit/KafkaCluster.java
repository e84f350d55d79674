package dev.rtmstreams.testkit;

import dev.rtmstreams.testkit.internals.Topics;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * A running Kafka cluster that tests, demos and benchmarks talk to: the in-process
 * {@link EmbeddedKafkaCluster}, the child-process {@link KafkaBrokerProcess} or the child-process cluster
 * {@link KafkaClusterProcess}.
 *
 * <p>The topic helpers are synchronous: when they return, the change is visible to clients
 * (topic metadata has propagated and every partition has a leader). They use a short-lived
 * {@link Admin} client per call, so they may be called from any thread.
 *
 * <p>The helpers need a reachable broker: they throw {@link IllegalStateException} when the broker
 * does not answer within {@link #DEFAULT_ADMIN_TIMEOUT}, or (in-process cluster) when the cluster is
 * not started or already closed.
 */
public interface KafkaCluster extends AutoCloseable {

    /** Default time the topic helpers wait for the broker. */
    Duration DEFAULT_ADMIN_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Returns the bootstrap servers of the cluster's client listener, e.g. {@code localhost:41234}.
     *
     * @return the {@code bootstrap.servers} value for clients; never null
     * @throws IllegalStateException if the address is not known: an in-process cluster that is not
     *     started or already closed (a child-process broker knows its fixed address from build on)
     */
    String bootstrapServers();

    /**
     * Returns a new mutable client configuration holding only {@code bootstrap.servers}, to be
     * extended with serializers, group ids and so on.
     *
     * @return a fresh map the caller owns; never null
     * @throws IllegalStateException if the cluster is not running
     */
    default Map<String, Object> clientConfig() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return config;
    }

    /**
     * Creates a new {@link Admin} client for this cluster. The caller owns it and must close it.
     *
     * @return a new admin client; never null
     * @throws IllegalStateException if the cluster is not running
     */
    default Admin createAdminClient() {
        return Admin.create(clientConfig());
    }

    /**
     * Returns the replication factor the topic helpers create topics with: 1 unless the cluster says otherwise
     * ({@link KafkaClusterProcess} of three or more nodes: 3).
     *
     * @return the replication factor; positive
     */
    default short replicationFactor() {
        return 1;
    }

    /**
     * Creates a topic with the cluster's {@link #replicationFactor()} and waits until every partition has a leader.
     *
     * @param name the topic name; not null
     * @param partitions the partition count; positive
     * @throws IllegalArgumentException if {@code partitions} is not positive
     * @throws IllegalStateException if the topic exists already or the broker does not answer
     *     within {@link #DEFAULT_ADMIN_TIMEOUT}
     */
    default void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /**
     * Creates a topic with the cluster's {@link #replicationFactor()} and topic-level configs (e.g.
     * {@code cleanup.policy=compact}) and waits until every partition has a leader.
     *
     * @param name the topic name; not null
     * @param partitions the partition count; positive
     * @param topicConfigs topic configuration entries; not null, may be empty
     * @throws IllegalArgumentException if {@code partitions} is not positive
     * @throws IllegalStateException if the topic exists already or the broker does not answer
     *     within {@link #DEFAULT_ADMIN_TIMEOUT}
     */
    default void createTopic(String name, int partitions, Map<String, String> topicConfigs) {
        Objects.requireNonNull(name, "name");
        Topics.create(
                clientConfig(), Map.of(name, partitions), replicationFactor(), topicConfigs, DEFAULT_ADMIN_TIMEOUT);
    }

    /**
     * Creates several topics at once (the cluster's {@link #replicationFactor()}) and waits until every partition of
     * each has a leader.
     *
     * @param partitionsByTopic partition count per topic name; not null, counts positive
     * @throws IllegalArgumentException if a partition count is not positive
     * @throws IllegalStateException if a topic exists already or the broker does not answer
     */
    default void createTopics(Map<String, Integer> partitionsByTopic) {
        Topics.create(clientConfig(), partitionsByTopic, replicationFactor(), Map.of(), DEFAULT_ADMIN_TIMEOUT);
    }

    /**
     * Creates topics with the same partition count (the cluster's {@link #replicationFactor()}).
     *
     * @param partitions the partition count of every topic; positive
     * @param names the topic names; not null
     * @throws IllegalArgumentException if {@code partitions} is not positive
     * @throws IllegalStateException if a topic exists already or the broker does not answer
     */
    default void createTopics(int partitions, String... names) {
        Map<String, Integer> topics = new LinkedHashMap<>();
        for (String name : names) {
            topics.put(Objects.requireNonNull(name, "topic name"), partitions);
        }
        createTopics(topics);
    }

    /**
     * Deletes topics and waits until the broker no longer lists them. Unknown names are ignored.
     *
     * @param names the topic names; not null
     * @throws IllegalStateException if the broker does not answer in time
     */
    default void deleteTopics(String... names) {
        Topics.delete(clientConfig(), Set.of(names), DEFAULT_ADMIN_TIMEOUT);
    }

    /**
     * Lists the non-internal topics.
     *
     * @return topic names; never null
     * @throws IllegalStateException if the broker does not answer in time
     */
    default Set<String> listTopics() {
        return Topics.list(clientConfig(), DEFAULT_ADMIN_TIMEOUT);
    }

    /**
     * Returns the end offset (the offset the next record will get) of every partition of a topic.
     *
     * @param topic an existing topic; not null
     * @return end offset per partition; never null
     * @throws IllegalStateException if the topic does not exist or the broker does not answer
     */
    default Map<TopicPartition, Long> endOffsets(String topic) {
        return Topics.endOffsets(clientConfig(), topic, DEFAULT_ADMIN_TIMEOUT);
    }

    /**
     * Creates ACLs (as the cluster's super user) and waits until the broker has applied them. Only a cluster whose
     * broker runs an authorizer accepts them (see {@link KafkaBrokerProcess.Builder#security(BrokerSecurity)}).
     *
     * @param acls the bindings, e.g. {@code new AclBinding(new ResourcePattern(TOPIC, "in", LITERAL),
     *     new AccessControlEntry("User:svc", "*", READ, ALLOW))}; not null
     * @throws IllegalStateException if the broker refuses them (e.g. no authorizer) or does not answer in time
     */
    default void createAcls(Collection<AclBinding> acls) {
        List<AclBinding> bindings = List.copyOf(acls);
        try (Admin admin = createAdminClient()) {
            long deadline = System.nanoTime() + DEFAULT_ADMIN_TIMEOUT.toNanos();
            admin.createAcls(bindings).all().get(DEFAULT_ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            // the controller has committed them; the broker's authorizer applies them from its metadata log
            while (!admin.describeAcls(AclBindingFilter.ANY)
                    .values()
                    .get(DEFAULT_ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .containsAll(bindings)) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("the broker did not apply the ACLs within " + DEFAULT_ADMIN_TIMEOUT);
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating ACLs", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create " + bindings.size() + " ACLs: " + e, e);
        }
    }

    /**
     * Stops the cluster and releases its resources. Idempotent: later calls do nothing.
     */
    @Override
    void close();
}
