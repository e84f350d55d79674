package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.CommonClientConfigs;

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

    @Override
    public String toString() {
        return "KafkaConnection[" + bootstrapServers + ", " + settings + "]";
    }
}
