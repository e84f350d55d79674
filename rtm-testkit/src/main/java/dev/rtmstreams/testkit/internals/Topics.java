package dev.rtmstreams.testkit.internals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Synchronous topic administration used by {@code KafkaCluster}'s helpers. */
public final class Topics {

    private static final long POLL_MS = 50;

    private Topics() {}

    /** Creates topics with a replication factor and waits until each partition has a leader. */
    public static void create(
            Map<String, Object> clientConfig,
            Map<String, Integer> partitionsByTopic,
            short replicationFactor,
            Map<String, String> topicConfigs,
            Duration timeout) {
        List<NewTopic> newTopics = new ArrayList<>();
        partitionsByTopic.forEach((name, partitions) -> {
            if (partitions == null || partitions <= 0) {
                throw new IllegalArgumentException("partitions of topic " + name + " must be positive: " + partitions);
            }
            newTopics.add(new NewTopic(name, partitions, replicationFactor).configs(topicConfigs));
        });
        if (newTopics.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(clientConfig)) {
            get(admin.createTopics(newTopics).all(), deadline, "create topics " + partitionsByTopic.keySet());
            awaitLeaders(admin, partitionsByTopic, deadline);
        }
    }

    private static void awaitLeaders(Admin admin, Map<String, Integer> partitionsByTopic, long deadline) {
        while (true) {
            try {
                Map<String, TopicDescription> descriptions = get(
                        admin.describeTopics(partitionsByTopic.keySet()).allTopicNames(), deadline, "describe topics");
                boolean ready = true;
                for (Map.Entry<String, TopicDescription> entry : descriptions.entrySet()) {
                    List<TopicPartitionInfo> partitions = entry.getValue().partitions();
                    ready &= partitions.size() == partitionsByTopic.get(entry.getKey());
                    for (TopicPartitionInfo partition : partitions) {
                        ready &= partition.leader() != null
                                && !partition.leader().isEmpty();
                    }
                }
                if (ready) {
                    return;
                }
            } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
            pause(deadline, "partition leaders of " + partitionsByTopic.keySet());
        }
    }

    /** Deletes topics (unknown ones are ignored) and waits until they are no longer listed. */
    public static void delete(Map<String, Object> clientConfig, Set<String> names, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(clientConfig)) {
            Set<String> existing = get(admin.listTopics().names(), deadline, "list topics");
            List<String> toDelete = names.stream().filter(existing::contains).toList();
            if (toDelete.isEmpty()) {
                return;
            }
            get(admin.deleteTopics(toDelete).all(), deadline, "delete topics " + toDelete);
            while (true) {
                Set<String> now = get(admin.listTopics().names(), deadline, "list topics");
                if (toDelete.stream().noneMatch(now::contains)) {
                    return;
                }
                pause(deadline, "deletion of " + toDelete);
            }
        }
    }

    /** Lists non-internal topic names. */
    public static Set<String> list(Map<String, Object> clientConfig, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(clientConfig)) {
            return Set.copyOf(get(admin.listTopics().names(), deadline, "list topics"));
        }
    }

    /** Returns the latest offset of each partition of a topic. */
    public static Map<TopicPartition, Long> endOffsets(
            Map<String, Object> clientConfig, String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(clientConfig)) {
            TopicDescription description = get(
                            admin.describeTopics(Set.of(topic)).allTopicNames(), deadline, "describe topic " + topic)
                    .get(topic);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            for (TopicPartitionInfo partition : description.partitions()) {
                request.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest());
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> offsets =
                    get(admin.listOffsets(request).all(), deadline, "list offsets of " + topic);
            Map<TopicPartition, Long> result = new HashMap<>();
            offsets.forEach((tp, info) -> result.put(tp, info.offset()));
            return Map.copyOf(result);
        }
    }

    /** Waits for a future until the deadline; wraps failures in IllegalStateException. */
    public static <T> T get(org.apache.kafka.common.KafkaFuture<T> future, long deadlineNanos, String what) {
        long remaining = Math.max(1, deadlineNanos - System.nanoTime());
        try {
            return future.get(remaining, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("failed to " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out trying to " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while trying to " + what, e);
        }
    }

    private static void pause(long deadlineNanos, String what) {
        if (System.nanoTime() > deadlineNanos) {
            throw new IllegalStateException("timed out waiting for " + what);
        }
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
    }
}
