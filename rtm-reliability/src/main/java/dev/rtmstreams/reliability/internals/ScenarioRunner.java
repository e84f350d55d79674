package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.rtmstreams.adattribution.model.KafkaAccessCheck;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.loadgen.LoadGenerator;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one chaos scenario: a broker (its own child-JVM broker unless a cluster is given), the
 * service as child JVM(s) started from its fat jar, a load run of the load generator (its
 * {@code run} command, whose oracle checks every output), the fault at a fixed point of the load,
 * scenario probes, and the verdict. Every run uses its own topic prefix, application id and id
 * prefix, so runs on one cluster do not see each other.
 */
public final class ScenarioRunner {

    private static final Logger LOG = LoggerFactory.getLogger(ScenarioRunner.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String PROBE_PREFIX = "probe-";
    private static final Duration WATERMARK_DELAY = Duration.ofMinutes(5);
    private static final Duration ATTRIBUTION_WINDOW = Duration.ofMinutes(2);

    /**
     * How to run.
     *
     * @param scenario the scenario
     * @param duration length of the load
     * @param rate events per second of the load
     * @param reportDir where reports go
     * @param bootstrapServers an existing cluster, or empty for a fresh child-JVM broker
     * @param exactlyOnce run the service with exactly_once_v2 (and require zero duplicates)
     * @param appJar the service's fat jar
     * @param partitions partitions per topic
     * @param checkpointInterval the service's checkpoint (commit) interval
     * @param correlationWindow the service's request/ack correlation window (timer delay)
     * @param seed workload seed
     * @param drain longest wait for outputs after the last send
     * @param appJvmOptions JVM options of the service
     * @param sampleInterval soak: time between metric samples
     * @param faultAt when the fault is injected, as a fraction of the load duration
     * @param downtime how long the service (or broker) stays down before it is started again
     * @param poisonFraction poison: undecodable records per good record
     * @param readyTimeout longest wait for a service instance to be RUNNING
     * @param kafkaConfig {@code --kafka-config}: the client properties file handed to the load, if any
     * @param kafkaClient the client settings of {@code --kafka-config} and {@code RTM_KAFKA_*}, for the runner's own
     *     clients and the service (through its environment)
     * @param out where the verdict is printed
     */
    public record Settings(
            Scenario scenario,
            Duration duration,
            double rate,
            Path reportDir,
            Optional<String> bootstrapServers,
            boolean exactlyOnce,
            Path appJar,
            int partitions,
            Duration checkpointInterval,
            Duration correlationWindow,
            long seed,
            Duration drain,
            List<String> appJvmOptions,
            Duration sampleInterval,
            double faultAt,
            Duration downtime,
            double poisonFraction,
            Duration readyTimeout,
            Optional<Path> kafkaConfig,
            KafkaClientSettings kafkaClient,
            PrintStream out) {
        /** Validates, naming the bad option. */
        public Settings {
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("--duration must be positive: " + duration);
            }
            if (!(rate > 0)) {
                throw new IllegalArgumentException("--rate must be positive: " + rate);
            }
            if (partitions < 1) {
                throw new IllegalArgumentException("--partitions must be at least 1: " + partitions);
            }
            if (!(faultAt > 0 && faultAt < 1)) {
                throw new IllegalArgumentException("--fault-at must be in (0, 1): " + faultAt);
            }
            if (!(poisonFraction > 0 && poisonFraction < 1)) {
                throw new IllegalArgumentException("--poison-fraction must be in (0, 1): " + poisonFraction);
            }
            if (scenario == Scenario.BROKER_RESTART && bootstrapServers.isPresent()) {
                throw new IllegalArgumentException("--bootstrap-servers cannot be used with --scenario broker-restart: "
                        + "the scenario stops and starts its own broker process");
            }
            if (bootstrapServers.isEmpty() && !kafkaClient.isEmpty()) {
                throw new IllegalArgumentException("--kafka-config and RTM_KAFKA_* client settings need"
                        + " --bootstrap-servers: the runner's own broker is plaintext; settings given: "
                        + kafkaClient.redacted().keySet());
            }
            if (scenario == Scenario.INSTANCE_FAILOVER && partitions < 2) {
                throw new IllegalArgumentException(
                        "--partitions must be at least 2 for instance-failover: " + partitions);
            }
            appJvmOptions = List.copyOf(appJvmOptions);
        }
    }

