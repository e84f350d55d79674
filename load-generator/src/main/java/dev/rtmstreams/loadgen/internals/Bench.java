package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.adattribution.workload.RunSpec;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The benchmark: the same seeded workload against each mode in turn, each on a fresh broker
 * (unless a cluster is given), with a warm-up and a measured run sent as one continuous stream, a drain, and one
 * report per mode plus a combined picture and a console table. The warm-up's outputs are checked like the others; its
 * latency and cost are left out.
 *
 * <p>Modes: {@code echo} (pass-through floor, {@link EchoPipeline}), the Kafka Streams peers ({@link
 * KafkaStreamsPeer}: {@code kafka-streams-join}, the stock {@code KStream#join}; {@code kafka-streams-join-tuned}, the
 * same join with real-time mode's client settings; {@code kafka-streams-passthrough}, a Kafka Streams copy checked
 * like the echo), {@code real-time} and {@code micro-batch} (the service in a
 * child JVM, {@link ServiceProcess#startService}), {@code micro-batch-asap} (the service in micro-batch mode with
 * interval 0: as fast as possible, Spark's {@code Trigger.ProcessingTime("0 minutes")}), and one
 * {@code real-time-LABEL} per {@link BenchModes.Variant} (the service from another fat jar, to compare two builds).
 *
 * <p>{@link BenchOptions#benchWorkload()} picks what is sent and checked: the ad-attribution workload (above), or one of
 * the published latency workloads ({@link LatencyWorkload}), whose system under test in modes {@code real-time},
 * {@code micro-batch} and {@code micro-batch-asap} is the rtm-examples program of the same name in a child JVM
 * ({@code --source kafka --serve}), and whose {@code echo} copies every row.
 *
 * <p>Every mode report has a {@code cost} section measured over the measured window only ({@link
 * CostMeter}): CPU of the system-under-test JVM and of the broker, per event, and GC pauses.
 * {@link #findMax} searches each mode's highest sustained rate ({@link FindMax}).
 *
 * <p>This class runs the modes and plans each run; the pieces it runs with live apart: the options
 * ({@link BenchOptions}), the mode names and variants ({@link BenchModes}), the cluster and topics of a run
 * ({@link BenchCluster}), the system under test ({@link SystemUnderTest}) and what a report says about the setting
 * ({@link RunDescriptions}).
 */
final class Bench {

    private static final Logger LOG = LoggerFactory.getLogger(Bench.class);

    private Bench() {}

    /**
     * Runs every mode and writes the reports.
     *
     * @param o the options
     * @return one report per mode
     * @throws Exception if a mode cannot be set up
     */
    public static List<LoadReport> run(BenchOptions o) throws Exception {
        requireExamplesJar(o);
        Files.createDirectories(o.reportDir());
        Double benchLoad = RunDescriptions.loadAtBenchStart();
        List<LoadReport> reports = new ArrayList<>();
        String nonce = nonce(o);
        List<Double> rates = o.rates().isEmpty() ? List.of(o.workload().rate()) : o.rates();
        for (double rate : rates) {
            BenchOptions atRate = o.atRate(rate);
            for (String mode : o.modes()) {
                System.err.printf(Locale.ROOT, "== mode %s at %.0f events/s%n", mode, rate);
                LoadReport report = runMode(atRate, mode, nonce, benchLoad);
                String name =
                        rates.size() == 1 ? "report-" + mode : String.format(Locale.ROOT, "report-%s-%.0f", mode, rate);
                if (rates.size() > 1) {
                    report = report.withMode(String.format(Locale.ROOT, "%s@%.0f", mode, rate));
                }
                ReportWriter.writeRun(o.reportDir(), name, report);
                reports.add(report);
                ReportWriter.writeCombined(o.reportDir(), reports);
            }
        }
        reports = ReportWriter.withEchoRatios(reports);
        Path html = ReportWriter.writeCombined(o.reportDir(), reports);
        ReportWriter.printTable(System.out, reports);
        System.out.println(
                "reports: " + o.reportDir().toAbsolutePath() + " (combined picture: " + html.getFileName() + ")");
        return reports;
    }

    /**
     * Searches each mode's highest sustained rate ({@link FindMax}): every probe is a full mode run (fresh broker,
     * warm-up, measured run, drain) at one rate. Writes {@code probe-<mode>-<rate>.json/.html} per probe,
     * {@code find-max.json} and {@code p99-vs-rate.svg} into the report directory and prints a table.
     *
     * @param o the options (the workload's rate and {@link BenchOptions#rates()} are ignored)
     * @param settings the search settings
     * @return one result per mode
     * @throws Exception if the report cannot be written
     */
    public static List<FindMax.Result> findMax(BenchOptions o, FindMax.Settings settings) throws Exception {
        requireExamplesJar(o);
        Files.createDirectories(o.reportDir());
        Double benchLoad = RunDescriptions.loadAtBenchStart();
        String nonce = nonce(o);
        RunDescriptions.SearchEnvironment env = RunDescriptions.findMaxEnvironment(o, benchLoad);
        List<FindMax.Result> results = new ArrayList<>();
        for (String mode : o.modes()) {
            System.err.printf(Locale.ROOT, "== find-max of mode %s from %.0f events/s%n", mode, settings.start());
            FindMax.Result r = FindMax.search(mode, settings, rate -> {
                System.err.printf(Locale.ROOT, "== mode %s at %.0f events/s (find-max probe)%n", mode, rate);
                LoadReport run = runMode(o.atRate(rate), mode, nonce, benchLoad);
                FindMax.Probe p = FindMax.probeOf(rate, run);
                LoadReport report = run.withProbe(new LoadReport.Probe(p.pass(), p.reason()));
                ReportWriter.writeRun(o.reportDir(), String.format(Locale.ROOT, "probe-%s-%.0f", mode, rate), report);
                return p;
            });
            results.add(r);
            ReportWriter.writeFindMax(o.reportDir(), settings, results, env);
        }
        ReportWriter.writeFindMax(o.reportDir(), settings, results, env);
        FindMax.printTable(System.out, results);
        System.out.println("find-max: " + o.reportDir().resolve("find-max.json").toAbsolutePath() + " (plot: "
                + "p99-vs-rate.svg)");
        return results;
    }

    /**
     * Fails before any broker starts when a published workload needs the rtm-examples jar, or a Spark mode the Spark
     * peer's build, and it is missing.
     */
    private static void requireExamplesJar(BenchOptions o) {
        if (o.modes().stream().anyMatch(SparkPeers::isSpark)) {
            SparkPeers.requireBuild(o.sparkDir());
        }
        boolean needed = o.benchWorkload().isPublished()
                && o.modes().stream().anyMatch(m -> !m.equals("echo") && !SparkPeers.isSpark(m));
        if (needed && !Files.isRegularFile(o.examplesJar())) {
            throw new IllegalArgumentException(
                    "rtm-examples jar not found: " + o.examplesJar().toAbsolutePath()
                            + " (build it with: mvn -B -pl rtm-examples-runner -am package -DskipTests, or pass --examples-jar)");
        }
    }

    private static String nonce(BenchOptions o) {
        return o.bootstrapServers().isPresent()
                ? Long.toString(System.currentTimeMillis() % 100_000_000L, 36) + "-"
                : "";
    }

    private static LoadReport runMode(BenchOptions o, String mode, String nonce, Double benchLoad) throws Exception {
        OptionalDouble modeLoad = ProcStat.loadAverage1m();
        try (BenchCluster cluster = BenchCluster.start(o)) {
            String bootstrap = cluster.bootstrapServers();
            String suffix = nonce.isEmpty() ? "" : "-" + nonce + mode;
            TopicNames topics = TopicNames.DEFAULTS.withSuffix(suffix);
            LatencyWorkload.Topics rowTopics = LatencyWorkload.Topics.DEFAULTS.withSuffix(suffix);
            BenchCluster.createTopics(
                    bootstrap,
                    o.benchWorkload().isPublished()
                            ? List.of(rowTopics.input(), rowTopics.output())
                            : BenchCluster.allTopics(topics),
                    o.partitions(),
                    o.replicationFactor());
            String appId = "loadgen-" + mode + "-" + System.currentTimeMillis();
            long t0 = System.nanoTime();
            try (SystemUnderTest sut = SystemUnderTest.start(o, mode, bootstrap, suffix, topics, rowTopics, appId)) {
                LOG.info("{} ready in {} ms", mode, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                String prefix = nonce + o.workload().idPrefix();
                LoadRun.Settings ms = settings(o, bootstrap, topics, mode, sut.outputs(), prefix, o.drain());
                // one continuous run: the warm-up's inputs first, then the measured ones on the same schedule,
                // producer and consumer, so the measured window starts in steady state (no pause, no new clients, no
                // cold path)
                Plan plan = plan(o, mode, ms, rowTopics);
                String description = sut.group() != null && o.instances() > 1
                        ? BenchModes.description(mode) + ", " + o.instances() + " instances with one application id"
                        : BenchModes.description(mode);
                RunDescriptions.Environment env = RunDescriptions.environment(
                        o, bootstrap, benchLoad, modeLoad.isPresent() ? modeLoad.getAsDouble() : null);
                // Generating the plan leaves this JVM's heap full of young objects that survive; collect them now,
                // while the system under test is idle, rather than in a long young pause that stalls the pacer inside
                // the window
                System.gc();
                CostMeter meter = CostMeter.withBrokers(sut.suts(), cluster.brokerPids());
                meter.beforeRun();
                RunReport run = LoadRun.run(plan.spec(), plan.rate(), ms, meter, plan.firstMeasured())
                        .report();
                meter.afterRun();
                long events = run.sending().eventsSent();
                return LoadReport.of(
                        run,
                        new LoadReport.Setting(description, plan.description(), env, null, null),
                        meter.report(events),
                        sut.group() != null ? sut.group().report(meter, events) : null);
            }
        }
    }

    /**
     * What one run of a mode sends and checks.
     *
     * @param spec inputs (warm-up, then measured), outputs and oracle
     * @param rate inputs per second
     * @param description the measured part of the workload, for the report
     * @param firstMeasured index of the first input after the warm-up
     */
    private record Plan(
            RunSpec spec, double rate, RunDescriptions.WorkloadDescription description, int firstMeasured) {}

    /**
     * Generates the inputs of a mode's run: the warm-up and the measured run as one workload (ids start with the
     * settings' prefix), the measured part starting at the first input scheduled at or after the warm-up's length.
     */
    private static Plan plan(BenchOptions o, String mode, LoadRun.Settings settings, LatencyWorkload.Topics rowTopics) {
        Duration total = o.warmup().plus(o.workload().duration());
        WorkloadConfig measured =
                o.workload().toBuilder().idPrefix(settings.idPrefix()).build();
        WorkloadConfig w = measured.toBuilder().duration(total).build();
        RunSpec spec;
        RunDescriptions.WorkloadDescription description;
        if (!o.benchWorkload().isPublished()) {
            spec = LoadRun.attribution(WorkloadGenerator.generate(w, System.currentTimeMillis()), settings);
            description = RunDescriptions.workloadDescription(measured);
        } else {
            LatencyWorkload rows = new LatencyWorkload(
                    o.benchWorkload(),
                    w.seed(),
                    w.rate(),
                    total,
                    settings.idPrefix(),
                    o.rowBytes(),
                    System.currentTimeMillis());
            spec = rows.spec(rowTopics, mode.equals("echo"));
            description = rows.describe(w.seed());
        }
        return new Plan(spec, w.rate(), description, firstMeasured(spec, o.warmup()));
    }

    /**
     * @return the index of the first input scheduled at or after {@code warmup} (0 without a warm-up)
     * @throws IllegalArgumentException if the warm-up covers every input
     */
    static int firstMeasured(RunSpec spec, Duration warmup) {
        long micros = warmup.toNanos() / 1000;
        int lo = 0;
        int hi = spec.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (spec.offsetMicros(mid) < micros) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo >= spec.size() && lo > 0) {
            throw new IllegalArgumentException("the warm-up (" + warmup + ") covers every input of the run");
        }
        return lo;
    }

    private static LoadRun.Settings settings(
            BenchOptions o,
            String bootstrap,
            TopicNames topics,
            String mode,
            LoadRun.Outputs outputs,
            String prefix,
            Duration drain) {
        return new LoadRun.Settings(
                bootstrap,
                topics,
                mode,
                outputs,
                o.workload().attributionWindow(),
                o.workload().watermarkDelay(),
                1.0,
                drain,
                Duration.ofSeconds(2),
                Duration.ofSeconds(1),
                o.progress(),
                o.replicationFactor() > 1 ? Map.of("acks", "all", "enable.idempotence", "true") : Map.of(),
                prefix,
                AvroWire.singleObject());
    }
}
