package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Benchmark options; immutable, built and validated by {@link #builder()}.
 *
 * <pre>{@code
 * BenchOptions o = BenchOptions.builder()
 *         .workload(WorkloadConfig.builder().rate(5000).duration(Duration.ofMinutes(1)).build())
 *         .reportDir(Path.of("target/bench"))
 *         .modes(List.of("echo", "real-time"))
 *         .build();
 * }</pre>
 */
final class BenchOptions {

    /** The service's fat jar when none is given (relative to the working directory). */
    public static final Path DEFAULT_APP_JAR = Path.of("adattribution-app", "target", "adattribution-app.jar");

    /** The rtm-examples fat jar when none is given (relative to the working directory). */
    public static final Path DEFAULT_EXAMPLES_JAR = Path.of("rtm-examples-runner", "target", "rtm-examples.jar");

    /** Where the broker of a mode runs when no cluster is given. */
    public enum BrokerKind {
        /** In this JVM (KafkaClusterTestKit): starts fastest. */
        IN_PROCESS,
        /** In its own JVM: its GC and threads are apart from the generator's. */
        CHILD_PROCESS
    }

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
    private final Map<String, BenchModes.Variant> variants;
    private final BenchWorkload benchWorkload;
    private final Path examplesJar;
    private final Path sparkDir;
    private final int rowBytes;
    private final int instances;
    private final int brokers;

    private BenchOptions(Builder b, List<String> modes, int partitions) {
        this.workload = b.workload;
        this.modes = List.copyOf(modes);
        this.bootstrapServers = Optional.ofNullable(b.bootstrapServers);
        this.broker = b.broker;
        this.reportDir = b.reportDir;
        this.appJar = b.appJar;
        this.appJvmOptions = List.copyOf(b.appJvmOptions);
        this.appArgs = List.copyOf(b.appArgs);
        this.partitions = partitions;
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
        this.sparkDir = b.sparkDir;
        this.rowBytes = b.rowBytes;
        this.instances = b.instances;
        this.brokers = b.brokers;
    }

    /**
     * Returns a builder with the {@code bench} command's defaults: the workload's default modes plus every variant,
     * a fresh broker per mode in its own JVM, the service from {@link #DEFAULT_APP_JAR} with {@code -Xmx1g}, one
     * instance, 2 partitions (at least 2 per instance), a 3-minute warm-up, a 30 s drain, a 120 s ready timeout, the progress bar, 2 stream threads, peers in
     * their own JVM, no rate sweep, no variants, the {@link BenchWorkload#ATTRIBUTION} workload,
     * {@link #DEFAULT_EXAMPLES_JAR} and {@link LatencyWorkload#DEFAULT_ROW_BYTES}. The workload and the report
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
                .instances(instances)
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
                .sparkDir(sparkDir)
                .rowBytes(rowBytes)
                .brokers(brokers);
    }

    /**
     * These options at another rate, without a sweep.
     *
     * @param rate events/s
     * @return the options
     */
    public BenchOptions atRate(double rate) {
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

    /**
     * @return brokers of the fresh cluster of each mode: 1 (the default), or 3 and more (child processes, replication
     *     factor {@link #replicationFactor()}, {@code min.insync.replicas=2})
     */
    public int brokers() {
        return brokers;
    }

    /** @return the replication factor of the run's topics and the internal topics of the service and peers */
    public short replicationFactor() {
        return (short) Math.min(3, brokers);
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

    /**
     * @return instances of the service in its modes (real-time, micro-batch, variants...), sharing one application
     *     id; 1 for every other mode
     */
    public int instances() {
        return instances;
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

    /** @return whether echo and the Kafka Streams peers run in their own JVM, like the service (else in this JVM) */
    public boolean peersInChildJvm() {
        return peersInChildJvm;
    }

    /** @return rates to sweep (each mode runs at each rate); empty: the workload's rate only; immutable */
    public List<Double> rates() {
        return rates;
    }

    /** @return other service builds by label, each run as mode {@code real-time-LABEL}; immutable, in order */
    public Map<String, BenchModes.Variant> variants() {
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

    /**
     * @return the target directory of module load-generator-spark (its jar and {@code spark-classpath.txt}), from
     *     which the Spark modes start their peer
     */
    public Path sparkDir() {
        return sparkDir;
    }

    /** @return characters of a stateless or aggregation row's value (published workloads) */
    public int rowBytes() {
        return rowBytes;
    }

    /** Builds {@link BenchOptions}; validated in {@link #build()}. Not thread-safe. */
    public static final class Builder {

        // read by BenchOptionsCheck, which validates them
        WorkloadConfig workload;
        List<String> modes;
        String bootstrapServers;
        BrokerKind broker = BrokerKind.CHILD_PROCESS;
        Path reportDir;
        Path appJar = DEFAULT_APP_JAR;
        List<String> appJvmOptions = List.of("-Xmx1g");
        List<String> appArgs = List.of();
        Integer partitions;
        int instances = 1;
        Duration warmup = Duration.ofMinutes(3);
        Duration drain = Duration.ofSeconds(30);
        Duration readyTimeout = Duration.ofSeconds(120);
        boolean progress = true;
        int streamThreads = 2;
        boolean peersInChildJvm = true;
        List<Double> rates = List.of();
        Map<String, BenchModes.Variant> variants = Map.of();
        BenchWorkload benchWorkload = BenchWorkload.ATTRIBUTION;
        Path examplesJar = DEFAULT_EXAMPLES_JAR;
        Path sparkDir = SparkPeers.DEFAULT_DIR;
        int rowBytes = LatencyWorkload.DEFAULT_ROW_BYTES;
        int brokers = 1;

        private Builder() {}

        /**
         * @param brokers brokers of the fresh cluster of each mode: 1 (default) or at least 3 (up to 9); more than one
         *     needs child-process brokers and no {@link #bootstrapServers(String)}
         * @return this builder
         */
        public Builder brokers(int brokers) {
            this.brokers = brokers;
            return this;
        }

        /**
         * @param workload the workload (rate and duration of the measured run); required
         * @return this builder
         */
        public Builder workload(WorkloadConfig workload) {
            this.workload = Objects.requireNonNull(workload, "workload");
            return this;
        }

        /**
         * @param modes the modes to run, in order (see {@link BenchModes#resolveModes(List, Map, BenchWorkload)}); default
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
         * @param jar the service's fat jar (real-time, micro-batch); default {@link #DEFAULT_APP_JAR}
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
         * @param partitions partitions of every topic the bench creates, positive and at least {@link
         *     #instances(int)}; default {@value BenchOptionsCheck#DEFAULT_PARTITIONS}, or 2 per instance when that is more
         * @return this builder
         */
        public Builder partitions(int partitions) {
            this.partitions = partitions;
            return this;
        }

        /**
         * @param instances instances of the ad-attribution service in its modes, sharing one application id, each
         *     with its own state directory and HTTP port, positive; more than 1 only with the attribution workload and
         *     modes that run the service (not echo, not the Kafka Streams peers); default 1
         * @return this builder
         */
        public Builder instances(int instances) {
            this.instances = instances;
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
         * @param childJvm whether echo and the Kafka Streams peers run in their own JVM, like the service (else in this
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
        public Builder variants(Map<String, BenchModes.Variant> variants) {
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
         *     {@link #DEFAULT_EXAMPLES_JAR}
         * @return this builder
         */
        public Builder examplesJar(Path jar) {
            this.examplesJar = Objects.requireNonNull(jar, "examplesJar");
            return this;
        }

        /**
         * @param dir the target directory of module load-generator-spark (modes {@code spark-real-time},
         *     {@code spark-micro-batch}); default {@code load-generator-spark/target}
         * @return this builder
         */
        public Builder sparkDir(Path dir) {
            this.sparkDir = Objects.requireNonNull(dir, "sparkDir");
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
         *     stream thread count, partition count or rate out of range, several instances with a published workload
         *     or a mode other than the service's, fewer partitions than instances
         */
        public BenchOptions build() {
            BenchOptionsCheck.Checked checked = BenchOptionsCheck.check(this);
            return new BenchOptions(this, checked.modes(), checked.partitions());
        }
    }
}
