package dev.rtmstreams.loadgen.internals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A system under test in a child JVM: the ad-attribution service (adattribution-app), a benchmark
 * peer, or an rtm-examples program. For the service, started from its fat jar with its
 * command line, as an operator would:
 * {@code java -Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.rtmstreams -jar adattribution-app.jar run
 * --bootstrap-servers B --trigger T --create-topics --application-id ID --state-dir DIR}.
 * Its output goes to a log file. Ready when its log shows a transition to RUNNING (or, for a child
 * that logs no state transitions, when its consumer group is stable with assigned members);
 * stopped with SIGTERM (then killed after a timeout).
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceProcess.class);

    private final Process process;
    private final Path logFile;
    private final String bootstrapServers;
    private final String applicationId;

    /**
     * Starts the service.
     *
     * @param appJar the service's fat jar
     * @param bootstrapServers the cluster
     * @param trigger real-time or micro-batch
     * @param applicationId a unique application id
     * @param stateDir the state directory
     * @param logFile where the child's stdout and stderr go
     * @param jvmOptions extra JVM options (e.g. -Xmx1g)
     * @param extraArgs extra arguments after {@code run} (e.g. --checkpoint-interval PT5M)
     * @throws IOException if the process cannot be started
     * @throws IllegalArgumentException if the jar does not exist
     */
    public ServiceProcess(
            Path appJar,
            String bootstrapServers,
            String trigger,
            String applicationId,
            Path stateDir,
            Path logFile,
            List<String> jvmOptions,
            List<String> extraArgs)
            throws IOException {
        this(
                jarCommand(
                        requireServiceJar(appJar),
                        jvmOptions,
                        concat(
                                List.of(
                                        "run",
                                        "--bootstrap-servers",
                                        bootstrapServers,
                                        "--trigger",
                                        trigger,
                                        "--create-topics",
                                        "--application-id",
                                        applicationId,
                                        "--state-dir",
                                        stateDir.toAbsolutePath().toString()),
                                extraArgs)),
                bootstrapServers,
                applicationId,
                logFile);
    }

    private static Path requireServiceJar(Path appJar) {
        if (!Files.isRegularFile(appJar)) {
            throw new IllegalArgumentException("service jar not found: " + appJar.toAbsolutePath()
                    + " (build it with: mvn -B -pl adattribution-app -am package -DskipTests, or pass --app-jar)");
        }
        return appJar;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /**
     * Starts any child JVM command whose readiness shows the same way (a log line containing
     * {@code to RUNNING}, {@code PEER READY} or {@code EXAMPLE READY}, or a stable consumer group
     * {@code applicationId}).
     *
     * @param command the full command line
     * @param bootstrapServers the cluster
     * @param applicationId the consumer group to watch
     * @param logFile where the child's stdout and stderr go
     * @throws IOException if the process cannot be started
     */
    public ServiceProcess(List<String> command, String bootstrapServers, String applicationId, Path logFile)
            throws IOException {
        this.bootstrapServers = bootstrapServers;
        this.applicationId = applicationId;
        this.logFile = logFile;
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        LOG.info("starting child JVM: {}", String.join(" ", command));
        this.process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(logFile.toFile()))
                .start();
    }

    /**
     * Returns the command that runs a fat jar in a child JVM with this JVM's {@code java}.
     *
     * @param jar the fat jar
     * @param jvmOptions JVM options
     * @param args arguments after {@code -jar JAR}
     * @return the command line
     */
    public static List<String> jarCommand(Path jar, List<String> jvmOptions, List<String> args) {
        return javaCommand(jvmOptions, List.of("-jar", jar.toAbsolutePath().toString()), args);
    }

    private static List<String> javaCommand(List<String> jvmOptions, List<String> main, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.rtmstreams");
        cmd.addAll(jvmOptions);
        cmd.addAll(main);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Returns the command that runs this JVM's load generator main class in a child JVM with the
     * same class path.
     *
     * @param jvmOptions JVM options
     * @param args arguments of the load generator
     * @return the command line
     */
    public static List<String> selfCommand(List<String> jvmOptions, List<String> args) {
        return javaCommand(
                jvmOptions,
                List.of("-cp", System.getProperty("java.class.path"), "dev.rtmstreams.loadgen.LoadGenerator"),
                args);
    }

    /**
     * Waits until the service processes input.
     *
     * @param timeout how long to wait
     * @return whether it became ready
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if the process exits while starting
     */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("service exited with " + process.exitValue()
                            + " while starting; log: " + logFile + "\n" + tail(40));
                }
                String log = readLog();
                boolean logsStates = log.contains("REBALANCING");
                if (logShowsRunning(log) || (!logsStates && groupStable(admin))) {
                    return true;
                }
                Thread.sleep(200);
            }
        }
        return false;
    }

    private String readLog() {
        try {
            return Files.readString(logFile, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static boolean logShowsRunning(String text) {
        return text.contains("to RUNNING")
                || text.contains("to=RUNNING")
                || text.contains("\"state\":\"RUNNING\"")
                || text.contains("PEER READY")
                || text.contains("EXAMPLE READY");
    }

    private boolean groupStable(Admin admin) {
        try {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(applicationId))
                    .describedGroups()
                    .get(applicationId)
                    .get(2, TimeUnit.SECONDS);
            return d.groupState() == GroupState.STABLE
                    && !d.members().isEmpty()
                    && d.members().stream()
                            .anyMatch(m -> !m.assignment().topicPartitions().isEmpty());
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Returns the last lines of the child's log.
     *
     * @param lines how many
     * @return the text
     */
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log: " + e + ")";
        }
    }

    /** @return the child's process id */
    public long pid() {
        return process.pid();
    }

    /** Sends SIGTERM, waits up to 30 s for a graceful exit, then kills the process. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                LOG.warn("service did not stop within 30 s of SIGTERM; killing it");
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
