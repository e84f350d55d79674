package dev.rtmstreams.testkit;

import dev.rtmstreams.testkit.internals.BrokerLogLevels;
import dev.rtmstreams.tools.Directories;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real KRaft Kafka cluster running inside the current JVM (no Docker), built from the Kafka
 * broker artifacts on Maven Central. One combined broker+controller node by default.
 *
 * <pre>{@code
 * try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().build().start()) {
 *   kafka.createTopic("input", 2);
 *   TestRecords.produceStrings(kafka, "input", List.of(Map.entry("k", "v")));
 *   List<ConsumerRecord<String, String>> records =
 *       TestRecords.consumeStrings(kafka, "input", 1, Duration.ofSeconds(10));
 * }
 * }</pre>
 *
 * <p>Lifecycle: built, then {@link #start()} once, then {@link #close()} (idempotent). A closed
 * cluster cannot be restarted; build a new one. To stop and restart a broker on the same port and
 * log directory (reliability tests), use the child-process mode: {@link #childProcess()}.
 *
 * <p>Logging: the broker logs through slf4j, so its lines appear in the application's log; its
 * loggers are set to WARN unless configured (see {@link Builder#brokerLogLevel(String)}).
 *
 * <p>Defaults suited to tests: replication factors of the internal topics are at most the broker
 * count, {@code group.initial.rebalance.delay.ms=0}, and no time-based retention
 * ({@code log.retention.ms=-1}, so records with old or synthetic timestamps are not deleted while a
 * test runs). Extra broker properties set in the builder override them.
 *
 * <p>Thread-safety: {@code start} and {@code close} are synchronized; the accessors may be called
 * from any thread.
 */
public final class EmbeddedKafkaCluster implements KafkaCluster {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);

    private final int brokers;
    private final Map<String, Object> brokerProperties;
    private final Optional<Path> logDir;
    private final boolean deleteLogDirOnClose;
    private final Optional<String> brokerLogLevel;

    private KafkaClusterTestKit cluster;
    private String bootstrapServers;
    private Duration startupTime;
    private Path baseDirectory;
    private boolean closed;

    private EmbeddedKafkaCluster(Builder builder) {
        this.brokers = builder.brokers;
        this.brokerProperties = Map.copyOf(builder.brokerProperties);
        this.logDir = Optional.ofNullable(builder.logDir);
        this.deleteLogDirOnClose = builder.deleteLogDirOnClose.orElse(builder.logDir == null);
        this.brokerLogLevel = builder.brokerLogLevel;
    }

    /**
     * Returns a builder for an in-process cluster.
     *
     * @return a new builder with defaults: 1 broker, a temporary log directory deleted on close
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder for a single broker running {@code kafka.Kafka} in a separate JVM, which can
     * be stopped, killed and restarted on the same port and log directory.
     *
     * @return a new {@link KafkaBrokerProcess.Builder}
     */
    public static KafkaBrokerProcess.Builder childProcess() {
        return KafkaBrokerProcess.builder();
    }

    /**
     * Formats the storage and starts the broker(s), returning when they accept requests.
     *
     * @return this cluster, for chaining
     * @throws IllegalStateException if already started or closed, or if the broker fails to start
     */
    public synchronized EmbeddedKafkaCluster start() {
        if (closed) {
            throw new IllegalStateException("cluster is closed; build a new one");
        }
        if (cluster != null) {
            throw new IllegalStateException("cluster is already started: " + bootstrapServers);
        }
        long startNanos = System.nanoTime();
        brokerLogLevel.ifPresent(BrokerLogLevels::apply);
        try {
            baseDirectory = logDir.isPresent()
                    ? Files.createDirectories(logDir.get())
                    : Files.createTempDirectory("rtm-kafka-");
            TestKitNodes nodes = new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(brokers)
                    .setNumControllerNodes(1)
                    .setBaseDirectory(baseDirectory)
                    .setBootstrapMetadataVersion(MetadataVersion.latestProduction())
                    .build();
            KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes)
                    // we delete the directory ourselves (the test kit's own deletion is all-or-nothing)
                    .setDeleteOnClose(false);
            defaultBrokerProperties().forEach(builder::setConfigProp);
            brokerProperties.forEach(builder::setConfigProp);
            KafkaClusterTestKit started = builder.build();
            cluster = started;
            formatQuietly(started);
            started.startup();
            started.waitForReadyBrokers();
            bootstrapServers = started.bootstrapServers();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            close();
            throw new IllegalStateException("embedded Kafka cluster failed to start: " + e, e);
        }
        startupTime = Duration.ofNanos(System.nanoTime() - startNanos);
        LOG.info(
                "Embedded Kafka ({} broker(s)) started in {} ms at {}, log dir {}",
                brokers,
                startupTime.toMillis(),
                bootstrapServers,
                baseDirectory);
        return this;
    }

    private Map<String, Object> defaultBrokerProperties() {
        String replication = Integer.toString(Math.min(3, brokers));
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("offsets.topic.replication.factor", replication);
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", replication);
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "5");
        props.put("share.coordinator.state.topic.replication.factor", replication);
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("default.replication.factor", replication);
        props.put("min.insync.replicas", "1");
        // tests use old or synthetic event timestamps (e.g. 10 000 ms): with time-based retention the broker's
        // first retention check (30 s after start) would delete such records from under a running test
        props.put("log.retention.ms", "-1");
        return props;
    }

    @Override
    public synchronized String bootstrapServers() {
        requireRunning();
        return bootstrapServers;
    }

    /**
     * Returns the number of brokers.
     *
     * @return the broker count given to the builder
     */
    public int brokerCount() {
        return brokers;
    }

    /**
     * Returns how long {@link #start()} took, from formatting to all brokers ready.
     *
     * @return the measured start duration
     * @throws IllegalStateException if the cluster has not been started
     */
    public synchronized Duration startupTime() {
        if (startupTime == null) {
            throw new IllegalStateException("cluster has not been started");
        }
        return startupTime;
    }

    /**
     * Returns the base directory holding the metadata and data logs of every node.
     *
     * @return the directory
     * @throws IllegalStateException if the cluster has not been started
     */
    public synchronized Path logDir() {
        if (baseDirectory == null) {
            throw new IllegalStateException("cluster has not been started");
        }
        return baseDirectory;
    }

    /**
     * Returns whether the cluster is started and not closed.
     *
     * @return true while running
     */
    public synchronized boolean isRunning() {
        return cluster != null && bootstrapServers != null && !closed;
    }

    /**
     * Shuts the brokers down and deletes the log directory if it was temporary (or if
     * {@link Builder#deleteLogDirOnClose(boolean)} asked so). Idempotent; never throws, failures are
     * logged.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        KafkaClusterTestKit toClose = cluster;
        cluster = null;
        if (toClose != null) {
            long t0 = System.nanoTime();
            try {
                toClose.close();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.warn("Embedded Kafka did not shut down cleanly", e);
            }
            LOG.info(
                    "Embedded Kafka stopped in {} ms",
                    Duration.ofNanos(System.nanoTime() - t0).toMillis());
        }
        if (deleteLogDirOnClose && baseDirectory != null) {
            Directories.deleteQuietly(baseDirectory);
        }
    }

    private void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException(closed ? "cluster is closed" : "cluster has not been started");
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaCluster[brokers=" + brokers + ", bootstrap=" + bootstrapServers + "]";
    }

    /**
     * Builds an {@link EmbeddedKafkaCluster}. Not thread-safe.
     */
    public static final class Builder {
        private int brokers = 1;
        private final Map<String, Object> brokerProperties = new LinkedHashMap<>();
        private Path logDir;
        private Optional<Boolean> deleteLogDirOnClose = Optional.empty();
        private Optional<String> brokerLogLevel = Optional.of("WARN");

        private Builder() {}

        /**
         * Sets the level of the broker's own loggers ({@code kafka}, {@code org.apache.kafka.server},
         * {@code .controller}, {@code .raft}, {@code .metadata}, {@code .storage}, ...; not the client
         * or Kafka Streams loggers). Default {@code WARN}: a broker start logs hundreds of INFO lines.
         * Applied only when logback is the slf4j binding, and only to loggers that the logback
         * configuration leaves unset. {@code null} leaves every level alone.
         *
         * @param level a logback level name such as {@code INFO}, or null
         * @return this builder
         */
        public Builder brokerLogLevel(String level) {
            this.brokerLogLevel = Optional.ofNullable(level);
            return this;
        }

        /**
         * Sets the number of brokers (each combined with a controller for the first node).
         *
         * @param brokers the broker count, 1 to 5; default 1
         * @return this builder
         */
        public Builder brokers(int brokers) {
            this.brokers = brokers;
            return this;
        }

        /**
         * Adds a broker configuration property, overriding the test-friendly defaults.
         *
         * @param name a broker config name, e.g. {@code log.retention.ms}; not null
         * @param value its value; not null
         * @return this builder
         */
        public Builder brokerProperty(String name, Object value) {
            brokerProperties.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Adds several broker configuration properties.
         *
         * @param properties broker config entries; not null
         * @return this builder
         */
        public Builder brokerProperties(Map<String, ?> properties) {
            properties.forEach(this::brokerProperty);
            return this;
        }

        /**
         * Sets the base directory for the nodes' metadata and data logs. Default: a new temporary
         * directory. A directory given here is kept on close unless
         * {@link #deleteLogDirOnClose(boolean)} says otherwise.
         *
         * @param logDir the directory; created if missing; not null
         * @return this builder
         */
        public Builder logDir(Path logDir) {
            this.logDir = Objects.requireNonNull(logDir, "logDir");
            return this;
        }

        /**
         * Sets whether {@link EmbeddedKafkaCluster#close()} deletes the log directory. Default: true
         * for a temporary directory, false for one given to {@link #logDir(Path)}.
         *
         * @param delete whether to delete
         * @return this builder
         */
        public Builder deleteLogDirOnClose(boolean delete) {
            this.deleteLogDirOnClose = Optional.of(delete);
            return this;
        }

        /**
         * Validates the options and builds a cluster that is not started yet.
         *
         * @return the cluster; call {@link EmbeddedKafkaCluster#start()}
         * @throws IllegalArgumentException if the broker count is outside 1..5
         */
        public EmbeddedKafkaCluster build() {
            if (brokers < 1 || brokers > 5) {
                throw new IllegalArgumentException("brokers must be between 1 and 5: " + brokers);
            }
            return new EmbeddedKafkaCluster(this);
        }
    }

    /**
     * Formats the storage. Kafka's formatter prints its bootstrap metadata to standard output; that text goes to this
     * class's debug log instead, so that a console program (the demo) keeps its console.
     */
    private static void formatQuietly(KafkaClusterTestKit cluster) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            cluster.format();
        } finally {
            System.setOut(stdout);
        }
        LOG.debug(
                "storage format: {}", captured.toString(StandardCharsets.UTF_8).strip());
    }
}
