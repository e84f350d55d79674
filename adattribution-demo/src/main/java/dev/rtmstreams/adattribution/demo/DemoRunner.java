package dev.rtmstreams.adattribution.demo;

import dev.rtmstreams.adattribution.AdAttributionService;
import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.AppConfigBuilder;
import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.Matcher;
import dev.rtmstreams.adattribution.workload.OutputKind;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.tools.Directories;
import dev.rtmstreams.tools.LatencySummary;
import dev.rtmstreams.tools.TextTable;
import dev.rtmstreams.tools.TextTable.Column;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one-command demo: an embedded single-node KRaft broker, the service in process in real-time mode and then in
 * micro-batch mode, and for each mode the load generator's seed workload ({@link WorkloadGenerator}: impressions,
 * clicks on some of them, ad requests with their acks, and the workload's out-of-order, late, duplicate and orphan
 * events), sent on schedule by the load generator's paced run ({@link LoadRun}) and every output checked by its
 * oracle. End-to-end latency is the load generator's: from the send of the input record that completed a match to the
 * receipt of the output record by a consumer, all in this JVM (one clock). The first {@code warmup} of each mode is a
 * warm-up run of the same workload, not measured. Prints a table and writes a report directory.
 */
public final class DemoRunner {

    private static final Logger LOG = LoggerFactory.getLogger(DemoRunner.class);
    /** Idle time after the last send (no new output) before the outputs still missing are given up. */
    private static final Duration DRAIN = Duration.ofSeconds(30);
    /** Listening for late duplicates once every expected output arrived. */
    private static final Duration SETTLE = Duration.ofMillis(500);
    /** Lag behind the send schedule that counts as not keeping up. */
    private static final Duration BEHIND_TOLERANCE = Duration.ofSeconds(1);

    /** Demo parameters. */
    public record Settings(
            Duration duration,
            double rate,
            Duration warmup,
            int partitions,
            Path reportDir,
            List<ExecutionMode> modes,
            Duration microBatchInterval,
            long seed,
            Map<String, String> kafkaOverrides,
            boolean progress) {}

    /**
     * Results of one mode: counts over its warm-up and measured run, latencies and rates of the measured run.
     *
     * @param mode the execution mode
     * @param attribution click-attribution latency in microseconds (send of the input that completed the match to
     *     receipt of the attributed click)
     * @param correlation request/ack correlation latency in microseconds (likewise, to receipt of the log record)
     * @param sentEvents inputs sent
     * @param sentPerSecond inputs per second achieved
     * @param expectedAttributed attributed clicks the oracle expects
     * @param receivedAttributed attributed clicks received that the oracle expects
     * @param duplicateAttributed attributed clicks received more often than expected
     * @param expectedLogRecords log records the oracle expects
     * @param receivedLogRecords log records received that the oracle expects
     * @param outputsPerSecond expected outputs received per second of sending
     * @param measured how long the measured run sent
     */
    public record ModeResult(
            ExecutionMode mode,
            Histogram attribution,
            Histogram correlation,
            long sentEvents,
            double sentPerSecond,
            long expectedAttributed,
            long receivedAttributed,
            long duplicateAttributed,
            long expectedLogRecords,
            long receivedLogRecords,
            double outputsPerSecond,
            Duration measured) {}

    private final Settings settings;
    private final PrintWriter out;

    /**
     * @param settings the parameters
     * @param out where the table goes
     */
    public DemoRunner(Settings settings, PrintWriter out) {
        this.settings = settings;
        this.out = out;
    }

