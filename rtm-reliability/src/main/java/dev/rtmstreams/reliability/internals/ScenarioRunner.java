package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.testkit.KafkaClusterProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs one chaos scenario: a broker (its own child-JVM broker unless a cluster is given), the service as child JVM(s)
 * started from its fat jar, a load run of the load generator (its {@code run} command, whose oracle checks every
 * output), the scenario's {@link Fault} at a fixed point of the load, its {@link Checker}, the common check, and the
 * verdict, written as a {@link ChaosReport}. The runner only orchestrates: the Kafka it works against is
 * {@link RunKafka}'s, the service instances {@link ServiceInstances}', the load {@link ChaosLoad}'s; what each
 * scenario does and asserts is in the {@link Scenario.Plan} the scenario picks. Every run uses its own topic prefix,
 * application id and id prefix, so runs on one cluster do not see each other.
 */
public final class ScenarioRunner {

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
     * @param brokerJvmOptions JVM options of the runner's own broker (unused with {@code bootstrapServers})
     * @param sampleInterval soak: time between metric samples
     * @param faultAt when the fault is injected, as a fraction of the load duration
     * @param downtime how long the service (or broker) stays down before it is started again
     * @param poisonFraction poison: undecodable records per good record
     * @param readyTimeout longest wait for a service instance to be RUNNING
     * @param kafkaConfig {@code --kafka-config}: the client properties file handed to the load, if any
     * @param kafkaClient the client settings of {@code --kafka-config} and {@code RTM_KAFKA_*}, for the runner's own
     *     clients and the service (through its environment)
     * @param out where the verdict is printed
     * @param group how the instances form their group (instances of the scale scenarios, protocol, standbys, static
     *     membership, session timeout)
     * @param brokers brokers of the runner's own cluster: 1 (a single child-JVM broker), or 3..9 (a
     *     {@link KafkaClusterProcess}: topics and the service's internal topics with replication factor 3,
     *     {@code min.insync.replicas=2}, every producer {@code acks=all})
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
            List<String> brokerJvmOptions,
            Duration sampleInterval,
            double faultAt,
            Duration downtime,
            double poisonFraction,
            Duration readyTimeout,
            Optional<Path> kafkaConfig,
            KafkaClientSettings kafkaClient,
            PrintStream out,
            GroupSettings group,
            int brokers) {

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
            if (brokers != 1 && (brokers < 3 || brokers > 9)) {
                throw new IllegalArgumentException("--brokers must be 1 or 3..9 (two brokers cannot lose one with"
                        + " min.insync.replicas=2): " + brokers);
            }
            if (brokers > 1 && bootstrapServers.isPresent()) {
                throw new IllegalArgumentException("--brokers " + brokers + " starts the runner's own cluster: it"
                        + " cannot be used with --bootstrap-servers " + bootstrapServers.get());
            }
            if (scenario.needsCluster() && (brokers < 3 || bootstrapServers.isPresent())) {
                throw new IllegalArgumentException("--scenario " + scenario.cliName() + " kills, stops or pauses"
                        + " brokers of the runner's own cluster: run it with --brokers 3 (or more), not " + brokers
                        + (bootstrapServers.isPresent() ? " and --bootstrap-servers" : ""));
            }
            if (brokers > 1 && scenario == Scenario.BROKER_RESTART) {
                throw new IllegalArgumentException("--scenario broker-restart stops and starts the single broker:"
                        + " run it with --brokers 1, not " + brokers);
            }
            if (scenario == Scenario.INSTANCE_FAILOVER && partitions < 2) {
                throw new IllegalArgumentException(
                        "--partitions must be at least 2 for instance-failover: " + partitions);
            }
            if (scenario.changesGroup() && 2 * partitions < group.instances()) {
                throw new IllegalArgumentException("--partitions must give each of the " + group.instances()
                        + " instances a task (2 tasks per partition): " + partitions);
            }
            appJvmOptions = List.copyOf(appJvmOptions);
            brokerJvmOptions = List.copyOf(brokerJvmOptions);
        }

        /**
         * @return replicas of the run's topics and of the service's internal topics: {@code min(3, brokers)} on the
         *     runner's own cluster, 1 on a given one (its defaults hold for the internal topics)
         */
        public int replicationFactor() {
            return bootstrapServers.isPresent() ? 1 : Math.min(3, brokers);
        }
    }

    private final Settings s;
    private final String runId;
    private final String topicPrefix;
    private final ServiceTopics topics;
    private final ServiceInstances instances;

    /**
     * @param settings how to run
     */
    public ScenarioRunner(Settings settings) {
        this.s = settings;
        String stamp = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        this.runId = settings.scenario().cliName() + "-" + stamp;
        this.topicPrefix = "chaos-" + stamp + ".";
        this.topics = ServiceTopics.DEFAULTS.withPrefix(topicPrefix);
        this.instances = new ServiceInstances(settings, runId, applicationId(), topics);
    }

    /**
     * Runs the scenario, prints the verdict and writes {@code chaos-<scenario>.json}.
     *
     * @return the report (its {@code verdict} is PASS or FAIL)
     * @throws Exception when the run cannot be carried out (not a verdict)
     */
    public ChaosReport run() throws Exception {
        Files.createDirectories(s.reportDir());
        String startedAt = Instant.now().toString();
        ChaosReport.Machine machine =
                new ChaosReport.Machine(Runtime.getRuntime().availableProcessors(), loadAverage());
        RunKafka kafka = null;
        Observed observed;
        Thread hook = new Thread(instances::close, "chaos-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            kafka = RunKafka.start(s);
            kafka.createTopics(topics.all());
            kafka.configureGroup(applicationId());
            observed = execute(kafka);
            if (kafka.cluster() != null) {
                ReplicationCheck.check(kafka.connection(), topics.all(), applicationId(), s.replicationFactor())
                        .forEach(observed.findings()::fail);
            }
        } finally {
            instances.close();
            if (kafka != null) {
                kafka.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down
            }
        }
        List<String> failures = observed.findings().failures();
        ChaosReport report = new ChaosReport(
                s.scenario().cliName(),
                runId,
                s.exactlyOnce(),
                s.rate(),
                s.duration().toMillis() / 1000.0,
                s.partitions(),
                s.checkpointInterval().toString(),
                s.correlationWindow().toString(),
                topicPrefix,
                startedAt,
                machine,
                kafka.ownBroker(),
                observed.firstStartToRunningMs(),
                observed.fault(),
                observed.findings().sections(),
                observed.longestOutputGapWholeRunMs(),
                observed.oracle(),
                observed.zeroDuplicatesRequired(),
                observed.serviceAliveAtEnd(),
                observed.serviceHealthAtEnd(),
                loadAverage(),
                failures.isEmpty() ? ChaosReport.PASS : ChaosReport.FAIL,
                failures);
        Path json = s.reportDir().resolve("chaos-" + s.scenario().cliName() + ".json");
        report.write(json);
        report.print(s.out(), json);
        return report;
    }

    /** What {@link #execute} observed, for the report. */
    private record Observed(
            long firstStartToRunningMs,
            ChaosReport.FaultSection fault,
            Findings findings,
            long longestOutputGapWholeRunMs,
            LoadOracle oracle,
            boolean zeroDuplicatesRequired,
            boolean serviceAliveAtEnd,
            String serviceHealthAtEnd) {}

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private String applicationId() {
        return "chaos-" + runId;
    }

    /**
     * The run's timeline: the instances the fault needs, RUNNING; the fault and the checker prepared; the load; the
     * fault's strike at {@code --fault-at} of the load; the drained load; the fault ended; the checker's check; the
     * recovery from the fault; the common check (the oracle, the service RUNNING at the end).
     */
    private Observed execute(RunKafka kafka) throws Exception {
        String bootstrap = kafka.bootstrap();
        Scenario.Plan plan = s.scenario().plan(s);
        Fault fault = plan.fault();
        Checker checker = plan.checker();
        List<ServiceInstance> started = new ArrayList<>();
        for (int i = 0; i < fault.instances(); i++) {
            started.add(instances.newInstance("service-" + (char) ('a' + i), bootstrap));
        }
        List<ServiceInstance> first = started.subList(0, fault.startedAtFirst());
        first.forEach(ServiceInstance::start);
        long firstStartToRunningMs = first.get(0).awaitRunning(s.readyTimeout()).toMillis();
        for (ServiceInstance other : first.subList(1, first.size())) {
            other.awaitRunning(s.readyTimeout());
        }
        try (OutputMonitor monitor = new OutputMonitor(
                        kafka.connection(), topics.attributedClicks(), topics.logRecords(), RunContext.PROBE_PREFIX);
                Probes probes = new Probes(kafka.connection(), topics)) {
            RunContext run = new RunContext(
                    s, runId, topics, kafka.connection(), started, kafka.broker(), kafka.cluster(), probes, monitor);
            ChaosLoad load = new ChaosLoad(s, bootstrap, runId, topicPrefix);
            fault.beforeLoad(run);
            checker.beforeLoad(run);
            run.loadStarted(load.start());
            checker.loadStarted(run);
            Optional<InjectedFault> injected = Optional.empty();
            Optional<Fault.Strike> strike = fault.strike();
            if (strike.isPresent()) {
                sleepUntil(run.loadStartNanos() + (long) (s.duration().toNanos() * s.faultAt()));
                checker.beforeFault(run);
                injected = Optional.of(strike.get().inject(run, () -> checker.whileDown(run)));
            }
            LoadOracle oracle = load.await();
            long loadEnd = System.nanoTime();
            run.loadEnded(oracle, loadEnd);
            fault.afterLoad(run);
            Findings findings = new Findings();
            checker.check(run, injected, findings);
            ChaosReport.FaultSection faultSection = injected.map(f -> new ChaosReport.FaultSection(
                            f,
                            findings.timersDue(),
                            monitor.recoveryMillis(f.faultNanos(), Duration.ofSeconds(1)),
                            monitor.longestGapMillis(f.faultNanos() - 1_000_000_000L, loadEnd)))
                    .orElse(ChaosReport.FaultSection.NONE);
            long wholeRunGap = monitor.longestGapMillis(run.loadStartNanos() + 2_000_000_000L, loadEnd);
            boolean zeroDuplicates = s.exactlyOnce() || checker.requiresZeroDuplicates();
            oracle.failures(zeroDuplicates).forEach(findings::fail);
            ServiceInstance survivor = run.survivor();
            String health = survivor.health();
            boolean alive = survivor.isAlive();
            if (!alive || health == null || !health.contains("RUNNING")) {
                findings.fail("the service is not RUNNING at the end: " + health);
            }
            return new Observed(
                    firstStartToRunningMs,
                    faultSection,
                    findings,
                    wholeRunGap,
                    oracle,
                    zeroDuplicates,
                    alive,
                    health == null ? "no answer" : health.trim());
        }
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long wait = nanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }
}
