package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.tools.ChildJvm;
import dev.rtmstreams.tools.Directories;
import dev.rtmstreams.tools.Ports;
import dev.rtmstreams.tools.ServiceJar;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One ad-attribution service instance in a child JVM, started from the app's fat jar with its
 * {@code run} command line (as an operator would), on a fixed HTTP port and state directory, so it can
 * be killed with SIGKILL ({@code kill -9}) and started again with the same state directory. Each start is one
 * {@link ChildJvm}, ready when {@code GET /health} answers 200 with state RUNNING.
 */
public final class ServiceInstance implements AutoCloseable {

    private final String name;
    private final Path appJar;
    private final List<String> jvmOptions;
    private final String bootstrapServers;
    private final String applicationId;
    private final List<String> args;
    private final Path stateDir;
    private final Path logDir;
    private final int httpPort;
    private final Map<String, String> environment;
    private ChildJvm jvm;
    private int starts;

    /**
     * @param name label (also the log file prefix)
     * @param appJar the service's fat jar
     * @param bootstrapServers the cluster
     * @param applicationId Kafka Streams application id (shared by instances of one service)
     * @param stateDir the state directory of this instance
     * @param logDir where the child's output goes ({@code <name>-<n>.log})
     * @param jvmOptions JVM options
     * @param serviceArgs extra arguments of {@code run}
     * @param environment extra environment variables of the child (the {@code RTM_KAFKA_*} client settings, kept
     *     off its command line)
     * @throws IllegalArgumentException when the jar does not exist
     */
    public ServiceInstance(
            String name,
            Path appJar,
            String bootstrapServers,
            String applicationId,
            Path stateDir,
            Path logDir,
            List<String> jvmOptions,
            List<String> serviceArgs,
            Map<String, String> environment) {
        this.name = name;
        this.appJar = appJar;
        this.bootstrapServers = bootstrapServers;
        this.applicationId = applicationId;
        this.stateDir = stateDir;
        this.logDir = logDir;
        this.httpPort = Ports.freePort();
        ServiceJar.requireJar(appJar);
        this.jvmOptions = List.copyOf(jvmOptions);
        this.args = List.copyOf(serviceArgs);
        this.environment = Map.copyOf(environment);
    }

    /** @return the instance label */
    public String name() {
        return name;
    }

    /** @return the state directory */
    public Path stateDir() {
        return stateDir;
    }

    /** @return the HTTP port of /health and /metrics */
    public int httpPort() {
        return httpPort;
    }

    /** @return the log file of the current (or last) start */
    public synchronized Path logFile() {
        return logDir.resolve(name + "-" + starts + ".log");
    }

    /**
     * Launches the JVM (does not wait), with its output in a new log file.
     *
     * @throws IllegalStateException when already running
     * @throws java.io.UncheckedIOException when the JVM cannot be started
     */
    public synchronized void start() {
        if (isAlive()) {
            throw new IllegalStateException(name + " is already running: pid " + jvm.pid());
        }
        starts++;
        jvm = ServiceJar.run(appJar, bootstrapServers, applicationId, stateDir, httpPort)
                .name(name)
                .jvmOptions(jvmOptions)
                .args(args)
                .environment(environment)
                .logFile(logFile())
                .build()
                .start();
    }

    /** @return how many times the JVM was started (its counters restart with each start) */
    public synchronized int starts() {
        return starts;
    }

    /** @return whether the JVM is alive */
    public synchronized boolean isAlive() {
        return jvm != null && jvm.isAlive();
    }

    /** @return the pid of the running JVM, or -1 */
    public synchronized long pid() {
        return isAlive() ? jvm.pid() : -1;
    }

    /**
     * Waits until {@code /health} answers 200 with state RUNNING.
     *
     * @param timeout the longest wait
     * @return how long it took
     * @throws IllegalStateException when not started, when the JVM exits or the timeout passes (with the log's tail)
     * @throws InterruptedException when interrupted
     */
    public Duration awaitRunning(Duration timeout) throws InterruptedException {
        return current().awaitReady(timeout);
    }

    private synchronized ChildJvm current() {
        if (jvm == null) {
            throw new IllegalStateException(name + " was never started");
        }
        return jvm;
    }

    /** @return the body of /health, or null when it does not answer */
    public String health() {
        return get("/health");
    }

    /** @return the Prometheus text of /metrics, or null when it does not answer */
    public String metrics() {
        return get("/metrics");
    }

