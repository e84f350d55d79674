package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * After a run on the runner's own replicated cluster: every topic of the run (its inputs and outputs, and the
 * service's internal topics, named after its application id) has the replication factor the run asked for. A topic
 * created by a client that ignored it (a changelog at replication factor 1 would lose the state with one broker) is a
 * failure of the run.
 */
final class ReplicationCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private ReplicationCheck() {}

    /**
     * Checks the replication factor of the run's topics.
     *
     * @param kafka the cluster
     * @param runTopics the run's inputs and outputs
     * @param applicationId the service's application id: its internal topics start with it and a dash
     * @param replicationFactor the replicas every partition must have
     * @return the failures, each naming a topic, its replication factor and the expected one; empty when all match
     */
    static List<String> check(
            KafkaConnection kafka, List<String> runTopics, String applicationId, int replicationFactor) {
        List<String> failures = new ArrayList<>();
        try (Admin admin = Admin.create(kafka.config(Map.of()))) {
            TreeSet<String> internal = new TreeSet<>();
            for (String t : admin.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                if (t.startsWith(applicationId + "-")) {
                    internal.add(t);
                }
            }
            if (internal.stream().noneMatch(t -> t.endsWith("-changelog"))) {
                failures.add("no changelog topic of application " + applicationId + " found: " + internal);
            }
            List<String> all = new ArrayList<>(runTopics);
            all.addAll(internal);
            Map<String, TopicDescription> described =
                    admin.describeTopics(all).allTopicNames().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            for (String t : all) {
                for (TopicPartitionInfo p : described.get(t).partitions()) {
                    if (p.replicas().size() != replicationFactor) {
                        failures.add("topic " + t + " partition " + p.partition() + " has "
                                + p.replicas().size() + " replicas, the run asked for " + replicationFactor);
                        break;
                    }
                }
            }
            return failures;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of("interrupted while checking the replication factor of the run's topics");
        } catch (ExecutionException | TimeoutException e) {
            return List.of("cannot check the replication factor of the run's topics: " + e);
        }
    }
}
