package dev.rtmstreams.adattribution.cli;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.AppConfigBuilder;
import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.cli.Durations;
import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.SlotCheckMode;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.BiConsumer;

/**
 * Every option of the {@code run} command. Each can be given on the command line
 * ({@code --name}), as an environment variable ({@link #envVar()}, e.g. {@code RTM_BOOTSTRAP_SERVERS}),
 * or as a key of the {@code --config} properties file ({@link #fileKey()}, e.g. {@code bootstrap-servers});
 * precedence is command line &gt; environment &gt; file &gt; default.
 */
public enum ServiceOption {
    BOOTSTRAP_SERVERS(
            "bootstrap-servers",
            "HOST:PORT",
            "Kafka bootstrap servers (required).",
            null,
            (b, v) -> b.bootstrapServers(v)),
    APPLICATION_ID(
            "application-id",
            "ID",
            "Kafka Streams application.id (consumer group, state and internal topic prefix).",
            "adattribution",
            (b, v) -> b.applicationId(v)),
    TRIGGER(
            "trigger",
            "MODE",
            "real-time or micro-batch.",
            "real-time",
            (b, v) -> b.trigger(ExecutionMode.fromConfig(v))),
    CHECKPOINT_INTERVAL(
            "checkpoint-interval",
            "DURATION",
            "Real-time mode: how often state and offsets are checkpointed (committed), not how often records are processed;"
                    + " under exactly_once_v2 how often epochs close (transactions follow --transaction-interval).",
            "PT5M",
            (b, v) -> b.checkpointInterval(Durations.parse(v))),
    TRANSACTION_INTERVAL(
            "transaction-interval",
            "DURATION",
            "Real-time mode under exactly_once_v2: how often transactions commit, so how long read_committed readers"
                    + " wait for output at most beyond the commit itself (at most --checkpoint-interval; PT0S: at every"
                    + " pass of the stream thread's loop).",
            "PT0.01S",
            (b, v) -> b.transactionInterval(Durations.parse(v))),
    MICRO_BATCH_INTERVAL(
            "micro-batch-interval",
            "DURATION",
            "Micro-batch mode: the batch interval "
                    + "(PT0S: as fast as possible, a batch at every pass of the stream thread's loop).",
            "PT1S",
            (b, v) -> b.microBatchInterval(Durations.parse(v))),
    STATE_DIR(
            "state-dir",
            "DIR",
            "Kafka Streams state directory (RocksDB).",
            "$TMPDIR/adattribution-state",
            (b, v) -> b.stateDir(Path.of(v))),
    CREATE_TOPICS(
            "create-topics",
            null,
            "Create missing topics at start.",
            "false",
            (b, v) -> b.createTopics(parseBoolean(v))),
    TOPIC_PARTITIONS(
            "topic-partitions",
            "N",
            "Partitions of topics created by --create-topics.",
            "1",
            (b, v) -> b.topicPartitions(parseInt(v))),
    REPLICATION_FACTOR(
            "replication-factor",
            "N",
            "Replication factor of topics created by --create-topics.",
            "1",
            (b, v) -> b.replicationFactor((short) parseInt(v))),
    NUM_STREAM_THREADS(
            "num-stream-threads",
            "N",
            "Stream threads (slots) of this instance.",
            "2",
            (b, v) -> b.numStreamThreads(parseInt(v))),
    ROCKSDB_MEMORY(
            "rocksdb-memory",
            "BYTES",
            "Off-heap memory shared by all RocksDB stores of the instance (block cache and memtables; memtables may"
                    + " use half). 0: Kafka Streams' per-store defaults, unbounded in total.",
            Long.toString(AppConfig.DEFAULT_ROCKSDB_MEMORY_BYTES),
            (b, v) -> b.rocksDbMemoryBytes(parseLong(v))),
    SLOT_CHECK(
            "slot-check",
            "MODE",
            "fail, warn or off: what to do when slots < tasks.",
            "warn",
            (b, v) -> b.slotCheck(SlotCheckMode.parse(v))),
    PROCESSING_GUARANTEE(
            "processing-guarantee",
            "GUARANTEE",
            "at_least_once or exactly_once_v2.",
            "at_least_once",
            (b, v) -> b.processingGuarantee(v.trim())),
    ATTRIBUTION_WINDOW(
            "attribution-window",
            "DURATION",
            "Click attribution: a click matches an impression when impression_time <= click_time <= impression_time + window.",
            "PT2M",
            (b, v) -> b.attributionWindow(Durations.parse(v))),
    WATERMARK_DELAY(
            "watermark-delay",
            "DURATION",
            "Click attribution: watermark delay of both inputs.",
            "PT5M",
            (b, v) -> b.watermarkDelay(Durations.parse(v))),
    EVICTION_INDEX(
            "eviction-index",
            "WHERE",
            "Click attribution: where the join keeps its time index of buffered rows: state-store (a local RocksDB store"
                    + " per side), heap (no store write per row, about 60 bytes of heap per buffered row) or segments"
                    + " (no index: rows keyed by time segment, a segment deleted whole once the watermark passes it).",
            "segments",
            (b, v) -> b.evictionIndex(parseEvictionIndex(v))),
    CORRELATION_WINDOW(
            "correlation-window",
            "DURATION",
            "Request/ack correlation: state of a transaction is cleared this long after it is first seen.",
            "PT5M",
            (b, v) -> b.correlationWindow(Durations.parse(v))),
    HTTP_PORT(
            "http-port",
            "PORT",
            "Port of /health and /metrics; 0 = any free port, -1 = off.",
            "8080",
            (b, v) -> b.httpPort(parseInt(v))),
    HTTP_BIND_ADDRESS(
            "http-bind-address",
            "ADDRESS",
            "Address /health and /metrics listen on: an IP address of this host or a name resolving to one"
                    + " (127.0.0.1: this host only).",
            "0.0.0.0 (every interface)",
            (b, v) -> b.httpBindAddress(v)),
    IMPRESSIONS_TOPIC(
            "impressions-topic",
            "TOPIC",
            "Input impressions.",
            AdAttributionTopics.IMPRESSIONS,
            (b, v) -> b.impressionsTopic(v)),
    CLICKS_TOPIC("clicks-topic", "TOPIC", "Input clicks.", AdAttributionTopics.CLICKS, (b, v) -> b.clicksTopic(v)),
    ATTRIBUTED_CLICKS_TOPIC(
            "attributed-clicks-topic",
            "TOPIC",
            "Output of click attribution.",
            AdAttributionTopics.ATTRIBUTED_CLICKS,
            (b, v) -> b.attributedClicksTopic(v)),
    REQUESTS_TOPIC(
            "requests-topic",
            "TOPIC",
            "Input ad requests.",
            AdAttributionTopics.REQUESTS,
            (b, v) -> b.requestsTopic(v)),
    ACKS_TOPIC("acks-topic", "TOPIC", "Input ad acks.", AdAttributionTopics.ACKS, (b, v) -> b.acksTopic(v)),
    LOG_RECORDS_TOPIC(
            "log-records-topic",
            "TOPIC",
            "Output of request/ack correlation.",
            AdAttributionTopics.LOG_RECORDS,
            (b, v) -> b.logRecordsTopic(v)),
    DLQ_TOPIC(
            "dlq-topic",
            "TOPIC",
            "Dead-letter topic for undecodable input.",
            AdAttributionTopics.DLQ,
            (b, v) -> b.dlqTopic(v)),
    LATE_RECORDS_TOPIC(
            "late-records-topic",
            "TOPIC",
            "Optional topic for join inputs behind the watermark.",
            "(none)",
            (b, v) -> b.lateRecordsTopic(v)),
    POSTGRES_URL(
            "postgres-url",
            "JDBC_URL",
            "Optional: also upsert every attributed click into the PostgreSQL table attributed_clicks, keyed by"
                    + " click_id (idempotent: a replay leaves one row per click); user and password from the"
                    + " environment variables " + ConfigResolver.POSTGRES_USER_ENV + " and "
                    + ConfigResolver.POSTGRES_PASSWORD_ENV + " only.",
            "(none)",
            (b, v) -> b.postgresUrl(v)),
    WIRE_FORMAT(
            "wire-format",
            "FORMAT",
            "How Avro records are framed on every topic the service reads and writes: single-object (Avro's"
                    + " single-object encoding, no registry) or confluent (magic byte 0, 4-byte schema id, binary"
                    + " body; schemas in the Schema Registry of --schema-registry-url).",
            "single-object",
            (b, v) -> b.wireFormat(WireFormat.parse(v))),
    SCHEMA_REGISTRY_URL(
            "schema-registry-url",
            "URL",
            "Schema Registry (Confluent REST API) of --wire-format confluent, e.g. http://registry:8081; required"
                    + " with it. Basic-auth user and password from the environment variables "
                    + ConfigResolver.SCHEMA_REGISTRY_USER_ENV + " and " + ConfigResolver.SCHEMA_REGISTRY_PASSWORD_ENV
                    + " only.",
            "(none)",
            (b, v) -> b.schemaRegistryUrl(v));

