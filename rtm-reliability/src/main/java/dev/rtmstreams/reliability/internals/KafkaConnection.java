package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Where the chaos runner's own clients connect: the bootstrap servers plus the Kafka client settings of
 * {@code --kafka-config} and {@code RTM_KAFKA_*} (security). {@link #toString()} hides secrets.
 *
 * @param bootstrapServers the cluster
 * @param settings the client settings; empty for a plaintext cluster
 */
public record KafkaConnection(String bootstrapServers, KafkaClientSettings settings) {

    /** Checks the components. */
    public KafkaConnection {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(settings, "settings");
    }

    /**
     * Returns a client configuration: the settings, then the client's own properties, then the bootstrap servers.
     *
     * @param clientProperties serializers, client id and so on; not null
     * @return a new mutable map
     */
    public Map<String, Object> config(Map<String, ?> clientProperties) {
        Map<String, Object> config = new HashMap<>(settings.asMap());
        config.putAll(clientProperties);
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return config;
    }

    /**
     * Opens a consumer that watches topics from now on: raw bytes, {@code read_committed}, no group offsets committed,
     * assigned every partition of the topics and positioned at their end (positions resolved before it returns).
     *
     * @param clientId the client id
     * @param clientProperties further consumer properties (e.g. a shorter fetch wait); not null
     * @param topics the topics to watch
     * @return the consumer; the caller closes it
     */
    public KafkaConsumer<byte[], byte[]> tailConsumer(
            String clientId, Map<String, ?> clientProperties, List<String> topics) {
        Map<String, Object> properties = new HashMap<>(clientProperties);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config(properties));
        try {
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : topics) {
                for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(60))) {
                    parts.add(new TopicPartition(p.topic(), p.partition()));
                }
            }
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position);
            return consumer;
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    @Override
    public String toString() {
        return "KafkaConnection[" + bootstrapServers + ", " + settings + "]";
    }
}
