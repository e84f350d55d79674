package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.tools.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The system under test of one mode, started and ready: the echo or a Kafka Streams peer ({@link KafkaStreamsPeer},
 * in a peer JVM, or in this one), the service in real-time or micro-batch mode (or a {@link BenchModes.Variant}'s build of it), or for a
 * published workload the rtm-examples program of the same name or Apache Spark running the same query ({@link SparkPeers}). Closing it stops it; a failure to stop is logged.
 */
final class SystemUnderTest implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SystemUnderTest.class);

    private final String mode;
    private final AutoCloseable system;
    private final List<CostMeter.Sut> suts;
    private final ServiceGroup group;
    private final LoadRun.Outputs outputs;

    private SystemUnderTest(String mode, AutoCloseable system, Long pid, LoadRun.Outputs outputs) {
        this(mode, system, pid == null ? List.of() : List.of(new CostMeter.Sut(mode, pid)), null, outputs);
    }

    private SystemUnderTest(String mode, ServiceGroup group) {
        this(mode, group, group.suts(), group, LoadRun.Outputs.SERVICE);
    }

    private SystemUnderTest(
            String mode, AutoCloseable system, List<CostMeter.Sut> suts, ServiceGroup group, LoadRun.Outputs outputs) {
        this.mode = mode;
        this.system = system;
        this.suts = suts;
        this.group = group;
        this.outputs = outputs;
    }

    /** @return its JVMs when it runs in JVMs of its own (one, or one per service instance), else empty */
    List<CostMeter.Sut> suts() {
        return suts;
    }

    /** @return the service's instances when it is the ad-attribution service, else null */
    ServiceGroup group() {
        return group;
    }

    /** @return what it writes, for the run to check */
    LoadRun.Outputs outputs() {
        return outputs;
    }

    @Override
    public void close() {
        try {
            system.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed", mode, e);
        }
    }

    /**
     * Starts a mode's system under test and waits until it is ready; stops it again if it does not get ready.
     *
     * @param o the options
     * @param mode the mode
     * @param bootstrap the cluster
     * @param suffix the suffix of the run's topic names, or ""
     * @param topics the attribution workload's topics
     * @param rowTopics the published workloads' topics
     * @param appId the application id (consumer group) of the run
     * @return the ready system
     * @throws Exception if it cannot be started or does not get ready in time
     */
    static SystemUnderTest start(
            BenchOptions o,
            String mode,
            String bootstrap,
            String suffix,
            TopicNames topics,
            LatencyWorkload.Topics rowTopics,
            String appId)
            throws Exception {
        KafkaStreamsPeer.Kind kafkaStreams = KafkaStreamsPeer.Kind.ofMode(mode);
        if (mode.equals("echo") || kafkaStreams != null) {
            return startPeer(o, mode, kafkaStreams, bootstrap, suffix, topics, rowTopics, appId);
        }
        if (SparkPeers.isSpark(mode)) {
            ChildJvm spark = SparkPeers.start(o, mode, bootstrap, rowTopics);
            return ready(new SystemUnderTest(mode, spark, spark.pid(), LoadRun.Outputs.SERVICE), () -> {
                spark.awaitReady(o.readyTimeout());
            });
        }
        if (o.benchWorkload().isPublished()) {
            ChildJvm example = startExample(o, mode, bootstrap, rowTopics);
            return ready(new SystemUnderTest(mode, example, example.pid(), LoadRun.Outputs.SERVICE), () -> {
                example.awaitReady(o.readyTimeout());
            });
        }
        ServiceGroup group = ServiceGroup.start(
                o.instances(),
                (index, label, stateDir) -> startService(o, mode, bootstrap, topics, appId, stateDir, index),
                o.readyTimeout());
        return new SystemUnderTest(mode, group);
    }

    /** Starts the echo ({@code kafkaStreams} null) or a Kafka Streams peer, in a JVM of its own or in this one. */
    private static SystemUnderTest startPeer(
            BenchOptions o,
            String mode,
            KafkaStreamsPeer.Kind kafkaStreams,
            String bootstrap,
            String suffix,
            TopicNames topics,
            LatencyWorkload.Topics rowTopics,
            String appId)
            throws Exception {
        Duration window = o.workload().attributionWindow();
        Duration delay = o.workload().watermarkDelay();
        LoadRun.Outputs outputs = kafkaStreams != null ? kafkaStreams.outputs() : LoadRun.Outputs.ECHO;
        if (o.peersInChildJvm()) {
            List<String> args = new ArrayList<>(List.of(
                    "peer",
                    "--kind",
                    mode,
                    "--workload",
                    o.benchWorkload().cliName(),
                    "--bootstrap-servers",
                    bootstrap,
                    "--application-id",
                    appId,
                    "--attribution-window",
                    window.toString(),
                    "--watermark-delay",
                    delay.toString(),
                    "--stream-threads",
                    Integer.toString(o.streamThreads())));
            if (!suffix.isEmpty()) {
                args.addAll(List.of("--topic-suffix", suffix));
            }
            if (o.replicationFactor() > 1) {
                args.addAll(List.of("--replication-factor", Integer.toString(o.replicationFactor())));
            }
            ChildJvm peer = ServiceProcess.startPeer(
                    mode + " peer", o.appJvmOptions(), args, o.reportDir().resolve("peer-" + mode + ".log"));
            return ready(new SystemUnderTest(mode, peer, peer.pid(), outputs), () -> {
                peer.awaitReady(o.readyTimeout());
            });
        } else if (kafkaStreams == null) {
            EchoPipeline echo = echo(bootstrap, o.benchWorkload(), topics, rowTopics, appId, o.replicationFactor());
            return ready(new SystemUnderTest(mode, echo, null, outputs), () -> {
                require(echo.awaitReady(o.readyTimeout()), mode);
            });
        } else {
            KafkaStreamsPeer ks = new KafkaStreamsPeer(
                    kafkaStreams, bootstrap, appId, topics, window, delay, o.streamThreads(), o.replicationFactor());
            return ready(new SystemUnderTest(mode, ks, null, outputs), () -> {
                require(ks.awaitRunning(o.readyTimeout()), mode);
            });
        }
    }

    /** How a started system is awaited. */
    private interface Readiness {
        void await() throws Exception;
    }

    private static SystemUnderTest ready(SystemUnderTest started, Readiness readiness) throws Exception {
        try {
            readiness.await();
            return started;
        } catch (Exception | Error e) {
            started.close();
            throw e;
        }
    }

    /**
     * The echo of a workload: for attribution it reads impressions and clicks and copies clicks; for a published
     * workload it copies every row from its input to its output topic.
     *
     * @param bootstrap the cluster
     * @param workload the workload
     * @param topics the attribution workload's topics
     * @param rowTopics the published workloads' topics
     * @param groupId the consumer group
     * @param replicationFactor replicas of the topics: above 1 the copies are sent with {@code acks=all}
     * @return the started pass-through
     */
    static EchoPipeline echo(
            String bootstrap,
            BenchWorkload workload,
            TopicNames topics,
            LatencyWorkload.Topics rowTopics,
            String groupId,
            int replicationFactor) {
        String acks = acks(replicationFactor);
        return workload.isPublished()
                ? new EchoPipeline(
                        bootstrap, List.of(rowTopics.input()), rowTopics.input(), rowTopics.output(), groupId, acks)
                : new EchoPipeline(bootstrap, topics, groupId, acks);
    }

    /** @return the producers' {@code acks} on a cluster whose topics have this many replicas: 1, or all */
    static String acks(int replicationFactor) {
        return replicationFactor > 1 ? "all" : "1";
    }

    /**
     * Starts instance {@code index} of the service of a mode; its log is {@code service-MODE.log} with one instance,
     * {@code service-MODE-INDEX.log} with several.
     */
    private static ChildJvm startService(
            BenchOptions o, String mode, String bootstrap, TopicNames topics, String appId, Path stateDir, int index) {
        List<String> args = new ArrayList<>();
        BenchModes.Variant variant = BenchModes.variantOf(mode, o.variants());
        if (variant != null) {
            args.addAll(variant.args());
        }
        if (mode.equals("micro-batch-asap")) {
            args.addAll(List.of("--micro-batch-interval", "PT0S"));
        }
        if (mode.equals(BenchModes.REAL_TIME_EOS)) {
            args.addAll(List.of("--processing-guarantee", "exactly_once_v2"));
        }
        args.addAll(replicationArgs(o));
        boolean one = o.instances() == 1;
        return ServiceProcess.startService(
                "service (" + mode + (one ? "" : ", instance " + index) + ")",
                variant != null ? variant.jar() : o.appJar(),
                bootstrap,
                trigger(mode),
                appId,
                stateDir,
                o.reportDir().resolve("service-" + mode + (one ? "" : "-" + index) + ".log"),
                o.appJvmOptions(),
                ServiceProcess.serviceArgs(
                        o.streamThreads(),
                        topics,
                        o.workload().attributionWindow(),
                        o.workload().watermarkDelay(),
                        o.appArgs(),
                        args));
    }

    /**
     * The service's arguments on a replicated cluster: topics it creates with the cluster's replication factor, and a
     * config file giving Kafka Streams' internal topics (changelogs, repartitions) that factor and its producers
     * {@code acks=all} (Kafka's default, set so that nothing weakens it). None on a single broker.
     *
     * @param o the options
     * @return the arguments; empty for replication factor 1
     */
    static List<String> replicationArgs(BenchOptions o) {
        int rf = o.replicationFactor();
        if (rf <= 1) {
            return List.of();
        }
        Path file = o.reportDir().resolve("service-replication.properties");
        try {
            java.nio.file.Files.createDirectories(o.reportDir());
            java.nio.file.Files.writeString(file, "kafka.replication.factor=" + rf + "\nkafka.producer.acks=all\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot write " + file, e);
        }
        return List.of(
                "--replication-factor",
                Integer.toString(rf),
                "--config",
                file.toAbsolutePath().toString());
    }

    private static String trigger(String mode) {
        return mode.startsWith("micro-batch") ? "micro-batch" : "real-time";
    }

    /**
     * Starts the rtm-examples program of a published workload as the system under test: it reads the bench's input
     * topic and writes its output topic ({@code --source kafka --serve}) until stopped.
     */
    private static ChildJvm startExample(
            BenchOptions o, String mode, String bootstrap, LatencyWorkload.Topics rowTopics) throws IOException {
        List<String> args = exampleArgs(o, mode, bootstrap, rowTopics);
        return ServiceProcess.startExample(
                "example (" + mode + ")",
                o.examplesJar(),
                o.appJvmOptions(),
                args,
                o.reportDir().resolve("example-" + mode + ".log"));
    }

    /**
     * The command line of the rtm-examples program that runs a published workload in a mode.
     *
     * @param o the options (workload, stream threads, extra {@code --app-arg}s, report directory for the table file)
     * @param mode real-time, micro-batch or micro-batch-asap
     * @param bootstrap the cluster
     * @param rowTopics the topics
     * @return the arguments after {@code -jar rtm-examples.jar}
     * @throws IOException when the static table cannot be written
     */
    static List<String> exampleArgs(BenchOptions o, String mode, String bootstrap, LatencyWorkload.Topics rowTopics)
            throws IOException {
        List<String> args = new ArrayList<>(List.of(
                o.benchWorkload().cliName(),
                "--source",
                "kafka",
                "--serve",
                "--trigger",
                trigger(mode),
                "--bootstrap-servers",
                bootstrap,
                "--input-topic",
                rowTopics.input(),
                "--output-topic",
                rowTopics.output(),
                "--threads",
                Integer.toString(o.streamThreads())));
        if (mode.equals("micro-batch-asap")) {
            args.addAll(List.of("--micro-batch-interval", "PT0S"));
        }
        if (mode.equals(BenchModes.REAL_TIME_EOS)) {
            args.addAll(List.of("--processing-guarantee", "exactly_once_v2"));
        }
        if (o.benchWorkload() == BenchWorkload.STREAM_STATIC_JOIN) {
            args.addAll(List.of("--table", "csv", "--table-file", staticTable(o)));
        }
        args.addAll(o.appArgs());
        return args;
    }

    /**
     * Writes the stream-static join's table into the run's report directory, for the system under test to read.
     *
     * @param o the options (report directory)
     * @return the table file's absolute path
     * @throws IOException when it cannot be written
     */
    static String staticTable(BenchOptions o) throws IOException {
        return LatencyWorkload.writeStaticTable(o.reportDir().resolve("static-table.csv"))
                .toAbsolutePath()
                .toString();
    }

    private static void require(boolean ready, String mode) {
        if (!ready) {
            throw new IllegalStateException(mode + " did not become ready");
        }
    }
}
