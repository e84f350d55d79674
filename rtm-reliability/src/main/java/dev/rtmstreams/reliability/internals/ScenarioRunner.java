package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.KafkaAccessCheck;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.loadgen.LoadGenerator;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.KafkaClusterProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one chaos scenario: a broker (its own child-JVM broker unless a cluster is given), the
 * service as child JVM(s) started from its fat jar, a load run of the load generator (its
 * {@code run} command, whose oracle checks every output), the scenario's {@link Fault} at a fixed point of the load,
 * its {@link Checker}, the common check, and the verdict, written as a {@link ChaosReport}. The runner only
 * orchestrates; what each scenario does and asserts is in the {@link Scenario.Plan} the scenario picks. Every run uses
 * its own topic prefix, application id and id prefix, so runs on one cluster do not see each other.
 */
public final class ScenarioRunner {

    private static final Logger LOG = LoggerFactory.getLogger(ScenarioRunner.class);

    /** The /24 of the brokers' network namespaces (broker-network-partition): 10.213.0.11 and on, bridge .1. */
    static final String NETWORK_PREFIX = "10.213.0";

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
    private final List<ServiceInstance> instances = new ArrayList<>();
    private final String runId;
    private final String topicPrefix;
    private final ServiceTopics topics;

    /**
     * @param settings how to run
     */
    public ScenarioRunner(Settings settings) {
        this.s = settings;
        String stamp = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        this.runId = settings.scenario().cliName() + "-" + stamp;
        this.topicPrefix = "chaos-" + stamp + ".";
        this.topics = ServiceTopics.DEFAULTS.withPrefix(topicPrefix);
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
        KafkaBrokerProcess broker = null;
        KafkaClusterProcess cluster = null;
        String ownBroker = null;
        Observed observed;
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
            } else if (s.brokers() > 1) {
                KafkaClusterProcess.Builder b =
                        KafkaClusterProcess.builder().nodes(s.brokers()).jvmOptions(s.brokerJvmOptions());
                GroupSettings.BROKER_PROPERTIES.forEach(b::brokerProperty);
                if (s.scenario() == Scenario.BROKER_NETWORK_PARTITION) {
                    b.networkNamespaces(NETWORK_PREFIX);
                }
                cluster = b.build();
                cluster.start();
                bootstrap = cluster.bootstrapServers();
                ownBroker = s.brokers() + " child JVMs (KafkaClusterProcess: combined KRaft broker+controller nodes,"
                        + (s.scenario() == Scenario.BROKER_NETWORK_PARTITION
                                ? " each in a network namespace of its own on " + NETWORK_PREFIX + ".0/24,"
                                : "")
                        + " replication factor " + s.replicationFactor() + ", min.insync.replicas "
                        + cluster.minInsyncReplicas() + ") " + bootstrap;
            } else {
                KafkaBrokerProcess.Builder b = KafkaBrokerProcess.builder().jvmOptions(s.brokerJvmOptions());
                GroupSettings.BROKER_PROPERTIES.forEach(b::brokerProperty);
                broker = b.build();
                broker.start();
                bootstrap = broker.bootstrapServers();
                ownBroker = "child JVM (KafkaBrokerProcess) " + bootstrap;
            }
            createTopics(bootstrap);
            configureGroup(bootstrap);
            observed = execute(bootstrap, broker, cluster);
            if (cluster != null) {
                ReplicationCheck.check(kafka(bootstrap), topics.all(), applicationId(), s.replicationFactor())
                        .forEach(observed.findings()::fail);
            }
        } finally {
            killAll();
            if (broker != null) {
                broker.close();
            }
            if (cluster != null) {
                cluster.close();
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
                ownBroker,
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
            short rf = (short) s.replicationFactor();
            Map<String, String> configs = rf >= 3 ? Map.of("min.insync.replicas", "2") : Map.of();
            for (String t : topics.all()) {
                nts.add(new NewTopic(t, s.partitions(), rf).configs(configs));
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

    /**
     * Under the streams protocol, sets the streams group's broker-side configs (standbys, session timeout, heartbeat)
     * before any member joins: the client-side settings of the real-time trigger do not reach the broker there.
     */
    private void configureGroup(String bootstrap) throws Exception {
        Map<String, String> configs = s.group().streamsGroupConfig();
        if (configs.isEmpty()) {
            return;
        }
        List<AlterConfigOp> ops = new ArrayList<>();
        configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        try (Admin admin = Admin.create(kafka(bootstrap).config(Map.of()))) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, applicationId()), ops))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot set the streams group's configs " + configs + " (the broker bounds them with"
                            + " group.streams.min.session.timeout.ms and group.streams.min.heartbeat.interval.ms): "
                            + e.getCause(),
                    e);
        }
        LOG.info("streams group {} configured: {}", applicationId(), configs);
    }

    private String applicationId() {
        return "chaos-" + runId;
    }

    private ServiceInstance newInstance(String name, String bootstrap) throws IOException {
        Path stateDir = s.reportDir().resolve("state").resolve(runId + "-" + name);
        Path config = s.reportDir().resolve(runId + "-service.properties");
        // No client overrides unless a group option asks for one: the real-time trigger's defaults (6 s session
        // timeout, 1.5 s heartbeat, one standby) are what a user gets, and what the failover figures measure.
        StringBuilder properties = new StringBuilder();
        s.group()
                .serviceConfig()
                .forEach((k, v) -> properties.append(k).append('=').append(v).append('\n'));
        if (s.replicationFactor() > 1) {
            // Kafka Streams' changelogs and repartition topics as replicated as the inputs; acks=all is the producer's
            // default, set so that nothing weakens it
            properties
                    .append("kafka.replication.factor=")
                    .append(s.replicationFactor())
                    .append('\n');
            properties.append("kafka.producer.acks=all\n");
        }
        Files.writeString(config, properties);
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
                config.toAbsolutePath().toString()));
        args.addAll(topics.serviceArgs());
        ServiceInstance i = new ServiceInstance(
                name,
                s.appJar(),
                bootstrap,
                applicationId(),
                stateDir,
                s.reportDir().resolve("logs"),
                s.appJvmOptions(),
                args,
                environment(name));
        instances.add(i);
        return i;
    }

    /** @return the client settings of the run plus the instance's own {@code group.instance.id}, if static */
    private Map<String, String> environment(String instance) {
        Map<String, String> env = new LinkedHashMap<>(s.kafkaClient().toEnvironment());
        env.putAll(s.group().instanceEnvironment(applicationId(), instance));
        return env;
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
            if (s.replicationFactor() > 1) {
                // replicated inputs: an acknowledged record survives the loss of its leader, a retried one is not
                // written twice
                args.addAll(List.of("--client-property", "acks=all", "--client-property", "enable.idempotence=true"));
            }
            LOG.info("load: load-generator {}", String.join(" ", args));
            thread = new Thread(() -> exitCode = LoadGenerator.execute(args.toArray(String[]::new)), "chaos-load");
        }

        /** @return when it started ({@link System#nanoTime()}) */
        long start() {
            long now = System.nanoTime();
            thread.start();
            return now;
        }

        LoadOracle await() throws Exception {
            thread.join();
            Path json = dir.resolve("report-" + s.scenario().cliName() + ".json");
            if (!Files.isRegularFile(json)) {
                throw new IllegalStateException("the load run wrote no report (exit code " + exitCode + "): " + json);
            }
            return LoadOracle.read(json);
        }
    }

    /**
     * The run's timeline: the instances the fault needs, RUNNING; the fault and the checker prepared; the load; the
     * fault's strike at {@code --fault-at} of the load; the drained load; the fault ended; the checker's check; the
     * recovery from the fault; the common check (the oracle, the service RUNNING at the end).
     */
    private Observed execute(String bootstrap, KafkaBrokerProcess broker, KafkaClusterProcess cluster)
            throws Exception {
        Scenario.Plan plan = s.scenario().plan(s);
        Fault fault = plan.fault();
        Checker checker = plan.checker();
        List<ServiceInstance> started = new ArrayList<>();
        for (int i = 0; i < fault.instances(); i++) {
            started.add(newInstance("service-" + (char) ('a' + i), bootstrap));
        }
        List<ServiceInstance> first = started.subList(0, fault.startedAtFirst());
        first.forEach(ServiceInstance::start);
        long firstStartToRunningMs = first.get(0).awaitRunning(s.readyTimeout()).toMillis();
        for (ServiceInstance other : first.subList(1, first.size())) {
            other.awaitRunning(s.readyTimeout());
        }
        try (OutputMonitor monitor = new OutputMonitor(
                        kafka(bootstrap), topics.attributedClicks(), topics.logRecords(), RunContext.PROBE_PREFIX);
                Probes probes = new Probes(kafka(bootstrap), topics)) {
            RunContext run =
                    new RunContext(s, runId, topics, kafka(bootstrap), started, broker, cluster, probes, monitor);
            Load load = new Load(bootstrap);
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