    private final Settings s;
    private final Map<String, Object> report = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private final List<ServiceInstance> instances = new ArrayList<>();
    private final String runId;
    private final String topicPrefix;
    private final Topics topics;
    private long loadStartNanos;

    /**
     * @param settings how to run
     */
    public ScenarioRunner(Settings settings) {
        this.s = settings;
        String stamp = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        this.runId = settings.scenario().cliName() + "-" + stamp;
        this.topicPrefix = "chaos-" + stamp + ".";
        Topics d = Topics.DEFAULTS;
        this.topics = new Topics(
                topicPrefix + d.impressions(),
                topicPrefix + d.clicks(),
                topicPrefix + d.requests(),
                topicPrefix + d.acks(),
                topicPrefix + d.attributedClicks(),
                topicPrefix + d.logRecords(),
                topicPrefix + d.dlq());
    }

    /**
     * Runs the scenario, prints the verdict and writes {@code chaos-<scenario>.json}.
     *
     * @return the report (its {@code verdict} is PASS or FAIL)
     * @throws Exception when the run cannot be carried out (not a verdict)
     */
    public Map<String, Object> run() throws Exception {
        Files.createDirectories(s.reportDir());
        report.put("scenario", s.scenario().cliName());
        report.put("run_id", runId);
        report.put("exactly_once", s.exactlyOnce());
        report.put("target_rate", s.rate());
        report.put("duration_s", s.duration().toMillis() / 1000.0);
        report.put("partitions", s.partitions());
        report.put("checkpoint_interval", s.checkpointInterval().toString());
        report.put("correlation_window", s.correlationWindow().toString());
        report.put("topic_prefix", topicPrefix);
        report.put("started_at", java.time.Instant.now().toString());
        report.put(
                "machine",
                Map.of("cores", Runtime.getRuntime().availableProcessors(), "load_average_at_start", loadAverage()));
        KafkaBrokerProcess broker = null;
        Thread hook = new Thread(this::killAll, "chaos-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            String bootstrap;
            if (s.bootstrapServers().isPresent()) {
                // a wrong password or a missing ACL stops the run here, naming the principal
                KafkaAccessCheck.verify(
                        new KafkaConnection(s.bootstrapServers().get(), s.kafkaClient()).config(Map.of()),
                        Map.of(),
                        Duration.ofSeconds(30));
                bootstrap = s.bootstrapServers().get();
            } else {
                broker = KafkaBrokerProcess.builder()
                        .jvmOptions(List.of("-Xmx768m"))
                        .build();
                broker.start();
                bootstrap = broker.bootstrapServers();
                report.put("broker", "child JVM (KafkaBrokerProcess) " + bootstrap);
            }
            createTopics(bootstrap);
            execute(bootstrap, broker);
        } finally {
            killAll();
            if (broker != null) {
                broker.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down
            }
        }
        report.put("load_average_at_end", loadAverage());
        report.put("verdict", failures.isEmpty() ? "PASS" : "FAIL");
        report.put("failures", failures);
        Path json = s.reportDir().resolve("chaos-" + s.scenario().cliName() + ".json");
        JSON.writeValue(json.toFile(), report);
        print(json);
        return report;
    }

