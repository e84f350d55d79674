package dev.rtmstreams.adattribution;

import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.SlotCheckMode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The immutable configuration of the ad-attribution service: Kafka connection, trigger, the
 * pipelines' windows and the topic names. Built by {@link #builder()}, validated in
 * {@link Builder#build()}; every option except the bootstrap servers has a default.
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
    private final Duration correlationWindow;
    private final int httpPort;
    private final InetAddress httpBindAddress;
    private final ServiceTopics topics;
    private final String lateRecordsTopic;
    private final Map<String, String> kafkaOverrides;
    private final Postgres postgres;
    private final WireFormat wireFormat;
    private final SchemaRegistry schemaRegistry;

    private AppConfig(Builder b) {
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
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder initialised from this configuration */
    public Builder toBuilder() {
        Builder b = new Builder();
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

    /** Builds an {@link AppConfig}; every setter returns the builder. Validation happens in {@link #build()}. */
    public static final class Builder {
        private String bootstrapServers;
        private String applicationId = "adattribution";
        private ExecutionMode trigger = ExecutionMode.REAL_TIME;
        private Duration checkpointInterval = Duration.ofMinutes(5);
        private Duration microBatchInterval = Duration.ofSeconds(1);
        private Duration transactionInterval = RtmStreams.DEFAULT_TRANSACTION_INTERVAL;
        private Path stateDir = Path.of(System.getProperty("java.io.tmpdir"), "adattribution-state");
        private boolean createTopics;
        private int topicPartitions = 1;
        private short replicationFactor = 1;
        private int numStreamThreads = 2;
        private long rocksDbMemoryBytes = DEFAULT_ROCKSDB_MEMORY_BYTES;
        private SlotCheckMode slotCheck = SlotCheckMode.WARN;
        private String processingGuarantee = "at_least_once";
        private Duration attributionWindow = Duration.ofMinutes(2);
        private Duration watermarkDelay = Duration.ofMinutes(5);
        private Duration correlationWindow = Duration.ofMinutes(5);
        private int httpPort = 8080;
        private String httpBindAddress = "0.0.0.0";
        private InetAddress resolvedHttpBindAddress;
        private String impressionsTopic = AdAttributionTopics.IMPRESSIONS;
        private String clicksTopic = AdAttributionTopics.CLICKS;
        private String attributedClicksTopic = AdAttributionTopics.ATTRIBUTED_CLICKS;
        private String requestsTopic = AdAttributionTopics.REQUESTS;
        private String acksTopic = AdAttributionTopics.ACKS;
        private String logRecordsTopic = AdAttributionTopics.LOG_RECORDS;
        private String dlqTopic = AdAttributionTopics.DLQ;
        private String lateRecordsTopic;
        private String postgresUrl;
        private String postgresUser;
        private String postgresPassword;
        private WireFormat wireFormat = WireFormat.SINGLE_OBJECT;
        private String schemaRegistryUrl;
        private String schemaRegistryUser;
        private String schemaRegistryPassword;
        private final Map<String, String> kafkaOverrides = new LinkedHashMap<>();

        private Builder() {}

        /** @param v Kafka bootstrap servers, {@code HOST:PORT[,HOST:PORT]}; required */
        public Builder bootstrapServers(String v) {
            this.bootstrapServers = v;
            return this;
        }
        /** @param v application id; default {@code adattribution} */
        public Builder applicationId(String v) {
            this.applicationId = v;
            return this;
        }
        /** @param v trigger; default real-time */
        public Builder trigger(ExecutionMode v) {
            this.trigger = v;
            return this;
        }
        /** @param v checkpoint (commit) interval of real-time mode; default PT5M */
        public Builder checkpointInterval(Duration v) {
            this.checkpointInterval = v;
            return this;
        }
        /** @param v transaction interval of real-time mode under exactly_once_v2; default PT0.01S */
        public Builder transactionInterval(Duration v) {
            this.transactionInterval = v;
            return this;
        }
        /** @param v batch interval of micro-batch mode; default PT1S */
        public Builder microBatchInterval(Duration v) {
            this.microBatchInterval = v;
            return this;
        }
        /** @param v state directory; default {@code $TMPDIR/adattribution-state} */
        public Builder stateDir(Path v) {
            this.stateDir = v;
            return this;
        }
        /** @param v create missing topics at start; default false */
        public Builder createTopics(boolean v) {
            this.createTopics = v;
            return this;
        }
        /** @param v partitions of created topics; default 1 */
        public Builder topicPartitions(int v) {
            this.topicPartitions = v;
            return this;
        }
        /** @param v replication factor of created topics; default 1 */
        public Builder replicationFactor(short v) {
            this.replicationFactor = v;
            return this;
        }
        /** @param v stream threads; default 2 (one per pipeline sub-topology with 1 partition) */
        public Builder numStreamThreads(int v) {
            this.numStreamThreads = v;
            return this;
        }
        /**
         * @param v bytes of off-heap memory for all RocksDB stores of the JVM (block cache and memtables, see
         *     {@link dev.rtmstreams.topology.RocksDbBoundedMemory}); 0 leaves Kafka Streams' per-store defaults;
         *     default {@value AppConfig#DEFAULT_ROCKSDB_MEMORY_BYTES}
         */
        public Builder rocksDbMemoryBytes(long v) {
            this.rocksDbMemoryBytes = v;
            return this;
        }
        /** @param v slot check; default warn */
        public Builder slotCheck(SlotCheckMode v) {
            this.slotCheck = v;
            return this;
        }
        /** @param v {@code at_least_once} (default) or {@code exactly_once_v2} */
        public Builder processingGuarantee(String v) {
            this.processingGuarantee = v;
            return this;
        }
        /** @param v click attribution window; default PT2M */
        public Builder attributionWindow(Duration v) {
            this.attributionWindow = v;
            return this;
        }
        /** @param v watermark delay of both join sides; default PT5M */
        public Builder watermarkDelay(Duration v) {
            this.watermarkDelay = v;
            return this;
        }
        /** @param v request/ack correlation window; default PT5M */
        public Builder correlationWindow(Duration v) {
            this.correlationWindow = v;
            return this;
        }
        /** @param v HTTP port; default 8080, 0 = any free port, -1 = disabled */
        public Builder httpPort(int v) {
            this.httpPort = v;
            return this;
        }
        /**
         * @param v the address /health and /metrics listen on: an IP literal or a host name resolving to an address
         *     of this host; default {@code 0.0.0.0} (every interface)
         */
        public Builder httpBindAddress(String v) {
            this.httpBindAddress = v;
            return this;
        }
        /** @param v impressions topic; default {@code ad-impressions} */
        public Builder impressionsTopic(String v) {
            this.impressionsTopic = v;
            return this;
        }
        /** @param v clicks topic; default {@code ad-clicks} */
        public Builder clicksTopic(String v) {
            this.clicksTopic = v;
            return this;
        }
        /** @param v attributed clicks topic; default {@code attributed-clicks} */
        public Builder attributedClicksTopic(String v) {
            this.attributedClicksTopic = v;
            return this;
        }
        /** @param v requests topic; default {@code ad-requests} */
        public Builder requestsTopic(String v) {
            this.requestsTopic = v;
            return this;
        }
        /** @param v acks topic; default {@code ad-acks} */
        public Builder acksTopic(String v) {
            this.acksTopic = v;
            return this;
        }
        /** @param v log records topic; default {@code ad-log-records} */
        public Builder logRecordsTopic(String v) {
            this.logRecordsTopic = v;
            return this;
        }
        /** @param v dead-letter topic; default {@code adattribution-dlq} */
        public Builder dlqTopic(String v) {
            this.dlqTopic = v;
            return this;
        }
        /** @param v late-records topic; default none (null or blank = none) */
        public Builder lateRecordsTopic(String v) {
            this.lateRecordsTopic = v == null || v.isBlank() ? null : v;
            return this;
        }
        /** @param v jdbc:postgresql: url to also upsert attributed clicks into; default none (null or blank) */
        public Builder postgresUrl(String v) {
            this.postgresUrl = v == null || v.isBlank() ? null : v.trim();
            return this;
        }
        /**
         * @param user PostgreSQL user (from the environment), or null
         * @param password PostgreSQL password (from the environment), or null
         */
        public Builder postgresCredentials(String user, String password) {
            this.postgresUser = user;
            this.postgresPassword = password;
            return this;
        }
        /** @param v how Avro records are framed; default single-object */
        public Builder wireFormat(WireFormat v) {
            this.wireFormat = v;
            return this;
        }
        /** @param v Schema Registry base url, required with the confluent wire format; default none (null or blank) */
        public Builder schemaRegistryUrl(String v) {
            this.schemaRegistryUrl = v == null || v.isBlank() ? null : v.trim();
            return this;
        }
        /**
         * @param user Schema Registry basic-auth user (from the environment), or null
         * @param password Schema Registry basic-auth password (from the environment), or null
         */
        public Builder schemaRegistryCredentials(String user, String password) {
            this.schemaRegistryUser = user == null || user.isBlank() ? null : user;
            this.schemaRegistryPassword = password;
            return this;
        }
        /**
         * @param key a Kafka Streams / client property name
         * @param value its value; overrides what the service derives from the other options
         */
        public Builder kafkaOverride(String key, String value) {
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
            } else if (interval.compareTo(MAX_EXACTLY_ONCE_COMMIT_INTERVAL) > 0) {
                throw new IllegalArgumentException(option + " " + shown + " is too long for exactly_once_v2: a"
                        + " transaction stays open that long, and brokers end transactions after"
                        + " transaction.max.timeout.ms (15 minutes by default); choose at most "
                        + MAX_EXACTLY_ONCE_COMMIT_INTERVAL + ", or set kafka.producer.transaction.timeout.ms (and"
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
                throw new IllegalArgumentException(
                        "bootstrap-servers is required (HOST:PORT): '" + bootstrapServers + "'");
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
            if (rocksDbMemoryBytes != 0 && rocksDbMemoryBytes < MIN_ROCKSDB_MEMORY_BYTES) {
                throw new IllegalArgumentException("rocksdb-memory must be 0 (Kafka Streams' per-store defaults) or at"
                        + " least " + MIN_ROCKSDB_MEMORY_BYTES + " bytes: " + rocksDbMemoryBytes);
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
                throw new IllegalArgumentException(
                        "postgres-url must be a jdbc:postgresql: url: '" + postgresUrl + "'");
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
            for (String topic : config.topics.all()) {
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
                throw new IllegalArgumentException(
                        name + " must be a non-empty name of [a-zA-Z0-9._-]: '" + value + "'");
            }
        }
    }
}