    /**
     * Runs the demo.
     *
     * @return the results per mode
     * @throws Exception on failure (everything started is cleaned up)
     */
    public List<ModeResult> run() throws Exception {
        List<ModeResult> results = new ArrayList<>();
        Path stateRoot = Files.createTempDirectory("adattribution-demo-state");
        out.printf(Locale.ROOT, "Starting an embedded single-node KRaft broker...%n");
        out.flush();
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().build().start()) {
            out.printf(
                    Locale.ROOT,
                    "Broker up at %s in %d ms. Load: %.0f events/s for %s per mode (first %s not measured).%n",
                    kafka.bootstrapServers(),
                    kafka.startupTime().toMillis(),
                    settings.rate(),
                    settings.duration(),
                    settings.warmup());
            out.flush();
            for (ExecutionMode mode : settings.modes()) {
                results.add(runMode(kafka, mode, stateRoot.resolve(mode.configValue())));
            }
        } finally {
            Directories.deleteQuietly(stateRoot);
        }
        Files.createDirectories(settings.reportDir());
        Path report = settings.reportDir().resolve("demo-report.json");
        Files.writeString(report, DemoReport.of(settings, results).toJson(), StandardCharsets.UTF_8);
        for (ModeResult r : results) {
            writeHistogram(
                    settings.reportDir()
                            .resolve("latency-attribution-" + r.mode().configValue() + ".hgrm"),
                    r.attribution());
            writeHistogram(
                    settings.reportDir()
                            .resolve("latency-correlation-" + r.mode().configValue() + ".hgrm"),
                    r.correlation());
        }
        printTable(results);
        out.printf(
                Locale.ROOT,
                "Full report: %s (JSON) and latency-*.hgrm percentile distributions in %s%n",
                report.toAbsolutePath(),
                settings.reportDir().toAbsolutePath());
        out.flush();
        return results;
    }

    private ModeResult runMode(EmbeddedKafkaCluster kafka, ExecutionMode mode, Path stateDir) throws Exception {
        String suffix = "." + mode.configValue();
        TopicNames topics = TopicNames.DEFAULTS.withSuffix(suffix);
        AppConfigBuilder builder = AppConfig.builder();
        settings.kafkaOverrides().forEach(builder::kafkaOverride);
        AppConfig config = builder.bootstrapServers(kafka.bootstrapServers())
                .applicationId("adattribution-demo-" + mode.configValue())
                .trigger(mode)
                .microBatchInterval(settings.microBatchInterval())
                .stateDir(stateDir)
                .createTopics(true)
                .topicPartitions(settings.partitions())
                .numStreamThreads(2 * settings.partitions())
                .httpPort(-1)
                .impressionsTopic(topics.impressions())
                .clicksTopic(topics.clicks())
                .attributedClicksTopic(topics.attributedClicks())
                .requestsTopic(topics.requests())
                .acksTopic(topics.acks())
                .logRecordsTopic(topics.logRecords())
                .dlqTopic(AdAttributionTopics.DLQ + suffix)
                .build();
        out.printf(
                Locale.ROOT,
                "[%s] starting the service (%d partitions, %d stream threads)...%n",
                mode.configValue(),
                settings.partitions(),
                config.numStreamThreads());
        out.flush();
        try (AdAttributionService service = new AdAttributionService(config)) {
            service.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!"RUNNING".equals(service.state())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("service did not reach RUNNING: " + service.state());
                }
                Thread.sleep(50);
            }
            return load(kafka, config, topics, mode);
        }
    }

    /**
     * Sends the seed workload in two runs of the load generator: the warm-up (not measured) and the measured run, each
     * drained until the oracle's outputs arrived.
     */
    private ModeResult load(EmbeddedKafkaCluster kafka, AppConfig config, TopicNames topics, ExecutionMode mode)
            throws InterruptedException {
        WorkloadConfig workload = WorkloadConfig.builder()
                .seed(settings.seed())
                .rate(settings.rate())
                .duration(settings.duration().minus(settings.warmup()))
                .attributionWindow(config.attributionWindow())
                .watermarkDelay(config.watermarkDelay())
                .build();
        List<LoadRun.Outcome> runs = new ArrayList<>();
        if (!settings.warmup().isZero()) {
            out.printf(Locale.ROOT, "[%s] warming up...%n", mode.configValue());
            out.flush();
            runs.add(send(
                    kafka,
                    config,
                    topics,
                    mode.configValue() + "-warmup",
                    workload.warmup(settings.warmup(), "w" + workload.idPrefix())));
        }
        out.printf(Locale.ROOT, "[%s] running the load...%n", mode.configValue());
        out.flush();
        LoadRun.Outcome measured = send(kafka, config, topics, mode.configValue(), workload);
        runs.add(measured);
        Matcher.KindCounts clicks = total(runs, OutputKind.ATTRIBUTED_CLICK);
        Matcher.KindCounts logRecords = total(runs, OutputKind.LOG_RECORD);
        long sent = runs.stream().mapToLong(LoadRun.Outcome::sent).sum();
        double seconds = measured.sendSpan().toNanos() / 1e9;
        out.printf(
                Locale.ROOT,
                "[%s] sent %d events in %.1f s; attributed %d/%d clicks, %d/%d log records%n",
                mode.configValue(),
                sent,
                runs.stream().mapToLong(r -> r.sendSpan().toNanos()).sum() / 1e9,
                clicks.matched(),
                clicks.expected(),
                logRecords.matched(),
                logRecords.expected());
        out.flush();
        long measuredOutputs = measured.of(OutputKind.ATTRIBUTED_CLICK).counts().matched()
                + measured.of(OutputKind.LOG_RECORD).counts().matched();
        return new ModeResult(
                mode,
                measured.of(OutputKind.ATTRIBUTED_CLICK).latencyMicros(),
                measured.of(OutputKind.LOG_RECORD).latencyMicros(),
                sent,
                measured.achievedRate(),
                clicks.expected(),
                clicks.matched(),
                clicks.duplicates(),
                logRecords.expected(),
                logRecords.matched(),
                seconds > 0 ? measuredOutputs / seconds : 0,
                measured.sendSpan());
    }

    /** One run of the load generator against the service: generated, paced, drained and checked by the oracle. */
    private LoadRun.Outcome send(
            EmbeddedKafkaCluster kafka, AppConfig config, TopicNames topics, String label, WorkloadConfig workload)
            throws InterruptedException {
        LoadRun.Settings run = new LoadRun.Settings(
                kafka.bootstrapServers(),
                topics,
                label,
                LoadRun.Outputs.SERVICE,
                config.attributionWindow(),
                config.watermarkDelay(),
                1.0,
                DRAIN,
                SETTLE,
                BEHIND_TOLERANCE,
                settings.progress(),
                Map.of(),
                workload.idPrefix(),
                AvroWire.singleObject());
        List<Event> events = WorkloadGenerator.generate(workload, System.currentTimeMillis());
        return LoadRun.run(LoadRun.attribution(events, run), workload.rate(), run, LoadRun.WindowListener.NONE);
    }

    private static Matcher.KindCounts total(List<LoadRun.Outcome> runs, OutputKind kind) {
        long expected = 0;
        long matched = 0;
        long duplicates = 0;
        for (LoadRun.Outcome r : runs) {
            Matcher.KindCounts c = r.of(kind).counts();
            expected += c.expected();
            matched += c.matched();
            duplicates += c.duplicates();
        }
        return new Matcher.KindCounts(expected, matched, duplicates);
    }

    /** One row of the latency table; latencies print as {@code -} when none was measured. */
    private static Object[] latencyCells(
            String mode, String pipeline, LatencySummary l, Object inPerSecond, Object outPerSecond) {
        boolean none = l.count() == 0;
        return new Object[] {
            mode,
            pipeline,
            none ? null : l.p50(),
            none ? null : l.p90(),
            none ? null : l.p95(),
            none ? null : l.p99(),
            none ? null : l.max(),
            l.count(),
            inPerSecond,
            outPerSecond
        };
    }

    private void printTable(List<ModeResult> results) {
        out.println();
        out.printf(Locale.ROOT, "End-to-end latency (ms), input record send -> output record received%n");
        TextTable table = new TextTable(
                Column.left("mode", 12),
                Column.left("pipeline", 18),
                Column.decimal("p50", 8, 1),
                Column.decimal("p90", 8, 1),
                Column.decimal("p95", 8, 1),
                Column.decimal("p99", 8, 1),
                Column.decimal("max", 8, 1),
                Column.right("samples", 9),
                Column.decimal("in ev/s", 10, 0),
                Column.decimal("out rec/s", 10, 0));
        for (ModeResult r : results) {
            LatencySummary a = LatencySummary.of(r.attribution());
            LatencySummary c = LatencySummary.of(r.correlation());
            table.row(latencyCells(
                    r.mode().configValue(), "click-attribution", a, r.sentPerSecond(), r.outputsPerSecond()));
            table.row(latencyCells("", "request-ack", c, "", ""));
        }
        out.print(table.render());
        out.printf(Locale.ROOT, "%nCorrectness: ");
        for (ModeResult r : results) {
            out.printf(
                    Locale.ROOT,
                    "%s attributed %d of %d clicks (%d duplicates), %d of %d log records. ",
                    r.mode().configValue(),
                    r.receivedAttributed(),
                    r.expectedAttributed(),
                    r.duplicateAttributed(),
                    r.receivedLogRecords(),
                    r.expectedLogRecords());
        }
        out.println();
        if (results.size() == 2
                && results.get(0).attribution().getTotalCount() > 0
                && results.get(1).attribution().getTotalCount() > 0) {
            double p99a = results.get(0).attribution().getValueAtPercentile(99);
            double p99b = results.get(1).attribution().getValueAtPercentile(99);
            String a = results.get(0).mode().configValue();
            String b = results.get(1).mode().configValue();
            if (p99a <= p99b) {
                out.printf(
                        Locale.ROOT,
                        "p99 click attribution: %s is %.1fx lower than %s (same machine, same run).%n",
                        a,
                        p99b / Math.max(1, p99a),
                        b);
            } else {
                out.printf(
                        Locale.ROOT,
                        "p99 click attribution: %s is %.1fx HIGHER than %s (same machine, same run):"
                                + " it did not keep up with the load; try a lower --rate.%n",
                        a,
                        p99a / Math.max(1, p99b),
                        b);
            }
        }
        out.flush();
    }

    private static void writeHistogram(Path file, Histogram h) throws IOException {
        try (java.io.PrintStream ps =
                new java.io.PrintStream(Files.newOutputStream(file), true, StandardCharsets.UTF_8)) {
            if (h.getTotalCount() > 0) {
                h.outputPercentileDistribution(ps, 1000.0); // values in ms
            }
        }
    }
}