    private final String name;
    private final String paramLabel;
    private final String description;
    private final String defaultText;
    private final BiConsumer<AppConfigBuilder, String> apply;

    ServiceOption(
            String name,
            String paramLabel,
            String description,
            String defaultText,
            BiConsumer<AppConfigBuilder, String> apply) {
        this.name = name;
        this.paramLabel = paramLabel;
        this.description = description;
        this.defaultText = defaultText;
        this.apply = apply;
    }

    /** @return the option name without dashes, e.g. {@code bootstrap-servers} */
    public String optionName() {
        return name;
    }

    /** @return the command-line form, e.g. {@code --bootstrap-servers} */
    public String cliName() {
        return "--" + name;
    }

    /** @return the environment variable, e.g. {@code RTM_BOOTSTRAP_SERVERS} */
    public String envVar() {
        return envVarOf(name);
    }

    /** @return the config file key, e.g. {@code bootstrap-servers} */
    public String fileKey() {
        return name;
    }

    /** @return the parameter label for help, or null for a flag */
    public String paramLabel() {
        return paramLabel;
    }

    /** @return whether this is a boolean flag on the command line */
    public boolean isFlag() {
        return paramLabel == null;
    }

    /** @return the help text including env var and default */
    public String helpText() {
        return description + " Env " + envVar() + ", file key " + fileKey() + "."
                + (defaultText == null ? "" : " Default: " + defaultText + ".");
    }

    /**
     * Applies a raw value to the builder.
     *
     * @throws IllegalArgumentException when the value does not parse
     */
    void apply(AppConfigBuilder builder, String value) {
        apply.accept(builder, value);
    }

    /** @return the option with that name (no dashes), or null */
    static ServiceOption byName(String name) {
        for (ServiceOption o : values()) {
            if (o.name.equals(name)) {
                return o;
            }
        }
        return null;
    }

    static String envVarOf(String optionName) {
        return "RTM_" + optionName.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    static long parseLong(String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number: '" + v + "'", e);
        }
    }

    static int parseInt(String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected an integer: '" + v + "'");
        }
    }

    static EvictionIndex parseEvictionIndex(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "heap" -> EvictionIndex.HEAP;
            case "state-store" -> EvictionIndex.STATE_STORE;
            case "segments" -> EvictionIndex.SEGMENTS;
            default -> throw new IllegalArgumentException("expected heap, state-store or segments: '" + v + "'");
        };
    }

    static boolean parseBoolean(String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true") || t.equals("yes") || t.equals("1")) {
            return true;
        }
        if (t.equals("false") || t.equals("no") || t.equals("0")) {
            return false;
        }
        throw new IllegalArgumentException("expected true or false: '" + v + "'");
    }
}
