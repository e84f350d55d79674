package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.processor.RtmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The check of existing buffer changelog topics against the configs this release creates them with
 * ({@link IntervalJoinTopology#bufferChangelogConfig}). Kafka Streams sets a changelog topic's configs only when it
 * creates the topic; topics created before evicted rows stopped getting tombstones keep {@code cleanup.policy=compact}
 * and would keep every row ever buffered.
 */
public final class BufferChangelogConfigs {

    private BufferChangelogConfigs() {}

    /**
     * @param applicationId the application id (the changelog topics' prefix)
     * @param spec the join
     * @return the join's two buffer changelog topic names
     */
    public static List<String> topics(String applicationId, JoinSpec<?, ?, ?> spec) {
        return List.of(
                applicationId + "-" + spec.leftBufferStore() + "-changelog",
                applicationId + "-" + spec.rightBufferStore() + "-changelog");
    }

    /**
     * Describes the join's buffer changelog topics; a topic that does not exist yet is fine (Kafka Streams creates it
     * with the current configs).
     *
     * @param admin admin client of the application's cluster (not closed here)
     * @param applicationId the application id
     * @param spec the join
     * @throws RtmException {@value IntervalJoin#JOIN_BUFFER_CHANGELOG_OUTDATED_CONFIG}, parameters {@code topics}, {@code cleanupPolicy},
     *     {@code messageTimestampType} (of the first such topic) and {@code commands} (the {@code kafka-configs.sh}
     *     commands that fix every such topic, one per line), when a topic lacks {@code cleanup.policy=delete} or
     *     {@code message.timestamp.type=LogAppendTime}
     * @throws IllegalStateException when a topic cannot be described for another reason
     */
    public static void verify(Admin admin, String applicationId, JoinSpec<?, ?, ?> spec) {
        Map<String, String> wanted = IntervalJoinTopology.bufferChangelogConfig(spec);
        List<String> topics = topics(applicationId, spec);
        Map<ConfigResource, KafkaFuture<Config>> described = new LinkedHashMap<>();
        for (String t : topics) {
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, t);
            described.put(r, admin.describeConfigs(List.of(r)).values().get(r));
        }
        List<String> outdated = new ArrayList<>();
        List<String> commands = new ArrayList<>();
        String firstPolicy = null;
        String firstTimestampType = null;
        for (Map.Entry<ConfigResource, KafkaFuture<Config>> e : described.entrySet()) {
            String topic = e.getKey().name();
            Config config;
            try {
                config = e.getValue().get();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while describing topic '" + topic + "'", ie);
            } catch (ExecutionException ee) {
                if (ee.getCause() instanceof UnknownTopicOrPartitionException) {
                    continue; // not created yet: Kafka Streams creates it with the current configs
                }
                throw new IllegalStateException(
                        "cannot describe the configs of topic '" + topic + "': " + ee.getCause(), ee.getCause());
            }
            String policy = value(config, TopicConfig.CLEANUP_POLICY_CONFIG);
            String timestampType = value(config, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
            boolean deletes = policy != null
                    && List.of(policy.replace(" ", "").split(",")).contains(TopicConfig.CLEANUP_POLICY_DELETE);
            if (deletes && "LogAppendTime".equals(timestampType)) {
                continue;
            }
            if (outdated.isEmpty()) {
                firstPolicy = policy;
                firstTimestampType = timestampType;
            }
            outdated.add(topic);
            commands.add("kafka-configs.sh --bootstrap-server <bootstrap.servers> --alter --entity-type topics"
                    + " --entity-name " + topic + " --add-config cleanup.policy=["
                    + wanted.get(TopicConfig.CLEANUP_POLICY_CONFIG) + "],retention.ms="
                    + wanted.get(TopicConfig.RETENTION_MS_CONFIG) + ",message.timestamp.type="
                    + wanted.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG));
        }
        if (outdated.isEmpty()) {
            return;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("topics", String.join(",", outdated));
        parameters.put("cleanupPolicy", String.valueOf(firstPolicy));
        parameters.put("messageTimestampType", String.valueOf(firstTimestampType));
        parameters.put("commands", String.join("\n", commands));
        throw new RtmException(
                IntervalJoin.JOIN_BUFFER_CHANGELOG_OUTDATED_CONFIG,
                parameters,
                Map.of("operator", spec.name()),
                "Interval join " + spec.name() + ": buffer changelog topic(s) " + String.join(", ", outdated)
                        + " have the configs of an earlier release (cleanup.policy=" + firstPolicy
                        + ", message.timestamp.type=" + firstTimestampType + "). Evicted rows get no tombstone, so"
                        + " such a topic keeps every row ever buffered and restores slow down. Before starting the"
                        + " application, run:\n" + String.join("\n", commands)
                        + "\n(or reset the application). See docs/upgrading.md.",
                null);
    }

    private static String value(Config config, String name) {
        ConfigEntry e = config.get(name);
        return e == null ? null : e.value();
    }
}
