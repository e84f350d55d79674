package dev.rtmstreams.adattribution;

import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.SlotCheckMode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Builds an {@link AppConfig} ({@link AppConfig#builder()}, {@link AppConfig#toBuilder()}); every setter returns the
 * builder. Validation happens in {@link #build()}, which names the first invalid option and its value.
 */
public final class AppConfigBuilder {
    String bootstrapServers;
    String applicationId = "adattribution";
    ExecutionMode trigger = ExecutionMode.REAL_TIME;
    Duration checkpointInterval = Duration.ofMinutes(5);
    Duration microBatchInterval = Duration.ofSeconds(1);
    Duration transactionInterval = RtmStreams.DEFAULT_TRANSACTION_INTERVAL;
    Path stateDir = Path.of(System.getProperty("java.io.tmpdir"), "adattribution-state");
    boolean createTopics;
    int topicPartitions = 1;
    short replicationFactor = 1;
    int numStreamThreads = 2;
    long rocksDbMemoryBytes = AppConfig.DEFAULT_ROCKSDB_MEMORY_BYTES;
    SlotCheckMode slotCheck = SlotCheckMode.WARN;
    String processingGuarantee = "at_least_once";
    Duration attributionWindow = Duration.ofMinutes(2);
    Duration watermarkDelay = Duration.ofMinutes(5);
    EvictionIndex evictionIndex = EvictionIndex.SEGMENTS;
    Duration correlationWindow = Duration.ofMinutes(5);
    int httpPort = 8080;
    String httpBindAddress = "0.0.0.0";
    InetAddress resolvedHttpBindAddress;
    String impressionsTopic = AdAttributionTopics.IMPRESSIONS;
    String clicksTopic = AdAttributionTopics.CLICKS;
    String attributedClicksTopic = AdAttributionTopics.ATTRIBUTED_CLICKS;
    String requestsTopic = AdAttributionTopics.REQUESTS;
    String acksTopic = AdAttributionTopics.ACKS;
    String logRecordsTopic = AdAttributionTopics.LOG_RECORDS;
    String dlqTopic = AdAttributionTopics.DLQ;
    String lateRecordsTopic;
    String postgresUrl;
    String postgresUser;
    String postgresPassword;
    WireFormat wireFormat = WireFormat.SINGLE_OBJECT;
    String schemaRegistryUrl;
    String schemaRegistryUser;
    String schemaRegistryPassword;
    final Map<String, String> kafkaOverrides = new LinkedHashMap<>();

    AppConfigBuilder() {}

    /** @param v Kafka bootstrap servers, {@code HOST:PORT[,HOST:PORT]}; required */
    public AppConfigBuilder bootstrapServers(String v) {
        this.bootstrapServers = v;
        return this;
    }
    /** @param v application id; default {@code adattribution} */
    public AppConfigBuilder applicationId(String v) {
        this.applicationId = v;
        return this;
    }
    /** @param v trigger; default real-time */
    public AppConfigBuilder trigger(ExecutionMode v) {
        this.trigger = v;
        return this;
    }
    /** @param v checkpoint (commit) interval of real-time mode; default PT5M */
    public AppConfigBuilder checkpointInterval(Duration v) {
        this.checkpointInterval = v;
        return this;
    }
    /** @param v transaction interval of real-time mode under exactly_once_v2; default PT0.01S */
    public AppConfigBuilder transactionInterval(Duration v) {
        this.transactionInterval = v;
        return this;
    }
    /** @param v batch interval of micro-batch mode; default PT1S */
    public AppConfigBuilder microBatchInterval(Duration v) {
        this.microBatchInterval = v;
        return this;
    }
    /** @param v state directory; default {@code $TMPDIR/adattribution-state} */
    public AppConfigBuilder stateDir(Path v) {
        this.stateDir = v;
        return this;
    }
    /** @param v create missing topics at start; default false */
    public AppConfigBuilder createTopics(boolean v) {
        this.createTopics = v;
        return this;
    }
    /** @param v partitions of created topics; default 1 */
    public AppConfigBuilder topicPartitions(int v) {
        this.topicPartitions = v;
        return this;
    }
    /** @param v replication factor of created topics; default 1 */
    public AppConfigBuilder replicationFactor(short v) {
        this.replicationFactor = v;
        return this;
    }
    /** @param v stream threads; default 2 (one per pipeline sub-topology with 1 partition) */
    public AppConfigBuilder numStreamThreads(int v) {
        this.numStreamThreads = v;
        return this;
    }
    /**
     * @param v bytes of off-heap memory for all RocksDB stores of the JVM (block cache and memtables, see
     *     {@link dev.rtmstreams.topology.RocksDbBoundedMemory}); 0 leaves Kafka Streams' per-store defaults;
     *     default {@value AppConfig#AppConfig.DEFAULT_ROCKSDB_MEMORY_BYTES}
     */
    public AppConfigBuilder rocksDbMemoryBytes(long v) {
        this.rocksDbMemoryBytes = v;
        return this;
    }
    /** @param v slot check; default warn */
    public AppConfigBuilder slotCheck(SlotCheckMode v) {
        this.slotCheck = v;
        return this;
    }
    /** @param v {@code at_least_once} (default) or {@code exactly_once_v2} */
    public AppConfigBuilder processingGuarantee(String v) {
        this.processingGuarantee = v;
        return this;
    }
    /** @param v click attribution window; default PT2M */
    public AppConfigBuilder attributionWindow(Duration v) {
        this.attributionWindow = v;
        return this;
    }
    /** @param v where the click attribution join keeps its time index; default {@link EvictionIndex#SEGMENTS} */
    public AppConfigBuilder evictionIndex(EvictionIndex v) {
        this.evictionIndex = v;
        return this;
    }
    /** @param v watermark delay of both join sides; default PT5M */
    public AppConfigBuilder watermarkDelay(Duration v) {
        this.watermarkDelay = v;
        return this;
    }
    /** @param v request/ack correlation window; default PT5M */
    public AppConfigBuilder correlationWindow(Duration v) {
        this.correlationWindow = v;
        return this;
    }
    /** @param v HTTP port; default 8080, 0 = any free port, -1 = disabled */
    public AppConfigBuilder httpPort(int v) {
        this.httpPort = v;
        return this;
    }
    /**
     * @param v the address /health and /metrics listen on: an IP literal or a host name resolving to an address
     *     of this host; default {@code 0.0.0.0} (every interface)
     */
    public AppConfigBuilder httpBindAddress(String v) {
        this.httpBindAddress = v;
        return this;
    }
    /** @param v impressions topic; default {@code ad-impressions} */
    public AppConfigBuilder impressionsTopic(String v) {
        this.impressionsTopic = v;
        return this;
    }
    /** @param v clicks topic; default {@code ad-clicks} */
    public AppConfigBuilder clicksTopic(String v) {
        this.clicksTopic = v;
        return this;
    }
    /** @param v attributed clicks topic; default {@code attributed-clicks} */
    public AppConfigBuilder attributedClicksTopic(String v) {
        this.attributedClicksTopic = v;
        return this;
    }
    /** @param v requests topic; default {@code ad-requests} */
    public AppConfigBuilder requestsTopic(String v) {
        this.requestsTopic = v;
        return this;
    }
    /** @param v acks topic; default {@code ad-acks} */
    public AppConfigBuilder acksTopic(String v) {
        this.acksTopic = v;
        return this;
    }
    /** @param v log records topic; default {@code ad-log-records} */
    public AppConfigBuilder logRecordsTopic(String v) {
        this.logRecordsTopic = v;
        return this;
    }
    /** @param v dead-letter topic; default {@code adattribution-dlq} */
    public AppConfigBuilder dlqTopic(String v) {
        this.dlqTopic = v;
        return this;
    }
    /** @param v late-records topic; default none (null or blank = none) */
    public AppConfigBuilder lateRecordsTopic(String v) {
        this.lateRecordsTopic = v == null || v.isBlank() ? null : v;
        return this;
    }
    /** @param v jdbc:postgresql: url to also upsert attributed clicks into; default none (null or blank) */
    public AppConfigBuilder postgresUrl(String v) {
        this.postgresUrl = v == null || v.isBlank() ? null : v.trim();
        return this;
    }
    /**
     * @param user PostgreSQL user (from the environment), or null
     * @param password PostgreSQL password (from the environment), or null
     */
    public AppConfigBuilder postgresCredentials(String user, String password) {
        this.postgresUser = user;
        this.postgresPassword = password;
        return this;
    }
    /** @param v how Avro records are framed; default single-object */
    public AppConfigBuilder wireFormat(WireFormat v) {
        this.wireFormat = v;
        return this;
    }
    /** @param v Schema Registry base url, required with the confluent wire format; default none (null or blank) */
    public AppConfigBuilder schemaRegistryUrl(String v) {
        this.schemaRegistryUrl = v == null || v.isBlank() ? null : v.trim();
        return this;
    }
    /**
     * @param user Schema Registry basic-auth user (from the environment), or null
     * @param password Schema Registry basic-auth password (from the environment), or null
     */
    public AppConfigBuilder schemaRegistryCredentials(String user, String password) {
        this.schemaRegistryUser = user == null || user.isBlank() ? null : user;
        this.schemaRegistryPassword = password;
        return this;
    }
    /**
     * @param key a Kafka Streams / client property name
     * @param value its value; overrides what the service derives from the other options
     */
    public AppConfigBuilder kafkaOverride(String key, String value) {
        this.kafkaOverrides.put(key, value);
        return this;
    }

    /**
     * Under exactly_once_v2 a transaction stays open for one commit interval: the transaction interval in real-time
     * mode (at most the checkpoint interval), the batch interval in micro-batch mode. Refuses, naming our option,
     * an interval longer than the producer's transaction timeout when one is set, or, when none is set, too close
     * to the broker's default maximum (15 minutes) for any timeout to cover it.
     */
    private void requireTransactionsFit() {
        boolean realTime = trigger == ExecutionMode.REAL_TIME;
        String option = realTime ? "transaction-interval" : "micro-batch-interval";
        Duration interval = realTime
                ? (transactionInterval.compareTo(checkpointInterval) < 0 ? transactionInterval : checkpointInterval)
                : microBatchInterval;
        Duration shown = realTime ? transactionInterval : microBatchInterval;
        String timeout = kafkaOverrides.getOrDefault(
                "producer.transaction.timeout.ms", kafkaOverrides.get("transaction.timeout.ms"));
        if (timeout != null) {
            long ms;
            try {
                ms = Long.parseLong(timeout.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "kafka.producer.transaction.timeout.ms must be a number: '" + timeout + "'", e);
            }
            if (ms < interval.toMillis()) {
                throw new IllegalArgumentException(option + " " + shown + " is longer than the transaction timeout"
                        + " (kafka.producer.transaction.timeout.ms=" + timeout + ") under exactly_once_v2: every"
                        + " transaction would be aborted; choose a shorter " + option + " or a longer timeout");
            }
        } else if (interval.compareTo(AppConfig.MAX_EXACTLY_ONCE_COMMIT_INTERVAL) > 0) {
            throw new IllegalArgumentException(option + " " + shown + " is too long for exactly_once_v2: a"
                    + " transaction stays open that long, and brokers end transactions after"
                    + " transaction.max.timeout.ms (15 minutes by default); choose at most "
                    + AppConfig.MAX_EXACTLY_ONCE_COMMIT_INTERVAL + ", or set kafka.producer.transaction.timeout.ms (and"
                    + " the brokers' transaction.max.timeout.ms)");
        }
    }

    /**
     * Validates and builds.
     *
     * @return the configuration
     * @throws IllegalArgumentException naming the first invalid option and its value
     */
    public AppConfig build() {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrap-servers is required (HOST:PORT): '" + bootstrapServers + "'");
        }
        requireName("application-id", applicationId);
        Objects.requireNonNull(trigger, "trigger");
        requirePositive("checkpoint-interval", checkpointInterval);
        // PT0S: micro-batch as fast as possible (a batch at every pass of the stream thread's loop)
        if (microBatchInterval == null || microBatchInterval.isNegative()) {
            throw new IllegalArgumentException("micro-batch-interval must not be negative (PT0S: as fast as "
                    + "possible): " + microBatchInterval);
        }
        Objects.requireNonNull(stateDir, "state-dir");
        if (topicPartitions < 1) {
            throw new IllegalArgumentException("topic-partitions must be positive: " + topicPartitions);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replication-factor must be positive: " + replicationFactor);
        }
        if (numStreamThreads < 1) {
            throw new IllegalArgumentException("num-stream-threads must be positive: " + numStreamThreads);
        }
        if (rocksDbMemoryBytes != 0 && rocksDbMemoryBytes < AppConfig.MIN_ROCKSDB_MEMORY_BYTES) {
            throw new IllegalArgumentException("rocksdb-memory must be 0 (Kafka Streams' per-store defaults) or at"
                    + " least " + AppConfig.MIN_ROCKSDB_MEMORY_BYTES + " bytes: " + rocksDbMemoryBytes);
        }
        Objects.requireNonNull(slotCheck, "slot-check");
        if (!"at_least_once".equals(processingGuarantee) && !"exactly_once_v2".equals(processingGuarantee)) {
            throw new IllegalArgumentException(
                    "processing-guarantee must be at_least_once or exactly_once_v2: '" + processingGuarantee + "'");
        }
        if (transactionInterval == null || transactionInterval.isNegative()) {
            throw new IllegalArgumentException("transaction-interval must not be negative (PT0S: at every pass"
                    + " of the stream thread's loop): " + transactionInterval);
        }
        if ("exactly_once_v2".equals(processingGuarantee)) {
            requireTransactionsFit();
        }
        requirePositive("attribution-window", attributionWindow);
        if (evictionIndex == null) {
            throw new IllegalArgumentException("eviction-index must be heap, state-store or segments: null");
        }
        if (watermarkDelay == null || watermarkDelay.isNegative()) {
            throw new IllegalArgumentException("watermark-delay must not be negative: " + watermarkDelay);
        }
        requirePositive("correlation-window", correlationWindow);
        if (httpPort < -1 || httpPort > 65535) {
            throw new IllegalArgumentException("http-port must be -1 (off), 0 (any) or 1-65535: " + httpPort);
        }
        resolvedHttpBindAddress = resolveBindAddress(httpBindAddress);
        requireName("impressions-topic", impressionsTopic);
        requireName("clicks-topic", clicksTopic);
        requireName("attributed-clicks-topic", attributedClicksTopic);
        requireName("requests-topic", requestsTopic);
        requireName("acks-topic", acksTopic);
        requireName("log-records-topic", logRecordsTopic);
        requireName("dlq-topic", dlqTopic);
        if (postgresUrl != null && !postgresUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("postgres-url must be a jdbc:postgresql: url: '" + postgresUrl + "'");
        }
        Objects.requireNonNull(wireFormat, "wire-format");
        if (wireFormat == WireFormat.CONFLUENT && schemaRegistryUrl == null) {
            throw new IllegalArgumentException(
                    "schema-registry-url is required with wire-format confluent: '" + schemaRegistryUrl + "'");
        }
        if (wireFormat == WireFormat.SINGLE_OBJECT && schemaRegistryUrl != null) {
            throw new IllegalArgumentException("schema-registry-url is only used with wire-format confluent "
                    + "(wire-format is single-object): '" + schemaRegistryUrl + "'");
        }
        if (schemaRegistryUrl != null) {
            // the client's own check: an http(s) url with a host and no credentials in it
            dev.rtmstreams.adattribution.model.SchemaRegistryClient.builder(schemaRegistryUrl)
                    .build();
        }
        AppConfig config = new AppConfig(this);
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String topic : config.topics().all()) {
            if (!seen.add(topic)) {
                throw new IllegalArgumentException("topic names must be distinct: '" + topic + "' is used twice");
            }
        }
        return config;
    }

    private static InetAddress resolveBindAddress(String address) {
        if (address == null || address.isBlank() || !address.trim().matches("[A-Za-z0-9.:%_-]+")) {
            throw new IllegalArgumentException(
                    "http-bind-address must be an IP address or host name: '" + address + "'");
        }
        try {
            return InetAddress.getByName(address.trim());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("http-bind-address does not resolve: '" + address + "'");
        }
    }

    private static void requirePositive(String name, Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }

    private static void requireName(String name, String value) {
        if (value == null || value.isBlank() || !value.matches("[a-zA-Z0-9._-]+")) {
            throw new IllegalArgumentException(name + " must be a non-empty name of [a-zA-Z0-9._-]: '" + value + "'");
        }
    }
}
