package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import dev.rtmstreams.loadgen.internals.Commands.RunOptions;
import dev.rtmstreams.loadgen.internals.Commands.WorkloadOptions;
import dev.rtmstreams.tools.ServiceJar;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code run}: generate, send at a rate, check outputs; optionally against service instances it starts itself. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Send a generated workload to a running service at a target rate and check its outputs.",
            "With --app-jar: start --instances service instances from that jar on the cluster first (one application"
                    + " id, each with its own state directory, HTTP port and log in --report-dir), wait until every"
                    + " one is RUNNING with active tasks of its own, run, and add to the report the CPU of each"
                    + " instance and the group's assignment (instances section); stop them at the end."
        })
final class RunCommand implements Callable<Integer> {

    /** Longest wait for the started instances to get ready, and again for their group to settle. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    @Option(names = "--bootstrap-servers", required = true, description = "HOST:PORT of the cluster.")
    String bootstrapServers;

    @Option(names = "--report-dir", required = true, description = "Where the JSON report and picture go.")
    Path reportDir;

    @Option(
            names = "--app-jar",
            paramLabel = "JAR",
            description = "Start the service from this fat jar (--instances of it) instead of sending to one already"
                    + " running. Not with a secured cluster or --wire-format confluent: start the service yourself"
                    + " then.")
    Path appJar;

    @Option(
            names = "--instances",
            paramLabel = "N",
            defaultValue = "1",
            description = "With --app-jar: service instances to start, sharing one application id. Without --app-jar"
                    + " only 1 (the run then sends to the instances you run). Default: ${DEFAULT-VALUE}.")
    int instances;

    @Option(
            names = "--partitions",
            description = "With --app-jar: partitions of the topics the run creates when missing; at least"
                    + " --instances, and existing input topics must have as many. Default: 2, or 2 per instance.")
    Integer partitions;

    @Option(
            names = "--trigger",
            defaultValue = "real-time",
            description = "With --app-jar: the service's trigger, real-time or micro-batch. Default: ${DEFAULT-VALUE}.")
    String trigger;

    @Option(
            names = "--stream-threads",
            defaultValue = "2",
            description = "With --app-jar: stream threads of each instance. Default: ${DEFAULT-VALUE}.")
    int streamThreads;

    @Option(
            names = "--app-jvm-option",
            description = "With --app-jar: JVM option of each instance (repeatable). Default: -Xmx1g.")
    List<String> appJvmOptions;

    @Option(
            names = "--app-arg",
            description = "With --app-jar: extra argument to each instance's run command (repeatable).")
    List<String> appArgs = new ArrayList<>();

    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Mixin
    RunOptions run = new RunOptions();

    @Override
    public Integer call() throws Exception {
        WorkloadConfig config = workload.build(0.1);
        Map<String, Object> clients = run.clientProperties(System::getenv);
        LoadRun.Settings s = run.settings(
                bootstrapServers, clients, config.attributionWindow(), config.watermarkDelay(), 1.0, config.idPrefix());
        int p = validateServiceOptions(clients);
        RunDescriptions.AttributionWorkload description = RunDescriptions.workloadDescription(config);
        run.verifyAccess(bootstrapServers, clients);
        List<Event> events = WorkloadGenerator.generate(config, System.currentTimeMillis());
        if (appJar == null) {
            LoadReport report = LoadReport.of(
                    LoadRun.execute(events, config.rate(), s),
                    new LoadReport.Setting(null, description, null, null, null),
                    null,
                    null);
            return Commands.finish(report, reportDir, "report-" + run.mode);
        }
        TopicNames topics = run.topics();
        List<String> inputs = List.of(topics.impressions(), topics.clicks(), topics.requests(), topics.acks());
        List<String> all = new ArrayList<>(inputs);
        all.addAll(List.of(topics.attributedClicks(), topics.logRecords()));
        BenchCluster.createTopics(bootstrapServers, all, p);
        BenchCluster.partitions(bootstrapServers, inputs).forEach((topic, n) -> {
            if (n < instances) {
                throw new IllegalArgumentException("topic " + topic + " has " + n + " partitions, fewer than"
                        + " --instances " + instances + ": an instance would hold no partition");
            }
        });
        String appId = "loadgen-run-" + System.currentTimeMillis();
        java.nio.file.Files.createDirectories(reportDir);
        try (ServiceGroup group = ServiceGroup.start(
                instances,
                (index, label, stateDir) -> ServiceProcess.startService(
                        "service (" + label + ")",
                        appJar,
                        bootstrapServers,
                        trigger,
                        appId,
                        stateDir,
                        reportDir.resolve("service-" + label + ".log"),
                        appJvmOptions != null ? appJvmOptions : List.of("-Xmx1g"),
                        ServiceProcess.serviceArgs(
                                streamThreads,
                                topics,
                                config.attributionWindow(),
                                config.watermarkDelay(),
                                appArgs,
                                List.of())),
                READY_TIMEOUT)) {
            CostMeter meter = new CostMeter(group.suts(), null);
            meter.beforeRun();
            RunReport measured = LoadRun.execute(events, config.rate(), s, meter);
            meter.afterRun();
            long sent = measured.sending().eventsSent();
            LoadReport report = LoadReport.of(
                    measured,
                    new LoadReport.Setting(null, description, null, appId, null),
                    meter.report(sent),
                    group.report(meter, sent));
            return Commands.finish(report, reportDir, "report-" + run.mode);
        }
    }

    /**
     * Checks the options of the instances this run starts, before anything is sent or started.
     *
     * @param clients the run's Kafka client properties
     * @return the partitions of the topics to create (with {@code --app-jar})
     * @throws IllegalArgumentException naming the option: an option that needs {@code --app-jar} without it,
     *     instances out of range, fewer partitions than instances, a trigger other than real-time or micro-batch,
     *     {@code --app-jar} with Kafka client properties or a wire format other than single-object
     */
    int validateServiceOptions(Map<String, Object> clients) {
        if (appJar == null) {
            if (instances != 1) {
                throw new IllegalArgumentException("--instances " + instances + " needs --app-jar: without it, run"
                        + " sends to the service you run (start your instances with one application id yourself)");
            }
            if (partitions != null || appJvmOptions != null || !appArgs.isEmpty()) {
                throw new IllegalArgumentException(
                        "--partitions, --app-jvm-option and --app-arg need --app-jar (they set up the instances run"
                                + " starts)");
            }
            return 0;
        }
        ServiceJar.requireJar(appJar);
        if (instances < 1) {
            throw new IllegalArgumentException("--instances must be positive: " + instances);
        }
        if (!trigger.equals("real-time") && !trigger.equals("micro-batch")) {
            throw new IllegalArgumentException("--trigger must be real-time or micro-batch: " + trigger);
        }
        if (streamThreads < 1) {
            throw new IllegalArgumentException("--stream-threads must be positive: " + streamThreads);
        }
        if (!clients.isEmpty()) {
            throw new IllegalArgumentException("--app-jar starts the service without Kafka client settings; this run"
                    + " has some (--kafka-config, RTM_KAFKA_*, --client-property: " + clients.keySet() + "): start"
                    + " the service yourself and run without --app-jar");
        }
        if (WireFormat.parse(run.wireFormat) != WireFormat.SINGLE_OBJECT) {
            throw new IllegalArgumentException("--app-jar starts the service with the single-object wire format;"
                    + " with --wire-format confluent start the service yourself and run without --app-jar");
        }
        return BenchOptionsCheck.partitionsFor(partitions, instances);
    }
}
