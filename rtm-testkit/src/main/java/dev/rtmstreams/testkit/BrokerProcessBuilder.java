package dev.rtmstreams.testkit;

import dev.rtmstreams.testkit.internals.BrokerNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The options that a {@link KafkaBrokerProcess.Builder} and a {@link KafkaClusterProcess.Builder} share: the log
 * directory and whether it is deleted on close, broker properties, and each child JVM's options, classpath, log level
 * and timeouts. A cluster hands them to the builder of each of its nodes.
 *
 * <p>Not thread-safe. Only the two builders extend it.
 *
 * @param <B> the builder type, returned by every setter for chaining
 */
@InterfaceStability.Evolving
public abstract class BrokerProcessBuilder<B extends BrokerProcessBuilder<B>> {

    private static final List<String> LOG_LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

    private Path logDir;
    private Optional<Boolean> deleteLogDirOnClose = Optional.empty();
    private final Map<String, String> brokerProperties = new LinkedHashMap<>();
    private List<String> jvmOptions = List.of("-Xms128m", "-Xmx512m");
    private String classpath = System.getProperty("java.class.path");
    private Duration startTimeout = Duration.ofSeconds(120);
    private Duration stopTimeout = Duration.ofSeconds(30);
    private String logLevel = "WARN";

    BrokerProcessBuilder() {}

    /** @return this builder as its own type */
    abstract B self();

    /**
     * Sets the log directory: a broker's own, or the base directory of a cluster, whose node {@code i} keeps its data
     * in {@code <dir>/node-<i>}. Default: a new temporary directory. A directory given here is kept on close unless
     * {@link #deleteLogDirOnClose(boolean)} says otherwise. Reusing a directory that holds a formatted broker restarts
     * that broker with its data.
     *
     * @param logDir the directory; created if missing; not null
     * @return this builder
     */
    public B logDir(Path logDir) {
        this.logDir = Objects.requireNonNull(logDir, "logDir");
        return self();
    }

    /**
     * Sets whether {@code close()} deletes the log directory. Default: true for a temporary directory, false for one
     * given to {@link #logDir(Path)}.
     *
     * @param delete whether to delete
     * @return this builder
     */
    public B deleteLogDirOnClose(boolean delete) {
        this.deleteLogDirOnClose = Optional.of(delete);
        return self();
    }

    /**
     * Adds a broker property (of every node of a cluster), overriding the defaults: those of a single broker
     * (listeners, replication factors 1, {@code group.initial.rebalance.delay.ms=0}, {@code log.retention.ms=-1},
     * broker session timeout 3 s so a killed broker restarts without waiting for its old session) and those of a
     * cluster (see {@link KafkaClusterProcess}).
     *
     * @param name a broker config name; not null
     * @param value its value; not null
     * @return this builder
     */
    public B brokerProperty(String name, Object value) {
        brokerProperties.put(
                Objects.requireNonNull(name, "name"), String.valueOf(Objects.requireNonNull(value, "value")));
        return self();
    }

    /**
     * Replaces the child JVM's options (of every node of a cluster; default {@code -Xms128m -Xmx512m}).
     *
     * @param options JVM options such as {@code -Xmx1g}; not null
     * @return this builder
     */
    public B jvmOptions(List<String> options) {
        this.jvmOptions = List.copyOf(options);
        return self();
    }

    /**
     * Sets the child JVM's classpath. Default: this JVM's {@code java.class.path}.
     *
     * @param classpath a classpath holding the Kafka broker jars and rtm-testkit; not null
     * @return this builder
     */
    public B classpath(String classpath) {
        this.classpath = Objects.requireNonNull(classpath, "classpath");
        return self();
    }

    /**
     * Sets the broker's root log level ({@code TRACE}..{@code ERROR}, {@code OFF}). Default WARN.
     *
     * @param level a logback/log4j2 level name; not null
     * @return this builder
     */
    public B logLevel(String level) {
        this.logLevel = Objects.requireNonNull(level, "level");
        return self();
    }

    /**
     * Sets how long a broker's start waits for it to be ready. Default 120 s.
     *
     * @param timeout positive
     * @return this builder
     */
    public B startTimeout(Duration timeout) {
        this.startTimeout = Objects.requireNonNull(timeout, "timeout");
        return self();
    }

    /**
     * Sets how long a broker's graceful stop waits before killing it. Default 30 s.
     *
     * @param timeout positive
     * @return this builder
     */
    public B stopTimeout(Duration timeout) {
        this.stopTimeout = Objects.requireNonNull(timeout, "timeout");
        return self();
    }

    /** Gives a node of a cluster these options, with its own log directory inside the cluster's, kept on close. */
    final void copyTo(BrokerProcessBuilder<?> node, Path nodeLogDir) {
        node.logDir = nodeLogDir;
        node.deleteLogDirOnClose = Optional.of(false);
        node.brokerProperties.putAll(brokerProperties);
        node.jvmOptions = jvmOptions;
        node.classpath = classpath;
        node.logLevel = logLevel;
        node.startTimeout = startTimeout;
        node.stopTimeout = stopTimeout;
    }

    /**
     * Checks the timeouts, the log level and the classpath.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    final void checkOptions() {
        checkPositive("startTimeout", startTimeout);
        checkPositive("stopTimeout", stopTimeout);
        if (!LOG_LEVELS.contains(logLevel.toUpperCase())) {
            throw new IllegalArgumentException(
                    "logLevel must be one of TRACE, DEBUG, INFO, WARN, ERROR, OFF: " + logLevel);
        }
        if (classpath.isBlank()) {
            throw new IllegalArgumentException("classpath must not be blank");
        }
    }

    /**
     * Creates the log directory given to {@link #logDir(Path)}, or a temporary one.
     *
     * @param tempPrefix the name prefix of a temporary directory
     * @param what what the directory is, for the message
     * @return the directory
     * @throws IllegalStateException if it cannot be created
     */
    final Path createLogDir(String tempPrefix, String what) {
        try {
            return logDir != null ? Files.createDirectories(logDir) : Files.createTempDirectory(tempPrefix);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + what + " " + logDir + ": " + e, e);
        }
    }

    /** @return whether {@code close()} deletes the log directory */
    final boolean deletesLogDirOnClose() {
        return deleteLogDirOnClose.orElse(logDir == null);
    }

    /** @return the broker properties given, in order */
    final Map<String, String> brokerProperties() {
        return brokerProperties;
    }

    /** @return the broker's root log level */
    final String logLevel() {
        return logLevel;
    }

    /**
     * @param javaExecutable the {@code java} the child JVM is started with
     * @return the child JVM's options
     */
    final BrokerNode.Options nodeOptions(Path javaExecutable) {
        return new BrokerNode.Options(jvmOptions, classpath, javaExecutable, startTimeout, stopTimeout);
    }

    static void checkPositive(String name, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }
}