    private void killAll() {
        for (ServiceInstance i : instances) {
            try {
                i.close();
            } catch (RuntimeException e) {
                LOG.warn("cannot stop {}: {}", i.name(), e.toString());
            }
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private KafkaConnection kafka(String bootstrap) {
        return new KafkaConnection(bootstrap, s.kafkaClient());
    }

    private void createTopics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(kafka(bootstrap).config(Map.of()))) {
            List<NewTopic> nts = new ArrayList<>();
            for (String t : topics.all()) {
                nts.add(new NewTopic(t, s.partitions(), (short) 1));
            }
            for (var f : admin.createTopics(nts).values().values()) {
                try {
                    f.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    private ServiceInstance newInstance(String name, String bootstrap) throws IOException {
        Path stateDir = s.reportDir().resolve("state").resolve(runId + "-" + name);
        Path config = s.reportDir().resolve(runId + "-service.properties");
        // No client overrides: the real-time trigger's defaults (6 s session timeout, 1.5 s heartbeat, one standby)
        // are what a user gets, and what the failover figures measure.
        Files.writeString(config, "");
        List<String> args = new ArrayList<>(List.of(
                "--trigger",
                "real-time",
                "--checkpoint-interval",
                s.checkpointInterval().toString(),
                "--correlation-window",
                s.correlationWindow().toString(),
                "--processing-guarantee",
                s.exactlyOnce() ? "exactly_once_v2" : "at_least_once",
                "--num-stream-threads",
                "2",
                "--config",
                config.toAbsolutePath().toString(),
                "--impressions-topic",
                topics.impressions(),
                "--clicks-topic",
                topics.clicks(),
                "--requests-topic",
                topics.requests(),
                "--acks-topic",
                topics.acks(),
                "--attributed-clicks-topic",
                topics.attributedClicks(),
                "--log-records-topic",
                topics.logRecords(),
                "--dlq-topic",
                topics.dlq()));
        ServiceInstance i = new ServiceInstance(
                name,
                s.appJar(),
                bootstrap,
                "chaos-" + runId,
                stateDir,
                s.reportDir().resolve("logs"),
                s.appJvmOptions(),
                args,
                s.kafkaClient().toEnvironment());
        instances.add(i);
        return i;
    }

    /** The load generator's run in a background thread; its report is read when it ends. */
    private final class Load {
        private final Thread thread;
        private volatile int exitCode = -1;
        private final Path dir = s.reportDir().resolve("load-" + s.scenario().cliName());

        Load(String bootstrap) {
            List<String> args = new ArrayList<>(List.of(
                    "run",
                    "--bootstrap-servers",
                    bootstrap,
                    "--rate",
                    Double.toString(s.rate()),
                    "--duration",
                    s.duration().toString(),
                    "--seed",
                    Long.toString(s.seed()),
                    "--id-prefix",
                    runId + "-",
                    "--report-dir",
                    dir.toString(),
                    "--no-progress",
                    "--drain",
                    s.drain().toString(),
                    "--mode",
                    s.scenario().cliName(),
                    "--topic-prefix",
                    topicPrefix));
            s.kafkaConfig().ifPresent(file -> args.addAll(List.of("--kafka-config", file.toString())));
            LOG.info("load: load-generator {}", String.join(" ", args));
            thread = new Thread(() -> exitCode = LoadGenerator.execute(args.toArray(String[]::new)), "chaos-load");
        }

        void start() {
            loadStartNanos = System.nanoTime();
            thread.start();
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> await() throws Exception {
            thread.join();
            Path json = dir.resolve("report-" + s.scenario().cliName() + ".json");
            if (!Files.isRegularFile(json)) {
                throw new IllegalStateException("the load run wrote no report (exit code " + exitCode + "): " + json);
            }
            Map<String, Object> r = JSON.readValue(json.toFile(), Map.class);
            r.put("report_file", json.toString());
            return r;
        }
    }

    private void sleepUntilFault() throws InterruptedException {
        long at = loadStartNanos + (long) (s.duration().toNanos() * s.faultAt());
        long wait = at - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000L;
    }

    private void execute(String bootstrap, KafkaBrokerProcess broker) throws Exception {
        Scenario sc = s.scenario();
        ServiceInstance a = newInstance("service-a", bootstrap);
        ServiceInstance b = sc == Scenario.INSTANCE_FAILOVER ? newInstance("service-b", bootstrap) : null;
        a.start();
        if (b != null) {
            b.start();
        }
        report.put("first_start_to_running_ms", a.awaitRunning(s.readyTimeout()).toMillis());
        if (b != null) {
            b.awaitRunning(s.readyTimeout());
            awaitBothAssigned(a, b);
        }
        Map<String, Object> fault = new LinkedHashMap<>();
        report.put("fault", fault);
        try (OutputMonitor monitor = new OutputMonitor(
                        kafka(bootstrap), topics.attributedClicks(), topics.logRecords(), PROBE_PREFIX);
                Probes probes = new Probes(kafka(bootstrap), topics)) {
            PoisonInjector poison = null;
            MetricsSampler sampler = null;
            Load load = new Load(bootstrap);
            if (sc == Scenario.POISON) {
                poison = new PoisonInjector(kafka(bootstrap), topics, s.rate() * s.poisonFraction());
                poison.start();
            }
            if (sc == Scenario.SOAK) {
                sampler = new MetricsSampler(a, s.sampleInterval());
            }
            load.start();
            long faultNanos = -1;
            ProbeSet timerProbes = null;
            ProbeSet straddle = null;
            switch (sc) {
                case SERVICE_CRASH, PENDING_TIMERS, STATE_WIPE, LONG_OUTAGE -> {
                    if (sc == Scenario.PENDING_TIMERS || sc == Scenario.STATE_WIPE) {
                        // Sent early: checkpointed before the kill; their timers fire after it (pending-timers) or
                        // have fired before the second restart (state-wipe).
                        Thread.sleep(1000);
                        timerProbes =
                                sendMatchedTransactions(probes, sc == Scenario.STATE_WIPE ? "expired" : "timer", 3);
                    }
                    sleepUntilFault();
                    if (sc == Scenario.PENDING_TIMERS || sc == Scenario.LONG_OUTAGE) {
                        straddle = sendStraddleFirstHalves(probes, 3);
                        Thread.sleep(1000);
                    }
                    faultNanos = System.nanoTime();
                    fault.put("kind", "kill -9 of the service JVM (pid " + a.pid() + ")");
                    fault.put("at_s", round((faultNanos - loadStartNanos) / 1e9));
                    a.kill9();
                    if (sc == Scenario.STATE_WIPE) {
                        deleteRecursively(a.stateDir());
                        fault.put("state_dir_wiped", a.stateDir().toString());
                    }
                    if (straddle != null) {
                        sendStraddleSecondHalves(probes, straddle);
                    }
                    Duration downtime =
                            sc == Scenario.LONG_OUTAGE ? s.correlationWindow().multipliedBy(2) : s.downtime();
                    fault.put("downtime_ms", downtime.toMillis());
                    Thread.sleep(downtime.toMillis());
                    long restart = System.nanoTime();
                    a.start();
                    Duration toRunning = a.awaitRunning(s.readyTimeout());
                    fault.put("fault_to_restart_ms", ms(restart - faultNanos));
                    fault.put("restart_to_running_ms", toRunning.toMillis());
                    fault.put("fault_to_running_ms", ms(System.nanoTime() - faultNanos));
                    if (timerProbes != null) {
                        long due = timerProbes.firstSeenNanos
                                + s.correlationWindow().toNanos();
                        fault.put("pending_timers_due_after_restart", due > System.nanoTime());
                        fault.put("pending_timers_due_s_after_fault", round((due - faultNanos) / 1e9));
                    }
                }
                case BROKER_RESTART -> {
                    sleepUntilFault();
                    faultNanos = System.nanoTime();
                    Duration stopTook = broker.stop();
                    fault.put("kind", "graceful stop of the broker JVM, start again on the same port and log dir");
                    fault.put("at_s", round((faultNanos - loadStartNanos) / 1e9));
                    fault.put("broker_stop_ms", stopTook.toMillis());
                    Thread.sleep(s.downtime().toMillis());
                    broker.start();
                    fault.put("broker_start_ms", broker.lastStartupTime().toMillis());
                    fault.put("fault_to_broker_up_ms", ms(System.nanoTime() - faultNanos));
                }
                case INSTANCE_FAILOVER -> {
                    sleepUntilFault();
                    fault.put("assignment_before", Map.of(a.name(), activeTasks(a), b.name(), activeTasks(b)));
                    faultNanos = System.nanoTime();
                    fault.put("kind", "kill -9 of " + a.name() + " (pid " + a.pid() + "); " + b.name() + " survives");
                    fault.put("at_s", round((faultNanos - loadStartNanos) / 1e9));
                    a.kill9();
                    long total = 2L * s.partitions();
                    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                    long took = -1;
                    while (System.nanoTime() < deadline) {
                        if (activeTasks(b) >= total) {
                            took = ms(System.nanoTime() - faultNanos);
                            break;
                        }
                        Thread.sleep(100);
                    }
                    fault.put("survivor_tasks_after", activeTasks(b));
                    fault.put("tasks_total", total);
                    fault.put("fault_to_takeover_ms", took);
                    fault.put("survivor_slot_report", slotLines(b));
                    if (took < 0) {
                        failures.add("the survivor did not report all " + total + " tasks within 120 s of the kill");
                    }
                }
                default -> {
                    // poison, soak: no process fault
                }
            }
            Map<String, Object> loadReport = load.await();
            long loadEnd = System.nanoTime();
            if (poison != null) {
                poison.stopSending();
                poison.awaitDeadLettered(Duration.ofSeconds(60));
                poison.close();
                report.put("poison", poison.figures());
                if (poison.missingFromDlq() > 0) {
                    failures.add(poison.missingFromDlq() + " poison records never reached the dead-letter topic");
                }
                if (poison.withoutHeaders() > 0) {
                    failures.add(poison.withoutHeaders() + " dead-lettered records lack error/source headers");
                }
            }
            if (sampler != null) {
                sampler.close();
                sampler.write(s.reportDir(), "soak-series");
                Map<String, Object> summary = sampler.summary();
                report.put("soak_samples", sampler.rows().size());
                report.put("soak_summary", summary);
                report.put(
                        "soak_series_files",
                        List.of(
                                s.reportDir().resolve("soak-series.csv").toString(),
                                s.reportDir().resolve("soak-series.html").toString()));
                Duration horizon = WATERMARK_DELAY.plus(ATTRIBUTION_WINDOW);
                report.put("soak_bounded_judged", s.duration().compareTo(horizon.multipliedBy(3)) >= 0);
            }
            if (straddle != null) {
                checkStraddle(monitor, straddle);
            }
            if (timerProbes != null) {
                awaitFirstAcks(monitor, timerProbes);
            }
            if (sc == Scenario.PENDING_TIMERS) {
                checkTimersFired(probes, monitor, timerProbes, "pending_timers");
            }
            if (sc == Scenario.STATE_WIPE) {
                quiescedWipeProbes(probes, monitor, a, timerProbes);
            }
            if (faultNanos > 0) {
                fault.put("recovery_ms", monitor.recoveryMillis(faultNanos, Duration.ofSeconds(1)));
                fault.put("longest_output_gap_ms", monitor.longestGapMillis(faultNanos - 1_000_000_000L, loadEnd));
            }
            report.put(
                    "longest_output_gap_whole_run_ms",
                    monitor.longestGapMillis(loadStartNanos + 2_000_000_000L, loadEnd));
            judgeLoad(loadReport);
            ServiceInstance survivor = b != null ? b : a;
            String health = survivor.health();
            report.put("service_alive_at_end", survivor.isAlive());
            report.put("service_health_at_end", health == null ? "no answer" : health.trim());
            if (!survivor.isAlive() || health == null || !health.contains("RUNNING")) {
                failures.add("the service is not RUNNING at the end: " + health);
            }
        }
    }

    private void awaitBothAssigned(ServiceInstance a, ServiceInstance b) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            if (activeTasks(a) > 0 && activeTasks(b) > 0 && activeTasks(a) + activeTasks(b) >= 2L * s.partitions()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(
                "the two instances did not share the tasks within 90 s: " + activeTasks(a) + " + " + activeTasks(b));
    }

    private static long activeTasks(ServiceInstance i) {
        String m = i.metrics();
        if (m == null) {
            return 0;
        }
        return (long) Math.max(0, PrometheusSamples.sum(m, "adattribution_slot_active_tasks"));
    }

    private static List<String> slotLines(ServiceInstance i) {
        return PrometheusSamples.lines(i.metrics(), "adattribution_slot_");
    }

    private void judgeLoad(Map<String, Object> lr) {
        Map<String, Object> oracle = new LinkedHashMap<>();
        for (String k : List.of(
                "events_sent",
                "achieved_rate",
                "kept_up",
                "send_errors",
                "expected",
                "observed",
                "matched",
                "missing",
                "duplicates",
                "unexpected",
                "mismatched",
                "drain_ms",
                "latency_ms",
                "samples",
                "report_file")) {
            oracle.put(k, lr.get(k));
        }
        report.put("oracle", oracle);
        long missing = num(lr.get("missing"));
        long dups = num(lr.get("duplicates"));
        long unexpected = num(lr.get("unexpected"));
        if (missing > 0) {
            failures.add(missing + " expected outputs missing (oracle)");
        }
        if (unexpected > 0) {
            failures.add(unexpected + " unexpected outputs (oracle)");
        }
        boolean dupsPromised = s.exactlyOnce() || s.scenario() == Scenario.POISON || s.scenario() == Scenario.SOAK;
        report.put("zero_duplicates_required", dupsPromised);
        if (dupsPromised && dups > 0) {
            failures.add(dups + " duplicated outputs (oracle)");
        }
        if (num(lr.get("send_errors")) > 0) {
            failures.add(num(lr.get("send_errors")) + " input records the generator could not send");
        }
    }

    private static long num(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Probe transactions and join pairs, with the output ids they should (or should not) produce. */
    private static final class ProbeSet {
        final List<String> ids = new ArrayList<>();
        final List<String> impressionIds = new ArrayList<>();
        final List<Long> impressionTimes = new ArrayList<>();
        long firstSeenNanos;
    }

    private ProbeSet sendMatchedTransactions(Probes probes, String tag, int n) {
        ProbeSet p = new ProbeSet();
        p.firstSeenNanos = System.nanoTime();
        long now = System.currentTimeMillis();
        for (int i = 0; i < n; i++) {
            String tx = PROBE_PREFIX + runId + "-" + tag + "-" + i;
            p.ids.add(tx);
            probes.request(tx, now);
            probes.ack(tx, "a1", now);
        }
        return p;
    }

    private void awaitFirstAcks(OutputMonitor monitor, ProbeSet p) throws InterruptedException {
        List<String> expect = p.ids.stream().map(tx -> "log:" + tx + ":a1").toList();
        if (!monitor.awaitProbes(expect, Duration.ofSeconds(60))) {
            failures.add("timer probes: request+ack did not produce their log records");
        }
    }

    private ProbeSet sendStraddleFirstHalves(Probes probes, int n) {
        ProbeSet p = new ProbeSet();
        long now = System.currentTimeMillis();
        for (int i = 0; i < n; i++) {
            String tx = PROBE_PREFIX + runId + "-straddle-" + i;
            p.ids.add(tx);
            probes.request(tx, now);
            String imp = PROBE_PREFIX + runId + "-simp-" + i;
            p.impressionIds.add(imp);
            p.impressionTimes.add(now);
            probes.impression(imp, now);
        }
        return p;
    }

    private void sendStraddleSecondHalves(Probes probes, ProbeSet p) {
        for (int i = 0; i < p.ids.size(); i++) {
            probes.ack(p.ids.get(i), "a1", System.currentTimeMillis());
            probes.click(p.impressionIds.get(i) + "-click", p.impressionIds.get(i), p.impressionTimes.get(i) + 1000);
        }
    }

    private void checkStraddle(OutputMonitor monitor, ProbeSet p) throws InterruptedException {
        List<String> expect = new ArrayList<>();
        p.ids.forEach(tx -> expect.add("log:" + tx + ":a1"));
        p.impressionIds.forEach(imp -> expect.add("click:" + imp + "-click"));
        boolean ok = monitor.awaitProbes(expect, Duration.ofSeconds(60));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sent_before_kill", "requests " + p.ids.size() + ", impressions " + p.impressionIds.size());
        m.put("sent_while_down", "acks " + p.ids.size() + ", clicks " + p.impressionIds.size());
        m.put("expected_outputs", expect.size());
        m.put(
                "observed_outputs",
                expect.stream().filter(id -> monitor.probeCount(id) > 0).count());
        report.put("straddling_matches", m);
        if (!ok) {
            failures.add("matches straddling the crash not emitted: "
                    + expect.stream().filter(id -> monitor.probeCount(id) == 0).toList());
        }
    }

    /**
     * Waits until the probes' timers are due (plus a margin), then sends a second ack for each: if the
     * timer fired, the state is gone and nothing is emitted. A control transaction shows that a
     * second ack is matched while its state lives.
     */
    private void checkTimersFired(Probes probes, OutputMonitor monitor, ProbeSet p, String key)
            throws InterruptedException {
        long due = p.firstSeenNanos + s.correlationWindow().toNanos() + 5_000_000_000L;
        TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
        long now = System.currentTimeMillis();
        String control = PROBE_PREFIX + runId + "-" + key + "-control";
        probes.request(control, now);
        probes.ack(control, "a1", now);
        for (String tx : p.ids) {
            probes.ack(tx, "a2", now);
        }
        probes.ack(control, "a2", now);
        boolean controlOk = monitor.awaitProbes(
                List.of("log:" + control + ":a1", "log:" + control + ":a2"), Duration.ofSeconds(60));
        Thread.sleep(3000);
        long revived = p.ids.stream()
                .filter(tx -> monitor.probeCount("log:" + tx + ":a2") > 0)
                .count();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("transactions", p.ids.size());
        m.put("late_acks_matched_after_expiry", revived);
        m.put("control_second_ack_matched", controlOk);
        report.put(key, m);
        if (!controlOk) {
            failures.add(key + ": the control transaction's acks were not matched (probe mechanism broken)");
        }
        if (revived > 0) {
            failures.add(key + ": " + revived + " transactions still had their state after the correlation window "
                    + "(timer did not fire / expired state came back)");
        }
    }

    /**
     * State-wipe, phase 2 (after the load): expire some transactions, let the service checkpoint,
     * kill it, wipe its state directory, queue a late join pair (far behind the watermark) and a
     * second ack of each expired transaction as the first records it will read, restart, and check
     * that neither produces output while a fresh pair still joins.
     */
    private void quiescedWipeProbes(Probes probes, OutputMonitor monitor, ServiceInstance a, ProbeSet expired)
            throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        report.put("wipe_probes", m);
        long until = expired.firstSeenNanos
                + s.correlationWindow()
                        .plusSeconds(3)
                        .plus(s.checkpointInterval().multipliedBy(2))
                        .toNanos();
        m.put("waited_for_expiry_and_checkpoint_ms", Math.max(0, ms(until - System.nanoTime())));
        TimeUnit.NANOSECONDS.sleep(Math.max(0, until - System.nanoTime()));
        a.kill9();
        deleteRecursively(a.stateDir());
        long now = System.currentTimeMillis();
        long lateTime =
                now - WATERMARK_DELAY.plus(ATTRIBUTION_WINDOW).plusMinutes(3).toMillis();
        String lateImp = PROBE_PREFIX + runId + "-late";
        probes.impression(lateImp, lateTime);
        probes.click(lateImp + "-click", lateImp, lateTime + 1000);
        for (String tx : expired.ids) {
            probes.ack(tx, "a2", now);
        }
        long restart = System.nanoTime();
        a.start();
        m.put(
                "second_wipe_restart_to_running_ms",
                a.awaitRunning(s.readyTimeout()).toMillis());
        String freshImp = PROBE_PREFIX + runId + "-fresh";
        long t = System.currentTimeMillis();
        probes.impression(freshImp, t);
        probes.click(freshImp + "-click", freshImp, t + 1000);
        boolean joins = monitor.awaitProbes(List.of("click:" + freshImp + "-click"), Duration.ofSeconds(60));
        m.put("second_wipe_restart_to_first_join_ms", ms(System.nanoTime() - restart));
        Thread.sleep(3000);
        int lateJoined = monitor.probeCount("click:" + lateImp + "-click");
        long revived = expired.ids.stream()
                .filter(tx -> monitor.probeCount("log:" + tx + ":a2") > 0)
                .count();
        m.put("late_pair_event_time_behind_now_s", (now - lateTime) / 1000);
        m.put("late_pair_joined_after_wipe", lateJoined);
        m.put("expired_transactions", expired.ids.size());
        m.put("expired_state_matched_after_wipe", revived);
        m.put("fresh_pair_joined_after_wipe", joins);
        if (lateJoined > 0) {
            failures.add("watermark regressed after wipe+restore: a pair " + (now - lateTime) / 1000
                    + " s behind the stream was joined");
        }
        if (revived > 0) {
            failures.add("expired state came back after wipe+restore: " + revived + " expired transactions matched");
        }
        if (!joins) {
            failures.add("joins did not continue after wipe+restore: a fresh pair was not joined within 60 s");
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void print(Path json) {
        PrintStream out = s.out();
        Map<String, Object> o = (Map<String, Object>) report.getOrDefault("oracle", Map.of());
        Map<String, Object> f = (Map<String, Object>) report.getOrDefault("fault", Map.of());
        out.printf(
                Locale.ROOT,
                "chaos %s%s: %s%n",
                s.scenario().cliName(),
                s.exactlyOnce() ? " (exactly-once)" : "",
                report.get("verdict"));
        out.printf(
                Locale.ROOT,
                "  load      : %s events sent at %s/s (target %.0f/s, kept up: %s)%n",
                o.get("events_sent"),
                o.get("achieved_rate"),
                s.rate(),
                o.get("kept_up"));
        out.printf(
                Locale.ROOT,
                "  oracle    : expected %s, observed %s, missing %s, duplicates %s, unexpected %s%n",
                o.get("expected"),
                o.get("observed"),
                o.get("missing"),
                o.get("duplicates"),
                o.get("unexpected"));
        if (!f.isEmpty()) {
            out.printf(Locale.ROOT, "  fault     : %s at %ss%n", f.get("kind"), f.get("at_s"));
            out.printf(
                    Locale.ROOT,
                    "  recovery  : %s ms until outputs flowed again on every partition "
                            + "(longest output gap %s ms)%n",
                    f.get("recovery_ms"),
                    f.get("longest_output_gap_ms"));
        }
        for (String k : List.of("straddling_matches", "pending_timers", "wipe_probes", "poison")) {
            if (report.containsKey(k)) {
                out.printf(Locale.ROOT, "  %-10s: %s%n", k, report.get(k));
            }
        }
        if (report.containsKey("soak_summary")) {
            out.printf(
                    Locale.ROOT,
                    "  soak      : %s samples, series in %s%n",
                    report.get("soak_samples"),
                    report.get("soak_series_files"));
        }
        for (String failure : failures) {
            out.println("  FAILED    : " + failure);
        }
        out.println("  report    : " + json.toAbsolutePath());
    }
}
