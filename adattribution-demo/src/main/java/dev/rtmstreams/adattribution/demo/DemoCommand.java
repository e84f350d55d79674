package dev.rtmstreams.adattribution.demo;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.tools.cli.RateOption;
import dev.rtmstreams.tools.cli.SeedOption;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code demo}: embedded KRaft broker + the service in real-time mode, then in micro-batch mode, each under a short
 * paced load of the seed workload; prints the latency/throughput table and writes a report. Cleans up after itself.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Run the embedded demo: a real single-node KRaft broker in this JVM, the service in real-time"
                + " then micro-batch mode, a paced load per mode, and a table of end-to-end latency p50/p90/p95/p99/max"
                + " and throughput for both modes. Needs no Docker and no running Kafka.")
public final class DemoCommand implements Callable<Integer> {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "PT60S",
            description = "Load duration per mode (PT30S or 30s). Default: ${DEFAULT-VALUE}.")
    private Duration duration;

    /** Input events per second (impressions, clicks, requests, acks together). */
    @Mixin
    private RateOption rate = new RateOption(1000);

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            defaultValue = "PT5S",
            description =
                    "Start of each mode's load left out of the latency figures (JIT warm-up). Default: ${DEFAULT-VALUE}.")
    private Duration warmup;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "1",
            description =
                    "Partitions per topic; the service gets one stream thread per task (2 x N). Default: ${DEFAULT-VALUE}.")
    private int partitions;

    @Option(
            names = "--micro-batch-interval",
            paramLabel = "DURATION",
            defaultValue = "PT1S",
            description = "Batch interval of the micro-batch run. Default: ${DEFAULT-VALUE}.")
    private Duration microBatchInterval;

    @Option(
            names = "--modes",
            paramLabel = "MODE",
            split = ",",
            defaultValue = "real-time,micro-batch",
            description = "Modes to run, in order. Default: ${DEFAULT-VALUE}.")
    private List<String> modes;

    @Option(
            names = "--report-dir",
            paramLabel = "DIR",
            defaultValue = "adattribution-demo-report",
            description = "Where the JSON report, the latency distributions, the log (demo.log) and the epoch progress"
                    + " (epochs.jsonl) go. Default: ${DEFAULT-VALUE}.")
    private Path reportDir;

    @Option(
            names = "--kafka",
            paramLabel = "KEY=VALUE",
            description =
                    "Extra Kafka Streams / client property for the service, repeatable (e.g. producer.linger.ms=1).")
    private java.util.Map<String, String> kafkaOverrides = new java.util.LinkedHashMap<>();

    @Option(
            names = "--verbose",
            description = "Print the service's logs and the epoch progress JSON on the console instead of files.")
    private boolean verbose;

    @Option(names = "--no-progress", description = "No progress bar (it is drawn only on a terminal anyway).")
    private boolean noProgress;

    @Mixin
    private SeedOption seed = new SeedOption();

    @Override
    public Integer call() throws Exception {
        Duration d = positive("--duration", duration);
        Duration w = positive("--warmup", warmup);
        Duration mb = positive("--micro-batch-interval", microBatchInterval);
        if (!(rate.rate() > 0)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "Invalid value for option '--rate': must be positive: " + rate.rate());
        }
        if (partitions < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "Invalid value for option '--partitions': must be positive: " + partitions);
        }
        if (w.compareTo(d) >= 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "Invalid value for option '--warmup': must be shorter than --duration " + d + ": " + w);
        }
        List<ExecutionMode> parsedModes = new ArrayList<>();
        for (String m : modes) {
            try {
                parsedModes.add(ExecutionMode.fromConfig(m));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "Invalid value for option '--modes': " + e.getMessage());
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (!verbose) {
            DemoLogging.toFiles(reportDir)
                    .ifPresent(f -> out.printf(
                            Locale.ROOT,
                            "Logs go to %s, epoch progress (one JSON line per epoch) to %s (--verbose: console).%n",
                            f.log(),
                            f.epochs()));
        }
        try {
            new DemoRunner(
                            new DemoRunner.Settings(
                                    d,
                                    rate.rate(),
                                    w,
                                    partitions,
                                    reportDir,
                                    parsedModes,
                                    mb,
                                    seed.seed(),
                                    kafkaOverrides,
                                    !noProgress && System.console() != null),
                            out)
                    .run();
        } catch (Exception e) {
            // One line naming what went wrong; the stack trace is in the log file.
            LoggerFactory.getLogger(DemoCommand.class).error("event=demo-failed", e);
            spec.commandLine().getErr().println("demo failed: " + e);
            return 1;
        }
        return 0;
    }

    /** Durations arrive parsed ({@link dev.rtmstreams.cli.DurationConverter}); this checks they are positive. */
    private Duration positive(String option, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "Invalid value for option '" + option + "': must be positive: '" + value + "'");
        }
        return value;
    }
}
