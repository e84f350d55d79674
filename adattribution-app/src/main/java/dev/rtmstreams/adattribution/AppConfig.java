package dev.rtmstreams.adattribution;

import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.SlotCheckMode;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The immutable configuration of the ad-attribution service: Kafka connection, trigger, the
 * pipelines' windows and the topic names. Built by {@link #builder()}, validated in
 * {@link AppConfigBuilder#build()}; every option except the bootstrap servers has a default.
 *
 * <p>The command line ({@code run}) resolves each option from, in order of precedence, the
 * command line, an {@code RTM_*} environment variable, the {@code --config} properties file, and
 * finally the default documented on each builder method.
 */
public final class AppConfig {

    /** Default of {@link #rocksDbMemoryBytes()}: 256 MiB for block cache and memtables of all stores. */
    public static final long DEFAULT_ROCKSDB_MEMORY_BYTES = 256L * 1024 * 1024;
    /** Smallest non-zero {@link #rocksDbMemoryBytes()}: 16 MiB. */
    public static final long MIN_ROCKSDB_MEMORY_BYTES = 16L * 1024 * 1024;

    private final String bootstrapServers;
    private final String applicationId;
    private final ExecutionMode trigger;
    private final Duration checkpointInterval;
    private final Duration microBatchInterval;
    private final Duration transactionInterval;

    /**
     * The longest commit interval exactly_once_v2 accepts without a transaction timeout of the user's: a minute less
     * than the brokers' default {@code transaction.max.timeout.ms} (15 minutes).
     */
    public static final Duration MAX_EXACTLY_ONCE_COMMIT_INTERVAL = Duration.ofMinutes(14);

    private final Path stateDir;
    private final boolean createTopics;
    private final int topicPartitions;
    private final short replicationFactor;
    private final int numStreamThreads;
    private final long rocksDbMemoryBytes;
    private final SlotCheckMode slotCheck;
    private final String processingGuarantee;
    private final Duration attributionWindow;
    private final Duration watermarkDelay;
    private final EvictionIndex evictionIndex;
    private final Duration correlationWindow;
    private final int httpPort;
    private final InetAddress httpBindAddress;
    private final ServiceTopics topics;
    private final String lateRecordsTopic;
    private final Map<String, String> kafkaOverrides;
    private final Postgres postgres;
    private final WireFormat wireFormat;
    private final SchemaRegistry schemaRegistry;

    AppConfig(AppConfigBuilder b) {
        this.bootstrapServers = b.bootstrapServers;
        this.applicationId = b.applicationId;
        this.trigger = b.trigger;
        this.checkpointInterval = b.checkpointInterval;
        this.microBatchInterval = b.microBatchInterval;
        this.transactionInterval = b.transactionInterval;
        this.stateDir = b.stateDir;
        this.createTopics = b.createTopics;
        this.topicPartitions = b.topicPartitions;
        this.replicationFactor = b.replicationFactor;
        this.numStreamThreads = b.numStreamThreads;
        this.rocksDbMemoryBytes = b.rocksDbMemoryBytes;
        this.slotCheck = b.slotCheck;
        this.processingGuarantee = b.processingGuarantee;
        this.attributionWindow = b.attributionWindow;
        this.watermarkDelay = b.watermarkDelay;
        this.evictionIndex = b.evictionIndex;
        this.correlationWindow = b.correlationWindow;
        this.httpPort = b.httpPort;
        this.httpBindAddress = b.resolvedHttpBindAddress;
        this.topics = new ServiceTopics(
                b.impressionsTopic,
                b.clicksTopic,
                b.requestsTopic,
                b.acksTopic,
                b.attributedClicksTopic,
                b.logRecordsTopic,
                b.dlqTopic);
        this.lateRecordsTopic = b.lateRecordsTopic;
        this.kafkaOverrides = Map.copyOf(b.kafkaOverrides);
        this.postgres = b.postgresUrl == null ? null : new Postgres(b.postgresUrl, b.postgresUser, b.postgresPassword);
        this.wireFormat = b.wireFormat;
        this.schemaRegistry = b.schemaRegistryUrl == null
                ? null
                : new SchemaRegistry(b.schemaRegistryUrl, b.schemaRegistryUser, b.schemaRegistryPassword);
    }

    /**
     * The Schema Registry of the Confluent wire format.
     *
     * @param url its base url, {@code http(s)://host:port}
     * @param user basic-auth user from {@code RTM_SCHEMA_REGISTRY_USER}, or null for none
     * @param password basic-auth password from {@code RTM_SCHEMA_REGISTRY_PASSWORD}, or null; never printed
     */
    public record SchemaRegistry(String url, String user, String password) {
        @Override
        public String toString() {
            return "SchemaRegistry[url=" + url + ", user=" + user + ", password=" + (password == null ? "null" : "***")
                    + "]";
        }
    }

    /**
     * Where attributed clicks are also upserted (table {@code attributed_clicks}, keyed by {@code click_id}).
     *
     * @param url {@code jdbc:postgresql://host:port/db}
     * @param user user name from {@code RTM_POSTGRES_USER}, or null
     * @param password password from {@code RTM_POSTGRES_PASSWORD}, or null; never printed
     */
    public record Postgres(String url, String user, String password) {
        @Override
        public String toString() {
            return "Postgres[url=" + url + ", user=" + user + ", password=" + (password == null ? "null" : "***") + "]";
        }
    }

    /** @return a builder with every default set and no bootstrap servers */
    public static AppConfigBuilder builder() {
        return new AppConfigBuilder();
    }

    /** @return a builder initialised from this configuration */
    public AppConfigBuilder toBuilder() {
        AppConfigBuilder b = new AppConfigBuilder();
        b.bootstrapServers = bootstrapServers;
        b.applicationId = applicationId;
        b.trigger = trigger;
        b.checkpointInterval = checkpointInterval;
        b.microBatchInterval = microBatchInterval;
        b.transactionInterval = transactionInterval;
        b.stateDir = stateDir;
        b.createTopics = createTopics;
        b.topicPartitions = topicPartitions;
        b.replicationFactor = replicationFactor;
        b.numStreamThreads = numStreamThreads;
        b.rocksDbMemoryBytes = rocksDbMemoryBytes;
        b.slotCheck = slotCheck;
        b.processingGuarantee = processingGuarantee;
        b.attributionWindow = attributionWindow;
        b.watermarkDelay = watermarkDelay;
        b.evictionIndex = evictionIndex;
        b.correlationWindow = correlationWindow;
        b.httpPort = httpPort;
        b.httpBindAddress = httpBindAddress.getHostAddress();
        b.impressionsTopic = topics.impressions();
        b.clicksTopic = topics.clicks();
        b.attributedClicksTopic = topics.attributedClicks();
        b.requestsTopic = topics.requests();
        b.acksTopic = topics.acks();
        b.logRecordsTopic = topics.logRecords();
        b.dlqTopic = topics.dlq();
        b.lateRecordsTopic = lateRecordsTopic;
        b.kafkaOverrides.putAll(kafkaOverrides);
        if (postgres != null) {
            b.postgresUrl = postgres.url();
            b.postgresUser = postgres.user();
            b.postgresPassword = postgres.password();
        }
        b.wireFormat = wireFormat;
        if (schemaRegistry != null) {
            b.schemaRegistryUrl = schemaRegistry.url();
            b.schemaRegistryUser = schemaRegistry.user();
            b.schemaRegistryPassword = schemaRegistry.password();
        }
        return b;
    }

    /** @return the Kafka bootstrap servers; never null */
    public String bootstrapServers() {
        return bootstrapServers;
    }
    /** @return the Kafka Streams {@code application.id}; never null */
    public String applicationId() {
        return applicationId;
    }
    /** @return the trigger; never null */
    public ExecutionMode trigger() {
        return trigger;
    }
    /**
     * @return how often a real-time run checkpoints: commits offsets at-least-once, closes an epoch under
     *     exactly-once; positive
     */
    public Duration checkpointInterval() {
        return checkpointInterval;
    }

    /**
     * @return how often a real-time run under exactly_once_v2 commits its transactions (at most the checkpoint
     *     interval); not negative, zero for every pass of the stream thread's loop
     */
    public Duration transactionInterval() {
        return transactionInterval;
    }
    /** @return the batch interval of the micro-batch trigger; not negative, zero for as fast as possible */
    public Duration microBatchInterval() {
        return microBatchInterval;
    }
    /** @return the Kafka Streams state directory; never null */
    public Path stateDir() {
        return stateDir;
    }
    /** @return whether missing topics are created at start */
    public boolean createTopics() {
        return createTopics;
    }
    /** @return partitions of topics created by {@code --create-topics}; positive */
    public int topicPartitions() {
        return topicPartitions;
    }
    /** @return replication factor of topics created by {@code --create-topics}; positive */
    public short replicationFactor() {
        return replicationFactor;
    }
    /** @return Kafka Streams stream threads (slots) of this instance; positive */
    public int numStreamThreads() {
        return numStreamThreads;
    }
    /**
     * @return bytes of off-heap memory (block cache plus memtables) shared by every RocksDB store of the JVM, or 0 for
     *     Kafka Streams' own per-store defaults (unbounded in total)
     */
    public long rocksDbMemoryBytes() {
        return rocksDbMemoryBytes;
    }
    /** @return the slot check mode; never null */
    public SlotCheckMode slotCheck() {
        return slotCheck;
    }
    /** @return {@code at_least_once} or {@code exactly_once_v2} */
    public String processingGuarantee() {
        return processingGuarantee;
    }
    /** @return the click attribution window (click_time - impression_time upper bound, inclusive); positive */
    public Duration attributionWindow() {
        return attributionWindow;
    }
    /** @return the watermark delay of both join inputs; not negative */
    public Duration watermarkDelay() {
        return watermarkDelay;
    }
    /** @return where the click attribution join keeps its time index of buffered rows; never null */
    public EvictionIndex evictionIndex() {
        return evictionIndex;
    }
    /** @return how long request/ack state for a transaction lives after the key is first seen; positive */
    public Duration correlationWindow() {
        return correlationWindow;
    }
    /** @return the HTTP port of /health and /metrics; 0 = any free port, -1 = no HTTP server */
    public int httpPort() {
        return httpPort;
    }
    /** @return the address of /health and /metrics; never null, the wildcard {@code 0.0.0.0} by default */
    public InetAddress httpBindAddress() {
        return httpBindAddress;
    }
    /** @return the topic names; never null */
    public ServiceTopics topics() {
        return topics;
    }
    /** @return the topic for join inputs behind the watermark, empty when late records are only counted */
    public Optional<String> lateRecordsTopic() {
        return Optional.ofNullable(lateRecordsTopic);
    }
    /** @return every topic the service reads or writes: {@link ServiceTopics#all()} and the late-records topic */
    public List<String> allTopics() {
        List<String> all = new ArrayList<>(topics.all());
        lateRecordsTopic().ifPresent(all::add);
        return List.copyOf(all);
    }
    /**
     * @return extra Kafka Streams and client properties (from {@code kafka.*} keys of the config file and
     *     {@code RTM_KAFKA_*} environment variables); never null; may hold secrets, which {@link #toString()} hides
     */
    public Map<String, String> kafkaOverrides() {
        return kafkaOverrides;
    }
    /** @return the PostgreSQL that attributed clicks are also upserted into; empty when off (the default) */
    public Optional<Postgres> postgres() {
        return Optional.ofNullable(postgres);
    }
    /** @return how Avro records are framed on every topic the service reads and writes; never null */
    public WireFormat wireFormat() {
        return wireFormat;
    }
    /** @return the Schema Registry; present exactly when the wire format is {@link WireFormat#CONFLUENT} */
    public Optional<SchemaRegistry> schemaRegistry() {
        return Optional.ofNullable(schemaRegistry);
    }

    @Override
    public String toString() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bootstrapServers", bootstrapServers);
        m.put("applicationId", applicationId);
        m.put("trigger", trigger.configValue());
        m.put("checkpointInterval", checkpointInterval);
        m.put("microBatchInterval", microBatchInterval);
        m.put("transactionInterval", transactionInterval);
        m.put("stateDir", stateDir);
        m.put("createTopics", createTopics);
        m.put("topicPartitions", topicPartitions);
        m.put("replicationFactor", replicationFactor);
        m.put("numStreamThreads", numStreamThreads);
        m.put("rocksDbMemoryBytes", rocksDbMemoryBytes);
        m.put("slotCheck", slotCheck);
        m.put("processingGuarantee", processingGuarantee);
        m.put("attributionWindow", attributionWindow);
        m.put("watermarkDelay", watermarkDelay);
        m.put("evictionIndex", evictionIndex);
        m.put("correlationWindow", correlationWindow);
        m.put("httpPort", httpPort);
        m.put("httpBindAddress", httpBindAddress.getHostAddress());
        m.put("topics", topics);
        m.put("lateRecordsTopic", lateRecordsTopic);
        m.put("kafkaOverrides", KafkaClientSettings.redact(kafkaOverrides));
        m.put("postgres", postgres);
        m.put("wireFormat", wireFormat.configValue());
        m.put("schemaRegistry", schemaRegistry);
        return "AppConfig" + m;
    }
}
