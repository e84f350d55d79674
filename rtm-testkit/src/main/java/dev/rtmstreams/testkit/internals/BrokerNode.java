package dev.rtmstreams.testkit.internals;

import dev.rtmstreams.tools.ChildJvm;
import dev.rtmstreams.tools.Readiness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process of one child-process broker node: launching {@code BrokerMain} in a child JVM from the files its
 * {@link BrokerSetup} writes, waiting until the node is registered and unfenced, stopping it (SIGTERM), killing it
 * (SIGKILL), pausing and resuming it (SIGSTOP, SIGCONT), and a shutdown hook that kills it when this JVM exits. What
 * the node is configured with is {@link BrokerSetup}'s; the public face is {@code KafkaBrokerProcess}.
 *
 * <p>Thread-safety: the lifecycle methods are synchronized.
 */
public final class BrokerNode {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerNode.class);
    private static final String MAIN = "dev.rtmstreams.testkit.internals.BrokerMain";

    /** The process options of a node. */
    public record Options(
            List<String> jvmOptions,
            String classpath,
            Path javaExecutable,
            Duration startTimeout,
            Duration stopTimeout) {
        /** Copies the list. */
        public Options {
            jvmOptions = List.copyOf(jvmOptions);
        }
    }

    private final BrokerSetup setup;
    private final Options options;
    private final int nodeId;
    private final String ownAddress;

    /** The JVM of the last start; read without the lock by the shutdown hook. */
    private volatile ChildJvm jvm;

    private boolean paused;
    private Duration lastStartupTime;
    private Thread shutdownHook;

    /**
     * @param setup the node's configuration and files
     * @param options the process options
     * @param nodeId the node's {@code node.id}, which must be registered for the node to be ready
     * @param ownAddress {@code localhost:<port>} of the node's own client listener
     */
    public BrokerNode(BrokerSetup setup, Options options, int nodeId, String ownAddress) {
        this.setup = setup;
        this.options = options;
        this.nodeId = nodeId;
        this.ownAddress = ownAddress;
    }

    /**
     * Starts the JVM (the log directory is formatted first when it is not) and waits until the node answers a
     * describe-cluster request that lists it (registered with the controller and unfenced).
     *
     * @param clientConfig the super user's client configuration; its bootstrap servers are replaced by the node's own
     * @return how long the start took
     * @throws IllegalStateException if the node runs, or does not become ready within the start timeout (the message
     *     holds the tail of {@code broker.out})
     */
    public synchronized Duration start(Map<String, Object> clientConfig) {
        if (isRunning()) {
            throw new IllegalStateException("broker node " + nodeId + " is already running: pid " + jvm.pid());
        }
        long t0 = System.nanoTime();
        try {
            List<String> args = setup.writeFiles();
            try (Admin admin = Admin.create(readinessConfig(clientConfig))) {
                paused = false;
                jvm = launch(args, admin);
                installShutdownHook();
                jvm.awaitReady(options.startTimeout());
            }
        } catch (IOException | UncheckedIOException e) {
            killQuietly();
            throw new IllegalStateException("could not start the broker process in " + setup.logDir() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killQuietly();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        } catch (RuntimeException e) {
            killQuietly();
            throw e;
        }
        lastStartupTime = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info(
                "Kafka broker node {} pid {} ready at {} in {} ms (log dir {})",
                nodeId,
                jvm.pid(),
                ownAddress,
                lastStartupTime.toMillis(),
                setup.logDir());
        return lastStartupTime;
    }

    /**
     * Starts {@code BrokerMain}, its command in {@code <logDir>/jvm.args} (a long class path stays clear of the
     * per-argument length limit), its output appended to {@code broker.out}.
     */
    private ChildJvm launch(List<String> mainArgs, Admin admin) {
        return ChildJvm.builder()
                .name("Kafka broker node " + nodeId + " " + ownAddress)
                .javaExecutable(options.javaExecutable())
                .jvmOptions(options.jvmOptions())
                .jvmOptions(setup.logJvmOptions())
                .classpath(options.classpath())
                .mainClass(MAIN)
                .args(mainArgs)
                .argFile(setup.logDir().resolve("jvm.args"))
                .logFile(BrokerProcessFiles.output(setup.logDir()))
                .appendToLog(true)
                .stopTimeout(options.stopTimeout())
                .readiness(Readiness.check(
                        "broker node " + nodeId + " at " + ownAddress + " is listed by describe-cluster",
                        () -> isListed(admin)))
                .build()
                .start();
    }

    private Map<String, Object> readinessConfig(Map<String, Object> clientConfig) {
        Map<String, Object> config = new java.util.HashMap<>(clientConfig);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ownAddress);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2_000);
        config.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 50);
        config.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
        return config;
    }

    /** Whether the cluster lists this node among its live (unfenced) brokers. */
    private boolean isListed(Admin admin) {
        try {
            return admin
                    .describeCluster(new DescribeClusterOptions().timeoutMs(1_000))
                    .nodes()
                    .get(2, TimeUnit.SECONDS)
                    .stream()
                    .mapToInt(Node::id)
                    .anyMatch(id -> id == nodeId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // ChildJvm's next sleep ends the wait
            return false;
        } catch (Exception e) {
            return false; // not ready yet
        }
    }

    /**
     * Stops the node gracefully (SIGTERM: controlled shutdown) and waits until the JVM has exited; after the stop
     * timeout it is killed. A paused node is resumed first. Does nothing if the node is not running.
     *
     * @return how long the stop took
     */
    public synchronized Duration stop() {
        long t0 = System.nanoTime();
        if (isRunning()) {
            if (paused) {
                resume();
            }
            try {
                jvm.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Kills the node at once (SIGKILL) and waits until it is gone. Does nothing if it is not running. */
    public synchronized void kill() {
        if (isRunning()) {
            try {
                jvm.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        paused = false;
    }

    /**
     * Freezes the node (SIGSTOP): it neither answers nor heartbeats until {@link #resume()}.
     *
     * @throws IllegalStateException if the node is not running or already paused, or the signal cannot be sent
     */
    public synchronized void pause() {
        if (!isRunning()) {
            throw new IllegalStateException("broker node " + nodeId + " is not running: cannot pause it");
        }
        if (paused) {
            throw new IllegalStateException("broker node " + nodeId + " is already paused: pid " + jvm.pid());
        }
        signal("STOP");
        paused = true;
    }

    /**
     * Lets a paused node run on (SIGCONT).
     *
     * @throws IllegalStateException if the node is not paused, or the signal cannot be sent
     */
    public synchronized void resume() {
        if (!paused || !isRunning()) {
            throw new IllegalStateException("broker node " + nodeId + " is not paused: cannot resume it");
        }
        signal("CONT");
        paused = false;
    }

    /** @return whether the node was paused and not resumed since */
    public synchronized boolean isPaused() {
        return paused && isRunning();
    }

    private void signal(String name) {
        long pid = jvm.pid();
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(kill.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid + " failed: " + out.trim());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + name + " " + pid + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name + " to " + pid, e);
        }
        LOG.info("sent SIG{} to broker node {} (pid {})", name, nodeId, pid);
    }

    private void killQuietly() {
        try {
            kill();
        } catch (RuntimeException e) {
            LOG.warn("could not kill broker node {}: {}", nodeId, e.toString());
        }
    }

    /** @return whether the JVM is alive (it may be starting, stopping or paused) */
    public synchronized boolean isRunning() {
        return jvm != null && jvm.isAlive();
    }

    /** @return the pid of the running JVM, or empty when not running */
    public synchronized Optional<Long> pid() {
        return isRunning() ? Optional.of(jvm.pid()) : Optional.empty();
    }

    /** @return how long the last start took, or null before the first */
    public synchronized Duration lastStartupTime() {
        return lastStartupTime;
    }

    /** Stops the node (see {@link #stop()}) and removes the shutdown hook. */
    public synchronized void close() {
        stop();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // JVM already shutting down
            }
            shutdownHook = null;
        }
    }

    private void installShutdownHook() {
        if (shutdownHook == null) {
            shutdownHook = new Thread(this::killUnsynchronized, "kafka-broker-process-reaper");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    private void killUnsynchronized() {
        ChildJvm j = jvm;
        if (j != null && j.isAlive()) {
            ProcessHandle.of(j.pid()).ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
