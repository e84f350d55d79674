package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.RunSpec;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import dev.rtmstreams.testkit.ChildJvm;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.KafkaCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The benchmark: the same seeded workload against each mode in turn, each on a fresh broker
 * (unless a cluster is given), with a warm-up and a measured run sent as one continuous stream, a drain, and one
 * report per mode plus a combined picture and a console table. The warm-up's outputs are checked like the others; its
 * latency and cost are left out.
 *
 * <p>Modes: {@code echo} (pass-through floor, {@link EchoPipeline}), {@code kafka-streams-join}
 * ({@link KafkaStreamsJoinPipeline}), {@code real-time} and {@code micro-batch} (the service in a
 * child JVM, {@link ServiceProcess#startService}), {@code micro-batch-asap} (the service in micro-batch mode with
 * interval 0: as fast as possible, Spark's {@code Trigger.ProcessingTime("0 minutes")}), and one
 * {@code real-time-LABEL} per {@link Variant} (the service from another fat jar, to compare two builds).
 *
 * <p>{@link Options#benchWorkload()} picks what is sent and checked: the ad-attribution workload (above), or one of
 * the published latency workloads ({@link LatencyWorkload}), whose system under test in modes {@code real-time},
 * {@code micro-batch} and {@code micro-batch-asap} is the rtm-examples program of the same name in a child JVM
 * ({@code --source kafka --serve}), and whose {@code echo} copies every row.
 *
 * <p>Every mode report has a {@code cost} section measured over the measured window only ({@link
 * CostMeter}): CPU of the system-under-test JVM and of the broker, per event, and GC pauses.
 * {@link #findMax} searches each mode's highest sustained rate ({@link FindMax}).
 */
public final class Bench {

    private static final Logger LOG = LoggerFactory.getLogger(Bench.class);

    /** The modes run when none are chosen, in order. */
    public static final List<String> DEFAULT_MODES = List.of("echo", "real-time", "micro-batch", "kafka-streams-join");

    /** Every built-in mode (the defaults plus {@code micro-batch-asap}); variants add {@code real-time-LABEL}. */
    public static final List<String> MODES =
            List.of("echo", "real-time", "micro-batch", "micro-batch-asap", "kafka-streams-join");

    /** The service's fat jar when none is given (relative to the working directory). */
    public static final Path DEFAULT_APP_JAR = Path.of("adattribution-app", "target", "adattribution-app.jar");

    /** The rtm-examples fat jar when none is given (relative to the working directory). */
    public static final Path DEFAULT_EXAMPLES_JAR = Path.of("rtm-examples", "target", "rtm-examples.jar");

    /** Prefix of the mode of a {@link Variant}. */
    public static final String VARIANT_PREFIX = "real-time-";

    /** Above this 1-minute load average at bench start, the bench warns that the machine is busy. */
    public static final double BUSY_LOAD = 1.0;

    /**
     * Another build of the service, run in real-time mode as mode {@code real-time-LABEL} (A/B comparison).
     *
     * @param label the label: letters, digits, '.', '_' and '-'; not a built-in mode name
     * @param jar the service's fat jar of that build
     * @param args extra service arguments of this variant only (after the common {@code --app-arg}s)
     */
    public record Variant(String label, Path jar, List<String> args) {
        /** Validates. */
        public Variant {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(jar, "jar");
            if (!label.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException(
                        "variant label must be letters, digits, '.', '_' or '-': '" + label + "'");
            }
            if (MODES.contains(label)) {
                throw new IllegalArgumentException("variant label must not be a mode name: '" + label + "'");
            }
            args = List.copyOf(args);
        }

        /** @return the mode that runs this variant: {@code real-time-LABEL} */
        public String mode() {
            return VARIANT_PREFIX + label;
        }
    }

    /**
     * Parses {@code --variant LABEL=JAR} and {@code --variant-arg LABEL=ARG} values.
     *
     * @param variants LABEL=JAR, one per variant
     * @param variantArgs LABEL=ARG, in order; ARG is one service argument (repeat for an option and its value)
     * @return the variants by label, in the order given
     * @throws IllegalArgumentException on a missing '=', an empty part, a repeated label, a bad label, or an
     *     argument for an unknown label
     */
    public static Map<String, Variant> parseVariants(List<String> variants, List<String> variantArgs) {
        Map<String, Path> jars = new LinkedHashMap<>();
        for (String v : variants) {
            String[] kv = splitLabel(v, "--variant", "LABEL=JAR");
            if (jars.put(kv[0], Path.of(kv[1])) != null) {
                throw new IllegalArgumentException("--variant label given twice: '" + kv[0] + "'");
            }
        }
        Map<String, List<String>> args = new LinkedHashMap<>();
        for (String a : variantArgs) {
            String[] kv = splitLabel(a, "--variant-arg", "LABEL=ARG");
            if (!jars.containsKey(kv[0])) {
                throw new IllegalArgumentException("--variant-arg for an unknown variant '" + kv[0] + "' (known: "
                        + String.join(",", jars.keySet()) + ")");
            }
            args.computeIfAbsent(kv[0], k -> new ArrayList<>()).add(kv[1]);
        }
        Map<String, Variant> out = new LinkedHashMap<>();
        jars.forEach((label, jar) -> out.put(label, new Variant(label, jar, args.getOrDefault(label, List.of()))));
        return out;
    }

    private static String[] splitLabel(String spec, String option, String form) {
        int eq = spec.indexOf('=');
        if (eq <= 0 || eq == spec.length() - 1) {
            throw new IllegalArgumentException(option + " must be " + form + ": '" + spec + "'");
        }
        return new String[] {spec.substring(0, eq), spec.substring(eq + 1)};
    }

    /**
     * Resolves the modes chosen on the command line: built-in modes, {@code real-time-LABEL} or a bare variant
     * LABEL (meaning {@code real-time-LABEL}).
     *
     * @param requested the chosen modes, or null/empty for the defaults plus every variant
     * @param variants the variants by label
     * @return the mode names, in order
     * @throws IllegalArgumentException naming an unknown mode
     */
    public static List<String> resolveModes(List<String> requested, Map<String, Variant> variants) {
        return resolveModes(requested, variants, BenchWorkload.ATTRIBUTION);
    }

    /**
     * Resolves the modes chosen on the command line for a workload; see {@link #resolveModes(List, Map)}. Whether the
     * modes can run the workload is checked by {@link Options}.
     *
     * @param requested the chosen modes, or null/empty for the workload's defaults plus every variant
     * @param variants the variants by label
     * @param workload the workload
     * @return the mode names, in order
     * @throws IllegalArgumentException naming an unknown mode
     */
    public static List<String> resolveModes(
            List<String> requested, Map<String, Variant> variants, BenchWorkload workload) {
        List<String> out = new ArrayList<>();
        if (requested == null || requested.isEmpty()) {
            out.addAll(workload.defaultModes());
            variants.values().forEach(v -> out.add(v.mode()));
            return out;
        }
        for (String m : requested) {
            String t = m.trim();
            if (variants.containsKey(t)) {
                t = variants.get(t).mode();
            }
            if (!MODES.contains(t) && variantOf(t, variants) == null) {
                throw new IllegalArgumentException(
                        "unknown mode '" + m + "'; known: " + String.join(",", knownModes(variants)));
            }
            out.add(t);
        }
        return out;
    }

    private static List<String> knownModes(Map<String, Variant> variants) {
        List<String> known = new ArrayList<>(MODES);
        variants.values().forEach(v -> known.add(v.mode()));
        return known;
    }

    private static Variant variantOf(String mode, Map<String, Variant> variants) {
        if (!mode.startsWith(VARIANT_PREFIX)) {
            return null;
        }
        return variants.get(mode.substring(VARIANT_PREFIX.length()));
    }

    /** Where the broker of a mode runs when no cluster is given. */
    public enum BrokerKind {
        /** In this JVM (KafkaClusterTestKit): starts fastest. */
        IN_PROCESS,
        /** In its own JVM: its GC and threads are apart from the generator's. */
        CHILD_PROCESS
    }

    /**
     * Benchmark options; immutable, built and validated by {@link #builder()}.
     *
     * <pre>{@code
     * Bench.Options o = Bench.Options.builder()
     *         .workload(WorkloadConfig.builder().rate(5000).duration(Duration.ofMinutes(1)).build())
     *         .reportDir(Path.of("target/bench"))
     *         .modes(List.of("echo", "real-time"))
     *         .build();
     * }</pre>
     */
    public static final class Options {

        private final WorkloadConfig workload;
        private final List<String> modes;
        private final Optional<String> bootstrapServers;
        private final BrokerKind broker;
        private final Path reportDir;
        private final Path appJar;
        private final List<String> appJvmOptions;
        private final List<String> appArgs;
        private final int partitions;
        private final Duration warmup;
        private final Duration drain;
        private final Duration readyTimeout;
        private final boolean progress;
        private final int streamThreads;
        private final boolean peersInChildJvm;
        private final List<Double> rates;
        private final Map<String, Variant> variants;
        private final BenchWorkload benchWorkload;
        private final Path examplesJar;
        private final int rowBytes;

        private Options(Builder b, List<String> modes) {
            this.workload = b.workload;
            this.modes = List.copyOf(modes);
            this.bootstrapServers = Optional.ofNullable(b.bootstrapServers);
            this.broker = b.broker;
            this.reportDir = b.reportDir;
            this.appJar = b.appJar;
            this.appJvmOptions = List.copyOf(b.appJvmOptions);
            this.appArgs = List.copyOf(b.appArgs);
            this.partitions = b.partitions;
            this.warmup = b.warmup;
            this.drain = b.drain;
            this.readyTimeout = b.readyTimeout;
            this.progress = b.progress;
            this.streamThreads = b.streamThreads;
            this.peersInChildJvm = b.peersInChildJvm;
            this.rates = List.copyOf(b.rates);
            this.variants = Collections.unmodifiableMap(new LinkedHashMap<>(b.variants));
            this.benchWorkload = b.benchWorkload;
            this.examplesJar = b.examplesJar;
            this.rowBytes = b.rowBytes;
        }

        /**
         * Returns a builder with the {@code bench} command's defaults: the workload's default modes plus every variant,
         * a fresh broker per mode in its own JVM, the service from {@link Bench#DEFAULT_APP_JAR} with {@code -Xmx1g}, 2
         * partitions, a 3-minute warm-up, a 30 s drain, a 120 s ready timeout, the progress bar, 2 stream threads, peers in
         * their own JVM, no rate sweep, no variants, the {@link BenchWorkload#ATTRIBUTION} workload,
         * {@link Bench#DEFAULT_EXAMPLES_JAR} and {@link LatencyWorkload#DEFAULT_ROW_BYTES}. The workload and the report
         * directory have no default.
         *
         * @return a new builder
         */
        public static Builder builder() {
            return new Builder();
        }

        /** @return a builder holding these options, to change some of them */
        public Builder toBuilder() {
            return new Builder()
                    .workload(workload)
                    .modes(modes)
                    .bootstrapServers(bootstrapServers.orElse(null))
                    .broker(broker)
                    .reportDir(reportDir)
                    .appJar(appJar)
                    .appJvmOptions(appJvmOptions)
                    .appArgs(appArgs)
                    .partitions(partitions)
                    .warmup(warmup)
                    .drain(drain)
                    .readyTimeout(readyTimeout)
                    .progress(progress)
                    .streamThreads(streamThreads)
                    .peersInChildJvm(peersInChildJvm)
                    .rates(rates)
                    .variants(variants)
                    .benchWorkload(benchWorkload)
                    .examplesJar(examplesJar)
                    .rowBytes(rowBytes);
        }

        /**
         * These options at another rate, without a sweep.
         *
         * @param rate events/s
         * @return the options
         */
        public Options atRate(double rate) {
            return toBuilder()
                    .workload(workload.toBuilder().rate(rate).build())
                    .rates(List.of())
                    .build();
        }

        /** @return the workload (rate and duration of the measured run) */
        public WorkloadConfig workload() {
            return workload;
        }

        /** @return the modes to run, in order; immutable */
        public List<String> modes() {
            return modes;
        }

        /** @return an existing cluster, or empty for a fresh broker per mode */
        public Optional<String> bootstrapServers() {
            return bootstrapServers;
        }

        /** @return where a fresh broker runs */
        public BrokerKind broker() {
            return broker;
        }

        /** @return where reports go */
        public Path reportDir() {
            return reportDir;
        }

        /** @return the service's fat jar (real-time, micro-batch) */
        public Path appJar() {
            return appJar;
        }

        /** @return JVM options of the service; immutable */
        public List<String> appJvmOptions() {
            return appJvmOptions;
        }

        /** @return extra arguments to the service's run command; immutable */
        public List<String> appArgs() {
            return appArgs;
        }

        /** @return partitions of every topic the bench creates */
        public int partitions() {
            return partitions;
        }

        /** @return warm-up length at the same rate, sent just before the measured run (0 to skip) */
        public Duration warmup() {
            return warmup;
        }

        /** @return longest wait for outputs after the last send */
        public Duration drain() {
            return drain;
        }

        /** @return longest wait for a system under test to start */
        public Duration readyTimeout() {
            return readyTimeout;
        }

        /** @return whether to draw the progress bar */
        public boolean progress() {
            return progress;
        }

        /** @return stream threads of the service and of the Kafka Streams peer */
        public int streamThreads() {
            return streamThreads;
        }

        /** @return whether echo and kafka-streams-join run in their own JVM, like the service (else in this JVM) */
        public boolean peersInChildJvm() {
            return peersInChildJvm;
        }

        /** @return rates to sweep (each mode runs at each rate); empty: the workload's rate only; immutable */
        public List<Double> rates() {
            return rates;
        }

        /** @return other service builds by label, each run as mode {@code real-time-LABEL}; immutable, in order */
        public Map<String, Variant> variants() {
            return variants;
        }

        /**
         * @return what is sent and checked; a published latency workload runs the rtm-examples program of the same
         *     name as the system under test, in modes {@link BenchWorkload#modes()} only, without variants
         */
        public BenchWorkload benchWorkload() {
            return benchWorkload;
        }

        /** @return the rtm-examples fat jar (published workloads, modes other than echo) */
        public Path examplesJar() {
            return examplesJar;
        }

        /** @return characters of a stateless or aggregation row's value (published workloads) */
        public int rowBytes() {
            return rowBytes;
        }

        /** Builds {@link Options}; validated in {@link #build()}. Not thread-safe. */
        public static final class Builder {

            private WorkloadConfig workload;
            private List<String> modes;
            private String bootstrapServers;
            private BrokerKind broker = BrokerKind.CHILD_PROCESS;
            private Path reportDir;
            private Path appJar = DEFAULT_APP_JAR;
            private List<String> appJvmOptions = List.of("-Xmx1g");
            private List<String> appArgs = List.of();
            private int partitions = 2;
            private Duration warmup = Duration.ofMinutes(3);
            private Duration drain = Duration.ofSeconds(30);
            private Duration readyTimeout = Duration.ofSeconds(120);
            private boolean progress = true;
            private int streamThreads = 2;
            private boolean peersInChildJvm = true;
            private List<Double> rates = List.of();
            private Map<String, Variant> variants = Map.of();
            private BenchWorkload benchWorkload = BenchWorkload.ATTRIBUTION;
            private Path examplesJar = DEFAULT_EXAMPLES_JAR;
            private int rowBytes = LatencyWorkload.DEFAULT_ROW_BYTES;

            private Builder() {}

            /**
             * @param workload the workload (rate and duration of the measured run); required
             * @return this builder
             */
            public Builder workload(WorkloadConfig workload) {
                this.workload = Objects.requireNonNull(workload, "workload");
                return this;
            }

            /**
             * @param modes the modes to run, in order (see {@link Bench#resolveModes(List, Map, BenchWorkload)}); default
             *     the bench workload's default modes plus every variant
             * @return this builder
             */
            public Builder modes(List<String> modes) {
                this.modes = List.copyOf(modes);
                return this;
            }

            /**
             * @param servers an existing cluster ({@code HOST:PORT,...}), or null (the default) for a fresh broker per
             *     mode
             * @return this builder
             */
            public Builder bootstrapServers(String servers) {
                this.bootstrapServers = servers;
                return this;
            }

            /**
             * @param broker where a fresh broker runs; default {@link BrokerKind#CHILD_PROCESS}
             * @return this builder
             */
            public Builder broker(BrokerKind broker) {
                this.broker = Objects.requireNonNull(broker, "broker");
                return this;
            }

            /**
             * @param dir where reports go; required
             * @return this builder
             */
            public Builder reportDir(Path dir) {
                this.reportDir = Objects.requireNonNull(dir, "reportDir");
                return this;
            }

            /**
             * @param jar the service's fat jar (real-time, micro-batch); default {@link Bench#DEFAULT_APP_JAR}
             * @return this builder
             */
            public Builder appJar(Path jar) {
                this.appJar = Objects.requireNonNull(jar, "appJar");
                return this;
            }

            /**
             * @param options JVM options of the service, replacing the default {@code -Xmx1g}
             * @return this builder
             */
            public Builder appJvmOptions(List<String> options) {
                this.appJvmOptions = List.copyOf(options);
                return this;
            }

            /**
             * @param args extra arguments to the service's run command; default none
             * @return this builder
             */
            public Builder appArgs(List<String> args) {
                this.appArgs = List.copyOf(args);
                return this;
            }

            /**
             * @param partitions partitions of every topic the bench creates, positive; default 2
             * @return this builder
             */
            public Builder partitions(int partitions) {
                this.partitions = partitions;
                return this;
            }

            /**
             * @param warmup warm-up length at the same rate, sent just before the measured run (0 to skip); default
             *     3 minutes: on a 2-core machine the JIT compilers of the broker and of a Kafka Streams JVM are busy
             *     for about 80 s after start (BENCHMARKS.md), and a window inside that measures the compilers
             * @return this builder
             */
            public Builder warmup(Duration warmup) {
                this.warmup = Objects.requireNonNull(warmup, "warmup");
                return this;
            }

            /**
             * @param drain longest wait for outputs after the last send; default 30 s
             * @return this builder
             */
            public Builder drain(Duration drain) {
                this.drain = Objects.requireNonNull(drain, "drain");
                return this;
            }

            /**
             * @param timeout longest wait for a system under test to start; default 120 s
             * @return this builder
             */
            public Builder readyTimeout(Duration timeout) {
                this.readyTimeout = Objects.requireNonNull(timeout, "readyTimeout");
                return this;
            }

            /**
             * @param progress whether to draw the progress bar; default true
             * @return this builder
             */
            public Builder progress(boolean progress) {
                this.progress = progress;
                return this;
            }

            /**
             * @param threads stream threads of the service and of the Kafka Streams peer, positive; default 2
             * @return this builder
             */
            public Builder streamThreads(int threads) {
                this.streamThreads = threads;
                return this;
            }

            /**
             * @param childJvm whether echo and kafka-streams-join run in their own JVM, like the service (else in this
             *     JVM); default true
             * @return this builder
             */
            public Builder peersInChildJvm(boolean childJvm) {
                this.peersInChildJvm = childJvm;
                return this;
            }

            /**
             * @param rates rates to sweep (each mode runs at each rate), each positive; default none: the workload's
             *     rate only
             * @return this builder
             */
            public Builder rates(List<Double> rates) {
                this.rates = List.copyOf(rates);
                return this;
            }

            /**
             * @param variants other service builds by label, each run as mode {@code real-time-LABEL}; default none
             * @return this builder
             */
            public Builder variants(Map<String, Variant> variants) {
                this.variants = new LinkedHashMap<>(variants);
                return this;
            }

            /**
             * @param workload what is sent and checked; default {@link BenchWorkload#ATTRIBUTION}
             * @return this builder
             */
            public Builder benchWorkload(BenchWorkload workload) {
                this.benchWorkload = Objects.requireNonNull(workload, "benchWorkload");
                return this;
            }

            /**
             * @param jar the rtm-examples fat jar (published workloads, modes other than echo); default
             *     {@link Bench#DEFAULT_EXAMPLES_JAR}
             * @return this builder
             */
            public Builder examplesJar(Path jar) {
                this.examplesJar = Objects.requireNonNull(jar, "examplesJar");
                return this;
            }

            /**
             * @param bytes characters of a stateless or aggregation row's value (published workloads), 1..{@value
             *     LatencyWorkload#MAX_ROW_BYTES}; default {@value LatencyWorkload#DEFAULT_ROW_BYTES}
             * @return this builder
             */
            public Builder rowBytes(int bytes) {
                this.rowBytes = bytes;
                return this;
            }

            /**
             * Validates and builds.
             *
             * @return the options
             * @throws IllegalArgumentException naming the bad value: no workload or report directory, a mode that is
             *     unknown or does not run the bench workload, no mode, variants with a published workload, a row size,
             *     stream thread count, partition count or rate out of range
             */
            public Options build() {
                if (workload == null) {
                    throw new IllegalArgumentException("workload is required");
                }
                if (reportDir == null) {
                    throw new IllegalArgumentException("reportDir is required");
                }
                List<String> m = modes != null ? modes : resolveModes(List.of(), variants, benchWorkload);
                if (benchWorkload.isPublished()) {
                    if (!variants.isEmpty()) {
                        throw new IllegalArgumentException("variants run the ad-attribution service: workload '"
                                + benchWorkload.cliName() + "' takes none, got "
                                + String.join(",", variants.keySet()));
                    }
                    for (String mode : m) {
                        if (!benchWorkload.modes().contains(mode)) {
                            throw new IllegalArgumentException("mode '" + mode + "' does not run workload '"
                                    + benchWorkload.cliName() + "'; its modes: "
                                    + String.join(",", benchWorkload.modes()));
                        }
                    }
                }
                if (rowBytes < 1 || rowBytes > LatencyWorkload.MAX_ROW_BYTES) {
                    throw new IllegalArgumentException(
                            "rowBytes must be in 1.." + LatencyWorkload.MAX_ROW_BYTES + ": " + rowBytes);
                }
                for (String mode : m) {
                    if (!MODES.contains(mode) && variantOf(mode, variants) == null) {
                        throw new IllegalArgumentException(
                                "unknown mode '" + mode + "'; known: " + String.join(",", knownModes(variants)));
                    }
                }
                if (m.isEmpty()) {
                    throw new IllegalArgumentException("modes must not be empty");
                }
                if (streamThreads < 1) {
                    throw new IllegalArgumentException("streamThreads must be positive: " + streamThreads);
                }
                if (partitions < 1) {
                    throw new IllegalArgumentException("partitions must be positive: " + partitions);
                }
                for (double r : rates) {
                    if (!(r > 0)) {
                        throw new IllegalArgumentException("rates must be positive: " + r);
                    }
                }
                return new Options(this, m);
            }
        }
    }

    private Bench() {}

    /**
     * Runs every mode and writes the reports.
     *
     * @param o the options
     * @return one report per mode
     * @throws Exception if a mode cannot be set up
     */
    public static List<Map<String, Object>> run(Options o) throws Exception {
        requireExamplesJar(o);
        Files.createDirectories(o.reportDir());
        Double benchLoad = loadAtBenchStart();
        List<Map<String, Object>> reports = new ArrayList<>();
        String nonce = nonce(o);
        List<Double> rates = o.rates().isEmpty() ? List.of(o.workload().rate()) : o.rates();
        for (double rate : rates) {
            Options atRate = o.atRate(rate);
            for (String mode : o.modes()) {
                System.err.printf(Locale.ROOT, "== mode %s at %.0f events/s%n", mode, rate);
                Map<String, Object> report = runMode(atRate, mode, nonce, benchLoad);
                String name =
                        rates.size() == 1 ? "report-" + mode : String.format(Locale.ROOT, "report-%s-%.0f", mode, rate);
                if (rates.size() > 1) {
                    report.put("mode", String.format(Locale.ROOT, "%s@%.0f", mode, rate));
                }
                ReportWriter.writeRun(o.reportDir(), name, report);
                reports.add(report);
                ReportWriter.writeCombined(o.reportDir(), reports);
            }
        }
        ReportWriter.addEchoRatios(reports);
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
     * @param o the options (the workload's rate and {@link Options#rates()} are ignored)
     * @param settings the search settings
     * @return one result per mode
     * @throws Exception if the report cannot be written
     */
    public static List<FindMax.Result> findMax(Options o, FindMax.Settings settings) throws Exception {
        requireExamplesJar(o);
        Files.createDirectories(o.reportDir());
        Double benchLoad = loadAtBenchStart();
        String nonce = nonce(o);
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("java", System.getProperty("java.version"));
        env.put("load_average_1m_at_bench_start", benchLoad);
        Map<String, Object> workload = workloadDescription(o.workload());
        workload.remove("rate");
        workload.remove("events");
        env.put("workload", workload);
        List<FindMax.Result> results = new ArrayList<>();
        for (String mode : o.modes()) {
            System.err.printf(Locale.ROOT, "== find-max of mode %s from %.0f events/s%n", mode, settings.start());
            FindMax.Result r = FindMax.search(mode, settings, rate -> {
                System.err.printf(Locale.ROOT, "== mode %s at %.0f events/s (find-max probe)%n", mode, rate);
                Map<String, Object> report = runMode(o.atRate(rate), mode, nonce, benchLoad);
                FindMax.Probe p = FindMax.probeOf(rate, report);
                report.put("find_max_probe", Map.of("pass", p.pass(), "reason", p.reason()));
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

    /** Fails before any broker starts when a published workload needs the rtm-examples jar and it is missing. */
    private static void requireExamplesJar(Options o) {
        boolean needed = o.benchWorkload().isPublished() && o.modes().stream().anyMatch(m -> !m.equals("echo"));
        if (needed && !Files.isRegularFile(o.examplesJar())) {
            throw new IllegalArgumentException(
                    "rtm-examples jar not found: " + o.examplesJar().toAbsolutePath()
                            + " (build it with: mvn -B -pl rtm-examples -am package -DskipTests, or pass --examples-jar)");
        }
    }

    private static String nonce(Options o) {
        return o.bootstrapServers().isPresent()
                ? Long.toString(System.currentTimeMillis() % 100_000_000L, 36) + "-"
                : "";
    }

    /** Reads the 1-minute load average and warns when the machine is busy. */
    private static Double loadAtBenchStart() {
        OptionalDouble load = CostMeter.loadAverage1m();
        if (load.isPresent() && load.getAsDouble() > BUSY_LOAD) {
            System.err.printf(
                    Locale.ROOT,
                    "WARNING: the 1-minute load average is %.2f at bench start (above %.1f): "
                            + "other work on this machine distorts latency and cost figures%n",
                    load.getAsDouble(),
                    BUSY_LOAD);
        }
        return load.isPresent() ? load.getAsDouble() : null;
    }

    private static Map<String, Object> runMode(Options o, String mode, String nonce, Double benchLoad)
            throws Exception {
        KafkaCluster owned = null;
        AutoCloseable system = null;
        OptionalDouble modeLoad = CostMeter.loadAverage1m();
        try {
            String bootstrap;
            Long brokerPid = null;
            Long sutPid = null;
            if (o.bootstrapServers().isPresent()) {
                bootstrap = o.bootstrapServers().get();
            } else if (o.broker() == BrokerKind.CHILD_PROCESS) {
                KafkaBrokerProcess broker = EmbeddedKafkaCluster.childProcess().build();
                owned = broker;
                broker.start();
                bootstrap = broker.bootstrapServers();
                brokerPid = broker.pid().orElse(null);
            } else {
                EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().build();
                owned = cluster;
                cluster.start();
                bootstrap = cluster.bootstrapServers();
            }
            String suffix = nonce.isEmpty() ? "" : "-" + nonce + mode;
            TopicNames topics = TopicNames.DEFAULTS.withSuffix(suffix);
            LatencyWorkload.Topics rowTopics = LatencyWorkload.Topics.DEFAULTS.withSuffix(suffix);
            boolean published = o.benchWorkload().isPublished();
            createTopics(
                    bootstrap,
                    published ? List.of(rowTopics.input(), rowTopics.output()) : allTopics(topics),
                    o.partitions());
            String appId = "loadgen-" + mode + "-" + System.currentTimeMillis();
            Duration window = o.workload().attributionWindow();
            Duration delay = o.workload().watermarkDelay();
            LoadRun.Outputs outputs;
            long t0 = System.nanoTime();
            switch (mode) {
                case "echo":
                case "kafka-streams-join": {
                    outputs = mode.equals("echo") ? LoadRun.Outputs.ECHO : LoadRun.Outputs.ATTRIBUTION;
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
                        ChildJvm peer = ServiceProcess.startPeer(
                                mode + " peer",
                                o.appJvmOptions(),
                                args,
                                o.reportDir().resolve("peer-" + mode + ".log"));
                        system = peer;
                        sutPid = peer.pid();
                        peer.awaitReady(o.readyTimeout());
                    } else if (mode.equals("echo")) {
                        EchoPipeline echo = echo(bootstrap, o.benchWorkload(), topics, rowTopics, appId);
                        system = echo;
                        require(echo.awaitReady(o.readyTimeout()), mode);
                    } else {
                        KafkaStreamsJoinPipeline ksj = new KafkaStreamsJoinPipeline(
                                bootstrap, appId, topics, window, delay, o.streamThreads());
                        system = ksj;
                        require(ksj.awaitRunning(o.readyTimeout()), mode);
                    }
                    break;
                }
                default: {
                    ChildJvm app = published
                            ? startExample(o, mode, bootstrap, rowTopics)
                            : startService(o, mode, bootstrap, topics, appId);
                    system = app;
                    sutPid = app.pid();
                    app.awaitReady(o.readyTimeout());
                    outputs = LoadRun.Outputs.SERVICE;
                    break;
                }
            }
            LOG.info("{} ready in {} ms", mode, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            String prefix = nonce + o.workload().idPrefix();
            LoadRun.Settings ms = settings(o, bootstrap, topics, mode, outputs, prefix, o.drain());
            // one continuous run: the warm-up's inputs first, then the measured ones on the same schedule, producer
            // and consumer, so the measured window starts in steady state (no pause, no new clients, no cold path)
            Plan plan = plan(o, mode, ms, rowTopics);
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("workload", plan.description());
            Map<String, Object> env = environment(o, bootstrap);
            env.put("load_average_1m_at_bench_start", benchLoad);
            env.put("load_average_1m_at_mode_start", modeLoad.isPresent() ? modeLoad.getAsDouble() : null);
            extra.put("environment", env);
            // Generating the plan leaves this JVM's heap full of young objects that survive; collect them now, while
            // the system under test is idle, rather than in a long young pause that stalls the pacer inside the window
            System.gc();
            CostMeter meter = new CostMeter(sutPid, brokerPid);
            meter.beforeRun();
            Map<String, Object> report = LoadRun.run(plan.spec(), plan.rate(), ms, extra, meter, plan.firstMeasured())
                    .report();
            meter.afterRun();
            report.put("cost", meter.report(((Number) report.get("events_sent")).longValue()));
            return report;
        } finally {
            if (system != null) {
                try {
                    system.close();
                } catch (Exception e) {
                    LOG.warn("closing {} failed", mode, e);
                }
            }
            if (owned != null) {
                owned.close();
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
    private record Plan(RunSpec spec, double rate, Map<String, Object> description, int firstMeasured) {}

    /**
     * Generates the inputs of a mode's run: the warm-up and the measured run as one workload (ids start with the
     * settings' prefix), the measured part starting at the first input scheduled at or after the warm-up's length.
     */
    private static Plan plan(Options o, String mode, LoadRun.Settings settings, LatencyWorkload.Topics rowTopics) {
        Duration total = o.warmup().plus(o.workload().duration());
        WorkloadConfig measured =
                o.workload().toBuilder().idPrefix(settings.idPrefix()).build();
        WorkloadConfig w = measured.toBuilder().duration(total).build();
        RunSpec spec;
        Map<String, Object> description;
        if (!o.benchWorkload().isPublished()) {
            spec = LoadRun.attribution(WorkloadGenerator.generate(w, System.currentTimeMillis()), settings);
            description = workloadDescription(measured);
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

    /**
     * The echo of a workload: for attribution it reads impressions and clicks and copies clicks; for a published
     * workload it copies every row from its input to its output topic.
     *
     * @param bootstrap the cluster
     * @param workload the workload
     * @param topics the attribution workload's topics
     * @param rowTopics the published workloads' topics
     * @param groupId the consumer group
     * @return the started pass-through
     */
    static EchoPipeline echo(
            String bootstrap,
            BenchWorkload workload,
            TopicNames topics,
            LatencyWorkload.Topics rowTopics,
            String groupId) {
        return workload.isPublished()
                ? new EchoPipeline(
                        bootstrap, List.of(rowTopics.input()), rowTopics.input(), rowTopics.output(), groupId)
                : new EchoPipeline(bootstrap, topics, groupId);
    }

    private static ChildJvm startService(Options o, String mode, String bootstrap, TopicNames topics, String appId)
            throws IOException {
        Path stateDir = Files.createTempDirectory("loadgen-app-state-");
        List<String> args = new ArrayList<>(List.of("--num-stream-threads", Integer.toString(o.streamThreads())));
        args.addAll(topics.serviceTopics().serviceArgs());
        args.addAll(o.appArgs());
        Variant variant = variantOf(mode, o.variants());
        if (variant != null) {
            args.addAll(variant.args());
        }
        if (mode.equals("micro-batch-asap")) {
            args.addAll(List.of("--micro-batch-interval", "PT0S"));
        }
        args.addAll(List.of(
                "--attribution-window",
                o.workload().attributionWindow().toString(),
                "--watermark-delay",
                o.workload().watermarkDelay().toString()));
        return ServiceProcess.startService(
                "service (" + mode + ")",
                variant != null ? variant.jar() : o.appJar(),
                bootstrap,
                trigger(mode),
                appId,
                stateDir,
                o.reportDir().resolve("service-" + mode + ".log"),
                o.appJvmOptions(),
                args);
    }

    private static String trigger(String mode) {
        return mode.startsWith("micro-batch") ? "micro-batch" : "real-time";
    }

    /**
     * Starts the rtm-examples program of a published workload as the system under test: it reads the bench's input
     * topic and writes its output topic ({@code --source kafka --serve}) until stopped.
     */
    private static ChildJvm startExample(Options o, String mode, String bootstrap, LatencyWorkload.Topics rowTopics)
            throws IOException {
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
    static List<String> exampleArgs(Options o, String mode, String bootstrap, LatencyWorkload.Topics rowTopics)
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
        if (o.benchWorkload() == BenchWorkload.STREAM_STATIC_JOIN) {
            Path table = LatencyWorkload.writeStaticTable(o.reportDir().resolve("static-table.csv"));
            args.addAll(List.of(
                    "--table", "csv", "--table-file", table.toAbsolutePath().toString()));
        }
        args.addAll(o.appArgs());
        return args;
    }

    private static void require(boolean ready, String mode) {
        if (!ready) {
            throw new IllegalStateException(mode + " did not become ready");
        }
    }

    private static LoadRun.Settings settings(
            Options o,
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
                Map.of(),
                prefix,
                AvroWire.singleObject());
    }

    /**
     * Creates the input and output topics of the attribution workload, ignoring those that exist.
     *
     * @param bootstrap the cluster
     * @param topics the names
     * @param partitions partitions per topic
     * @throws InterruptedException if interrupted
     * @throws ExecutionException on a broker error other than "exists"
     */
    public static void createTopics(String bootstrap, TopicNames topics, int partitions)
            throws InterruptedException, ExecutionException {
        createTopics(bootstrap, allTopics(topics), partitions);
    }

    private static List<String> allTopics(TopicNames topics) {
        return List.of(
                topics.impressions(),
                topics.clicks(),
                topics.requests(),
                topics.acks(),
                topics.attributedClicks(),
                topics.logRecords(),
                topics.echo());
    }

    /**
     * Creates topics, ignoring those that exist.
     *
     * @param bootstrap the cluster
     * @param names the topic names
     * @param partitions partitions per topic
     * @throws InterruptedException if interrupted
     * @throws ExecutionException on a broker error other than "exists"
     */
    public static void createTopics(String bootstrap, List<String> names, int partitions)
            throws InterruptedException, ExecutionException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            for (String t : names) {
                try {
                    admin.createTopics(List.of(new NewTopic(t, partitions, (short) 1)))
                            .all()
                            .get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    /**
     * Describes a workload for the report.
     *
     * @param w the workload
     * @return a JSON-ready map
     */
    public static Map<String, Object> workloadDescription(WorkloadConfig w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seed", w.seed());
        m.put("rate", w.rate());
        m.put("duration", w.duration().toString());
        m.put("events", w.eventCount());
        m.put("id_prefix", w.idPrefix());
        m.put("clicks_per_impression", w.clicksPerImpression());
        m.put("request_share", w.requestShare());
        m.put("click_delay", w.clickDelay().toString());
        m.put("outside_window_fraction", w.outsideWindowFraction());
        m.put("edge_fraction", w.edgeFraction());
        m.put("orphan_fraction", w.orphanFraction());
        m.put("duplicate_fraction", w.duplicateFraction());
        m.put("out_of_order_fraction", w.outOfOrderFraction());
        m.put("late_fraction", w.lateFraction());
        m.put("ack_first_fraction", w.ackFirstFraction());
        m.put("attribution_window", w.attributionWindow().toString());
        m.put("watermark_delay", w.watermarkDelay().toString());
        return m;
    }

    private static Map<String, Object> environment(Options o, String bootstrap) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("java", System.getProperty("java.version"));
        m.put("bench_workload", o.benchWorkload().cliName());
        m.put(
                "broker",
                o.bootstrapServers().isPresent()
                        ? "external " + bootstrap
                        : o.broker().name().toLowerCase(Locale.ROOT));
        m.put("partitions", o.partitions());
        m.put("stream_threads", o.streamThreads());
        m.put("peers_in_child_jvm", o.peersInChildJvm());
        m.put("warmup", o.warmup().toString());
        try {
            m.put("load_average", Files.readString(Path.of("/proc/loadavg")).trim());
        } catch (IOException | RuntimeException e) {
            // not on Linux
        }
        return m;
    }
}
