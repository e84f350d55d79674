package dev.rtmstreams.testkit.internals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;

/**
 * The lookups a fault test makes on a multi-node cluster, each with a short-lived {@link Admin}: the leader and the
 * in-sync replicas of a partition, the active controller, the node of a transactional id's coordinator, and the waits
 * (full in-sync replica sets, any condition over the lookups).
 */
public final class ClusterLookups {

    private static final long POLL_MS = 100;

    private final Map<String, Object> clientConfig;
    private final Duration timeout;

    /**
     * @param clientConfig the cluster's client configuration (bootstrap servers of every node)
     * @param timeout the longest a single lookup waits
     */
    public ClusterLookups(Map<String, Object> clientConfig, Duration timeout) {
        this.clientConfig = new java.util.HashMap<>(clientConfig);
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        this.clientConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        this.clientConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(ms, 5_000));
        this.clientConfig.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        // a node cut off from the network drops the connection attempt (no refusal): give up on it after 1 s, not
        // the default 10 s, and ask another node
        this.clientConfig.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, 1_000);
        this.clientConfig.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, 2_000);
        this.timeout = timeout;
    }

    /** @return the partition's leader, empty when it has none */
    public OptionalInt leader(TopicPartition partition) {
        TopicPartitionInfo info = describe(partition);
        Node leader = info.leader();
        return leader == null || leader.isEmpty() || leader.id() < 0
                ? OptionalInt.empty()
                : OptionalInt.of(leader.id());
    }

    /** @return the leader of every partition of the topics; partitions without a leader are left out */
    public Map<TopicPartition, Integer> leaders(List<String> topics) {
        try (Admin admin = Admin.create(clientConfig)) {
            Map<String, TopicDescription> d =
                    get(admin.describeTopics(topics).allTopicNames(), "describe topics " + topics);
            Map<TopicPartition, Integer> out = new java.util.LinkedHashMap<>();
            for (String topic : topics) {
                for (TopicPartitionInfo p : d.get(topic).partitions()) {
                    Node leader = p.leader();
                    if (leader != null && !leader.isEmpty() && leader.id() >= 0) {
                        out.put(new TopicPartition(topic, p.partition()), leader.id());
                    }
                }
            }
            return out;
        }
    }

    /** @return the partition's in-sync replicas */
    public List<Integer> inSyncReplicas(TopicPartition partition) {
        return describe(partition).isr().stream().map(Node::id).toList();
    }

    /** @return the leader of the metadata quorum */
    public int activeController() {
        try (Admin admin = Admin.create(clientConfig)) {
            int leader = get(admin.describeMetadataQuorum().quorumInfo(), "describe the metadata quorum")
                    .leaderId();
            if (leader < 0) {
                throw new IllegalStateException("the metadata quorum has no leader");
            }
            return leader;
        }
    }

    /** @return the node of the transactional id's coordinator, empty when the id is unknown */
    public OptionalInt transactionCoordinator(String transactionalId) {
        try (Admin admin = Admin.create(clientConfig)) {
            return OptionalInt.of(get(
                            admin.describeTransactions(List.of(transactionalId)).description(transactionalId),
                            "describe transaction " + transactionalId)
                    .coordinatorId());
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof TransactionalIdNotFoundException) {
                return OptionalInt.empty();
            }
            throw e;
        }
    }

    /**
     * Waits until every partition of the topics has all its replicas in sync.
     *
     * @return how long it took
     */
    public Duration awaitFullIsr(List<String> topics, Duration wait) {
        try (Admin admin = Admin.create(clientConfig)) {
            return await("in-sync replicas full", wait, () -> {
                List<String> lagging =
                        shortPartitions(get(admin.describeTopics(topics).allTopicNames(), "describe topics " + topics));
                return lagging.isEmpty() ? null : String.join("; ", lagging);
            });
        }
    }

    /**
     * Polls every 100 ms until nothing is short any more. A lookup that fails (a node down, a request timed out) counts
     * as not yet.
     *
     * @param what what is awaited, for the message
     * @param wait the longest wait
     * @param shortfall returns null once the wait is over, else what is still short
     * @return how long it took
     * @throws IllegalStateException naming what and the last shortfall if it is not over within the wait
     */
    public static Duration await(String what, Duration wait, Supplier<String> shortfall) {
        long t0 = System.nanoTime();
        long deadline = t0 + wait.toNanos();
        while (true) {
            String missing;
            try {
                missing = shortfall.get();
            } catch (RuntimeException e) {
                missing = e.getMessage();
            }
            if (missing == null) {
                return Duration.ofNanos(System.nanoTime() - t0);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " not within " + wait + ": " + missing);
            }
            sleep(what);
        }
    }

    private static List<String> shortPartitions(Map<String, TopicDescription> descriptions) {
        List<String> out = new ArrayList<>();
        descriptions.forEach((topic, d) -> {
            for (TopicPartitionInfo p : d.partitions()) {
                if (p.isr().size() < p.replicas().size()) {
                    out.add(topic + "-" + p.partition() + " replicas " + ids(p.replicas()) + " isr " + ids(p.isr()));
                }
            }
        });
        return out;
    }

    private static List<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).toList();
    }

    private TopicPartitionInfo describe(TopicPartition partition) {
        try (Admin admin = Admin.create(clientConfig)) {
            TopicDescription d = get(
                            admin.describeTopics(List.of(partition.topic())).allTopicNames(),
                            "describe topic " + partition.topic())
                    .get(partition.topic());
            return d.partitions().stream()
                    .filter(p -> p.partition() == partition.partition())
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "topic " + partition.topic() + " has no partition " + partition.partition() + " (it has "
                                    + d.partitions().size() + ")"));
        }
    }

    private <T> T get(org.apache.kafka.common.KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the cluster did not answer within " + timeout + " to " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while trying to " + what, e);
        }
    }

    private static void sleep(String what) {
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting: " + what, e);
        }
    }
}
