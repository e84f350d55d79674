package dev.rtmstreams.testkit;

import dev.rtmstreams.testkit.internals.BrokerNode;
import dev.rtmstreams.testkit.internals.BrokerSetup;
import dev.rtmstreams.testkit.internals.NodeLayout;
import dev.rtmstreams.testkit.internals.SelfSignedTls;
import dev.rtmstreams.tools.Directories;
import dev.rtmstreams.tools.Ports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A single-node KRaft Kafka broker ({@code process.roles=broker,controller}) running
 * {@code kafka.Kafka} in a separate JVM, on a fixed port and log directory, so that reliability
 * tests can {@link #stop()} it gracefully, {@link #kill()} it ({@code kill -9}) and
 * {@link #start()} it again with its data intact.
 *
 * <pre>{@code
 * try (KafkaBrokerProcess broker = EmbeddedKafkaCluster.childProcess().build()) {
 *   broker.start();
 *   broker.createTopic("orders", 3);
 *   broker.kill();          // crash
 *   broker.start();         // same port, same data
 * }
 * }</pre>
 *
 * <p>The child JVM's classpath defaults to this JVM's {@code java.class.path}, which must hold the
 * Kafka broker jars ({@code kafka_2.13}, {@code kafka-server}; rtm-testkit depends on them). The
 * log directory is formatted ({@code kafka.tools.StorageTool format}, inside the child) on the first
 * start only.
 * The broker's own output goes to {@code <logDir>/broker.out} at level WARN by default. The child
 * halts by itself when this JVM exits, so no broker outlives a test run.
 *
 * <p>Security: by default one {@code PLAINTEXT} listener and no authorizer. With
 * {@link Builder#security(BrokerSecurity)} the client listener is {@code SASL_SSL} ({@code PLAIN}, a self-signed
 * certificate for {@code localhost} generated at build time) and ACLs are enforced; {@link #clientConfig()} and the
 * topic helpers then log in as the super user, and {@link #clientSecurityConfig(String)} gives a user's settings.
 *
 * <p>Several of them form a {@link KafkaClusterProcess}.
 *
 * <p>Thread-safety: all lifecycle methods may be called from any thread; they run one at a time.
 */
@InterfaceStability.Evolving
public final class KafkaBrokerProcess implements KafkaCluster {

    private final int port;
    private final String host;
    private final Path logDir;
    private final boolean deleteLogDirOnClose;
    private final BrokerSetup setup;
    private final BrokerNode node;

    private boolean closed;

    private KafkaBrokerProcess(
            Builder builder, Path logDir, int port, int controllerPort, Optional<SelfSignedTls> tls) {
        this.port = port;
        this.logDir = logDir;
        this.deleteLogDirOnClose = builder.deletesLogDirOnClose();
        NodeLayout layout = builder.layout != null ? builder.layout : NodeLayout.single(controllerPort);
        this.host = layout.host();
        this.setup = new BrokerSetup(
                logDir,
                layout,
                port,
                controllerPort,
                builder.brokerProperties(),
                builder.logLevel(),
                Optional.ofNullable(builder.security),
                tls);
        this.node =
                new BrokerNode(setup, builder.nodeOptions(builder.javaExecutable), layout.nodeId(), host + ":" + port);
    }

    /**
     * Returns a builder with defaults: free ports chosen at build time, a temporary log directory
     * deleted on close, {@code -Xmx512m}, start timeout 120 s, stop timeout 30 s, log level WARN.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts the broker JVM (formatting the log directory first if it is not formatted) and waits
     * until the broker answers a describe-cluster request that lists it (registered and unfenced). A node of a
     * {@link KafkaClusterProcess} needs a majority of the controller quorum running to become ready.
     *
     * @return this broker, for chaining
     * @throws IllegalStateException if the broker is running or closed, or does not become ready
     *     within the start timeout (the message holds the tail of {@code broker.out})
     */
    public KafkaBrokerProcess start() {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("broker process is closed; build a new one");
            }
        }
        node.start(clientConfig());
        return this;
    }

    /**
     * Stops the broker gracefully (SIGTERM: controlled shutdown, logs flushed) and waits until the
     * JVM has exited; after the stop timeout it is killed. A paused broker is resumed first. Does nothing if the
     * broker is not running.
     *
     * @return how long the stop took
     */
    public Duration stop() {
        return node.stop();
    }

    /**
     * Kills the broker JVM at once ({@code kill -9}, no controlled shutdown) and waits until it is
     * gone. Does nothing if the broker is not running.
     */
    public void kill() {
        node.kill();
    }

    /**
     * Freezes the broker JVM ({@code SIGSTOP}): it neither answers requests nor heartbeats to the controller until
     * {@link #resume()}, as a long GC pause or a stalled host would. {@link #stop()}, {@link #kill()} and
     * {@link #close()} work on a paused broker.
     *
     * @throws IllegalStateException if the broker is not running or already paused
     */
    public void pause() {
        node.pause();
    }

    /**
     * Lets a {@link #pause() paused} broker run on ({@code SIGCONT}).
     *
     * @throws IllegalStateException if the broker is not paused
     */
    public void resume() {
        node.resume();
    }

    /**
     * Returns whether the broker is paused.
     *
     * @return true between {@link #pause()} and {@link #resume()} while the JVM is alive
     */
    public boolean isPaused() {
        return node.isPaused();
    }

    /**
     * Returns whether the broker JVM is alive (it may still be starting, stopping or paused).
     *
     * @return true if the child process is alive
     */
    public boolean isRunning() {
        return node.isRunning();
    }

    /**
     * Returns the broker's {@code node.id}: 1 for a single broker, 1..N in a {@link KafkaClusterProcess}.
     *
     * @return the node id
     */
    public int nodeId() {
        return setup.layout().nodeId();
    }

    /**
     * Returns {@code localhost:<port>} (a node of a {@link KafkaClusterProcess} in its own network namespace: its
     * address). Known from build time on and unchanged across restarts, so clients can be created while the broker is
     * down.
     *
     * @return the bootstrap servers; never null
     */
    @Override
    public String bootstrapServers() {
        return host + ":" + port;
    }

    /**
     * Returns the client configuration of the super user: {@code bootstrap.servers} plus, with
     * {@link Builder#security(BrokerSecurity)}, the admin's {@link #clientSecurityConfig(String)}.
     *
     * @return a fresh map the caller owns; never null
     */
    @Override
    public Map<String, Object> clientConfig() {
        Map<String, Object> config = KafkaCluster.super.clientConfig();
        setup.security().ifPresent(s -> config.putAll(clientSecurityConfig(s.adminUser())));
        return config;
    }

    /**
     * Returns {@code bootstrap.servers} plus the security settings of a user, for clients acting as that user.
     *
     * @param user a user of the broker's {@link BrokerSecurity}; not null
     * @return a fresh map the caller owns; never null
     * @throws IllegalStateException if the broker has no security configured
     * @throws IllegalArgumentException if the broker does not know the user
     */
    public Map<String, Object> clientConfig(String user) {
        Map<String, Object> config = KafkaCluster.super.clientConfig();
        config.putAll(clientSecurityConfig(user));
        return config;
    }

    /**
     * Returns the client security settings of a user with the password the broker knows: {@code security.protocol},
     * {@code sasl.mechanism}, {@code sasl.jaas.config} (holds the password) and {@code ssl.truststore.*}.
     *
     * @param user a user of the broker's {@link BrokerSecurity}; not null
     * @return a fresh map the caller owns; never null
     * @throws IllegalStateException if the broker has no security configured
     * @throws IllegalArgumentException if the broker does not know the user
     */
    public Map<String, String> clientSecurityConfig(String user) {
        return clientSecurityConfig(user, setup.requireSecurity(this).password(user));
    }

    /**
     * Returns the client security settings logging in as {@code user} with any password, e.g. a wrong one.
     *
     * @param user a user name; not null
     * @param password the password to send; not null
     * @return a fresh map the caller owns; never null
     * @throws IllegalStateException if the broker has no security configured
     */
    public Map<String, String> clientSecurityConfig(String user, String password) {
        return clientSecurityConfig(user, password, BrokerSecurity.MECHANISM);
    }

    /**
     * Returns the client security settings logging in as {@code user} with any password over a given mechanism.
     *
     * @param user a user name; not null
     * @param password the password to send; not null
     * @param mechanism {@link BrokerSecurity#MECHANISM} or {@link BrokerSecurity#SCRAM_MECHANISM} (every user of the
     *     broker's {@link BrokerSecurity} has credentials for both)
     * @return a fresh map the caller owns; never null
     * @throws IllegalStateException if the broker has no security configured
     * @throws IllegalArgumentException naming an unknown mechanism
     */
    public Map<String, String> clientSecurityConfig(String user, String password, String mechanism) {
        return setup.clientSecurityConfig(user, password, mechanism, this);
    }

    /**
     * Returns the security configuration given to the builder.
     *
     * @return the security, empty for a {@code PLAINTEXT} broker without authorizer
     */
    public Optional<BrokerSecurity> security() {
        return setup.security();
    }

    /**
     * Returns the client listener port, fixed for the life of this object.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * Returns the log directory (metadata, data, {@code server.properties}, {@code broker.out}).
     *
     * @return the directory
     */
    public Path logDir() {
        return logDir;
    }

    /**
     * Returns the process id of the running broker JVM.
     *
     * @return the pid, or empty when not running
     */
    public Optional<Long> pid() {
        return node.pid();
    }

    /**
     * Returns how long the last {@link #start()} took, from launching (and formatting, on the first
     * start) to the broker answering requests.
     *
     * @return the last start duration
     * @throws IllegalStateException if the broker has never been started
     */
    public Duration lastStartupTime() {
        Duration d = node.lastStartupTime();
        if (d == null) {
            throw new IllegalStateException("broker has never been started");
        }
        return d;
    }

    /**
     * Stops the broker (gracefully, killing it after the stop timeout), and deletes the log
     * directory if it was temporary or {@link BrokerProcessBuilder#deleteLogDirOnClose(boolean)} asked so.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        node.close();
        if (deleteLogDirOnClose) {
            Directories.deleteQuietly(logDir);
        }
    }

    @Override
    public String toString() {
        return "KafkaBrokerProcess[" + bootstrapServers() + ", logDir=" + logDir + "]";
    }

    /**
     * Builds a {@link KafkaBrokerProcess}; the options it shares with a cluster's builder are
     * {@link BrokerProcessBuilder}'s. Not thread-safe.
     */
    @InterfaceStability.Evolving
    public static final class Builder extends BrokerProcessBuilder<Builder> {
        private int port;
        private int controllerPort;
        private Path javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java");
        private BrokerSecurity security;
        private NodeLayout layout;

        private Builder() {}

        @Override
        Builder self() {
            return this;
        }

        /** Makes the broker a node of a {@link KafkaClusterProcess}: its id, its address, the quorum, the cluster id. */
        Builder layout(NodeLayout layout) {
            this.layout = Objects.requireNonNull(layout, "layout");
            return this;
        }

        /**
         * Secures the broker: a {@code SASL_SSL} listener with the users of {@code security} and ACLs enforced by
         * {@code StandardAuthorizer}. The key and trust stores are generated into {@code <logDir>/tls} by
         * {@link #build()}. Default: none ({@code PLAINTEXT}, no authorizer).
         *
         * @param security the users; not null
         * @return this builder
         */
        public Builder security(BrokerSecurity security) {
            this.security = Objects.requireNonNull(security, "security");
            return this;
        }

        /**
         * Sets the client listener port. Default 0: a free port is chosen when {@link #build()} runs
         * and kept across restarts.
         *
         * @param port 0 or 1..65535
         * @return this builder
         */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /**
         * Sets the controller listener port. Default 0: chosen at build time like {@link #port(int)}.
         *
         * @param controllerPort 0 or 1..65535
         * @return this builder
         */
        public Builder controllerPort(int controllerPort) {
            this.controllerPort = controllerPort;
            return this;
        }

        /**
         * Sets the {@code java} executable. Default: the one of the running JVM.
         *
         * @param javaExecutable path to {@code java}; not null
         * @return this builder
         */
        public Builder javaExecutable(Path javaExecutable) {
            this.javaExecutable = Objects.requireNonNull(javaExecutable, "javaExecutable");
            return this;
        }

        /**
         * Validates the options, chooses free ports where 0 was given, creates the log directory and
         * builds a broker that is not started yet.
         *
         * @return the broker; call {@link KafkaBrokerProcess#start()}
         * @throws IllegalArgumentException if a port, timeout or level is invalid, or the classpath
         *     does not hold {@code kafka.Kafka}
         * @throws IllegalStateException if the log directory or the TLS stores cannot be created
         */
        public KafkaBrokerProcess build() {
            checkPort("port", port);
            checkPort("controllerPort", controllerPort);
            if (port != 0 && port == controllerPort) {
                throw new IllegalArgumentException("port and controllerPort must differ: " + port);
            }
            checkOptions();
            int[] ports = Ports.freePorts(2);
            int p = port != 0 ? port : (ports[0] == controllerPort ? ports[1] : ports[0]);
            int cp = controllerPort != 0 ? controllerPort : (ports[1] == p ? ports[0] : ports[1]);
            Path dir = createLogDir("rtm-kafka-proc-", "log directory");
            Optional<SelfSignedTls> tls = security == null
                    ? Optional.empty()
                    : Optional.of(SelfSignedTls.generate(dir.resolve("tls"), security.certificateValidity()));
            return new KafkaBrokerProcess(this, dir, p, cp, tls);
        }

        private static void checkPort(String name, int value) {
            if (value < 0 || value > 65535) {
                throw new IllegalArgumentException(name + " must be 0 (any free port) or 1..65535: " + value);
            }
        }
    }
}