    /** @return the active tasks the instance reports on {@code /metrics}, 0 when it does not answer */
    public long activeTasks() {
        String m = metrics();
        if (m == null) {
            return 0;
        }
        return (long) Math.max(0, PrometheusSamples.sum(m, "adattribution_slot_active_tasks"));
    }

    /** @return the {@code adattribution_slot_*} sample lines of {@code /metrics}, empty when it does not answer */
    public List<String> slotLines() {
        return PrometheusSamples.lines(metrics(), "adattribution_slot_");
    }

    /** @return the log files of every start so far, in order (one per start) */
    public synchronized List<Path> logFiles() {
        List<Path> out = new ArrayList<>();
        for (int i = 1; i <= starts; i++) {
            out.add(logDir.resolve(name + "-" + i + ".log"));
        }
        return out;
    }

    /**
     * Stops the JVM gracefully: SIGTERM (the service's clean shutdown), SIGKILL after 30 s.
     *
     * @return how long the stop took
     * @throws IllegalStateException when it is not running
     * @throws InterruptedException when interrupted (the JVM is then killed)
     */
    public Duration stop() throws InterruptedException {
        ChildJvm j;
        synchronized (this) {
            if (!isAlive()) {
                throw new IllegalStateException(name + " is not running");
            }
            j = jvm;
        }
        long t0 = System.nanoTime();
        j.stop();
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /**
     * Deletes the state directory and everything in it (call only while the JVM is down).
     *
     * @throws IOException when a file cannot be deleted
     */
    public void deleteStateDir() throws IOException {
        Directories.delete(stateDir);
    }

    /**
     * Asks the live state endpoint whether this instance holds state of a key.
     *
     * @param operator the operator's name, e.g. {@code request-ack-correlation}
     * @param key the key as text
     * @return 200 when it holds state of the key, 404 when not, another status on errors, -1 when it does not answer
     */
    public int stateStatus(String operator, String key) {
        return fetch("/state/" + URLEncoder.encode(operator, StandardCharsets.UTF_8) + "/"
                        + URLEncoder.encode(key, StandardCharsets.UTF_8))
                .status();
    }

    private String get(String path) {
        return fetch(path).body();
    }

    /** An answer of the HTTP endpoint: status -1 and body null when it did not answer. */
    private record HttpAnswer(int status, String body) {}

    private HttpAnswer fetch(String path) {
        try {
            HttpURLConnection c = (HttpURLConnection)
                    URI.create("http://localhost:" + httpPort + path).toURL().openConnection();
            c.setConnectTimeout(2000);
            c.setReadTimeout(10000);
            int code = c.getResponseCode();
            var in = code >= 400 ? c.getErrorStream() : c.getInputStream();
            if (in == null) {
                return new HttpAnswer(code, null);
            }
            try (in) {
                return new HttpAnswer(code, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            return new HttpAnswer(-1, null);
        }
    }

    /**
     * Kills the JVM with SIGKILL ({@code kill -9}): no shutdown hook, no commit, no flush.
     *
     * @throws InterruptedException when interrupted
     */
    public synchronized void kill9() throws InterruptedException {
        if (!isAlive()) {
            throw new IllegalStateException(name + " is not running");
        }
        jvm.kill();
    }

    /**
     * Returns the resident set size of the JVM from {@code /proc}, in bytes.
     *
     * @return RSS bytes, or -1 when unknown
     */
    public long rssBytes() {
        long pid = pid();
        if (pid < 0) {
            return -1;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * Returns the used Java heap of the JVM ({@code jcmd <pid> GC.heap_info}), in bytes.
     *
     * @return used heap bytes, or -1 when unknown
     */
    public long heapUsedBytes() {
        long pid = pid();
        if (pid < 0) {
            return -1;
        }
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.heap_info")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(20, TimeUnit.SECONDS);
            var m = java.util.regex.Pattern.compile("total (\\d+)K, used (\\d+)K")
                    .matcher(out);
            if (m.find()) {
                return Long.parseLong(m.group(2)) * 1024;
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return -1;
    }

    /**
     * Returns the last lines of the current log.
     *
     * @param lines how many
     * @return the text
     */
    public String tail(int lines) {
        ChildJvm j;
        synchronized (this) {
            j = jvm;
        }
        return j == null ? "(" + name + " was never started)" : j.tail(lines);
    }

    /** Stops the JVM with SIGTERM (graceful), killing it after 30 s. */
    @Override
    public synchronized void close() {
        if (jvm != null) {
            jvm.close();
        }
    }
}
