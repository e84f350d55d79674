package dev.rtmstreams.topology.internals;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/** Asks the cluster for the partition counts of a topology's topics. */
public final class PartitionCounts {

    private PartitionCounts() {}

    /**
     * @return partition counts of the external source topics (all must exist), and of the internal topics that
     *     already exist (under their undecorated names)
     * @throws IllegalArgumentException when a source topic does not exist or the cluster does not answer in 30 s
     */
    public static Map<String, Integer> fromCluster(Topology topology, Properties config, String applicationId) {
        TopologySizer.Shape shape = TopologySizer.shape(topology);
        Set<String> wanted = new TreeSet<>(shape.externalSources());
        Map<String, String> internalByDecorated = new HashMap<>();
        for (String t : shape.internalTopics()) {
            internalByDecorated.put(applicationId + "-" + t, t);
        }
        Map<String, Object> adminConfig = new StreamsConfig(config).getAdminConfigs(applicationId + "-rtm-sizing");
        Map<String, Integer> out = new HashMap<>();
        try (Admin admin = Admin.create(adminConfig)) {
            Set<String> all = new TreeSet<>(wanted);
            all.addAll(internalByDecorated.keySet());
            if (!shape.patterns().isEmpty()) {
                all.addAll(admin.listTopics().names().get(30, TimeUnit.SECONDS));
            }
            Map<String, KafkaFuture<TopicDescription>> futures =
                    admin.describeTopics(all).topicNameValues();
            for (Map.Entry<String, KafkaFuture<TopicDescription>> e : futures.entrySet()) {
                try {
                    int n = e.getValue().get(30, TimeUnit.SECONDS).partitions().size();
                    out.put(internalByDecorated.getOrDefault(e.getKey(), e.getKey()), n);
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw new IllegalArgumentException(
                                "cannot describe topic " + e.getKey() + ": " + ex.getCause(), ex);
                    }
                    if (wanted.contains(e.getKey())) {
                        throw new IllegalArgumentException("source topic " + e.getKey() + " does not exist", ex);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking the cluster for partition counts", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalArgumentException("cannot ask the cluster for partition counts: " + e, e);
        }
        return out;
    }
}
