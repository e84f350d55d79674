package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Builds {@link BenchOptions}; validated in {@link #build()}. Not thread-safe. */
final class BenchOptionsBuilder {

    // read by BenchOptionsCheck, which validates them
    WorkloadConfig workload;
    List<String> modes;
    String bootstrapServers;
    BenchOptions.BrokerKind broker = BenchOptions.BrokerKind.CHILD_PROCESS;
    Path reportDir;
    Path appJar = BenchOptions.DEFAULT_APP_JAR;
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
    Path examplesJar = BenchOptions.DEFAULT_EXAMPLES_JAR;
    Path sparkDir = SparkPeers.DEFAULT_DIR;
    int rowBytes = LatencyWorkload.DEFAULT_ROW_BYTES;
    int brokers = 1;

    BenchOptionsBuilder() {}

    /**
     * @param brokers brokers of the fresh cluster of each mode: 1 (default) or at least 3 (up to 9); more than one
     *     needs child-process brokers and no {@link #bootstrapServers(String)}
     * @return this builder
     */
    public BenchOptionsBuilder brokers(int brokers) {
        this.brokers = brokers;
        return this;
    }

    /**
     * @param workload the workload (rate and duration of the measured run); required
     * @return this builder
     */
    public BenchOptionsBuilder workload(WorkloadConfig workload) {
        this.workload = Objects.requireNonNull(workload, "workload");
        return this;
    }

    /**
     * @param modes the modes to run, in order (see {@link BenchModes#resolveModes(List, Map, BenchWorkload)}); default
     *     the bench workload's default modes plus every variant
     * @return this builder
     */
    public BenchOptionsBuilder modes(List<String> modes) {
        this.modes = List.copyOf(modes);
        return this;
    }

    /**
     * @param servers an existing cluster ({@code HOST:PORT,...}), or null (the default) for a fresh broker per
     *     mode
     * @return this builder
     */
    public BenchOptionsBuilder bootstrapServers(String servers) {
        this.bootstrapServers = servers;
        return this;
    }

    /**
     * @param broker where a fresh broker runs; default {@link BenchOptions.BrokerKind#CHILD_PROCESS}
     * @return this builder
     */
    public BenchOptionsBuilder broker(BenchOptions.BrokerKind broker) {
        this.broker = Objects.requireNonNull(broker, "broker");
        return this;
    }

    /**
     * @param dir where reports go; required
     * @return this builder
     */
    public BenchOptionsBuilder reportDir(Path dir) {
        this.reportDir = Objects.requireNonNull(dir, "reportDir");
        return this;
    }

    /**
     * @param jar the service's fat jar (real-time, micro-batch); default {@link BenchOptions#DEFAULT_APP_JAR}
     * @return this builder
     */
    public BenchOptionsBuilder appJar(Path jar) {
        this.appJar = Objects.requireNonNull(jar, "appJar");
        return this;
    }

    /**
     * @param options JVM options of the service, replacing the default {@code -Xmx1g}
     * @return this builder
     */
    public BenchOptionsBuilder appJvmOptions(List<String> options) {
        this.appJvmOptions = List.copyOf(options);
        return this;
    }

    /**
     * @param args extra arguments to the service's run command; default none
     * @return this builder
     */
    public BenchOptionsBuilder appArgs(List<String> args) {
        this.appArgs = List.copyOf(args);
        return this;
    }

    /**
     * @param partitions partitions of every topic the bench creates, positive and at least {@link
     *     #instances(int)}; default {@value BenchOptionsCheck#DEFAULT_PARTITIONS}, or 2 per instance when that is more
     * @return this builder
     */
    public BenchOptionsBuilder partitions(int partitions) {
        this.partitions = partitions;
        return this;
    }

    /**
     * @param instances instances of the ad-attribution service in its modes, sharing one application id, each
     *     with its own state directory and HTTP port, positive; more than 1 only with the attribution workload and
     *     modes that run the service (not echo, not the Kafka Streams peers); default 1
     * @return this builder
     */
    public BenchOptionsBuilder instances(int instances) {
        this.instances = instances;
        return this;
    }

    /**
     * @param warmup warm-up length at the same rate, sent just before the measured run (0 to skip); default
     *     3 minutes: on a 2-core machine the JIT compilers of the broker and of a Kafka Streams JVM are busy
     *     for about 80 s after start (BENCHMARKS.md), and a window inside that measures the compilers
     * @return this builder
     */
    public BenchOptionsBuilder warmup(Duration warmup) {
        this.warmup = Objects.requireNonNull(warmup, "warmup");
        return this;
    }

    /**
     * @param drain longest wait for outputs after the last send; default 30 s
     * @return this builder
     */
    public BenchOptionsBuilder drain(Duration drain) {
        this.drain = Objects.requireNonNull(drain, "drain");
        return this;
    }

    /**
     * @param timeout longest wait for a system under test to start; default 120 s
     * @return this builder
     */
    public BenchOptionsBuilder readyTimeout(Duration timeout) {
        this.readyTimeout = Objects.requireNonNull(timeout, "readyTimeout");
        return this;
    }

    /**
     * @param progress whether to draw the progress bar; default true
     * @return this builder
     */
    public BenchOptionsBuilder progress(boolean progress) {
        this.progress = progress;
        return this;
    }

    /**
     * @param threads stream threads of the service and of the Kafka Streams peer, positive; default 2
     * @return this builder
     */
    public BenchOptionsBuilder streamThreads(int threads) {
        this.streamThreads = threads;
        return this;
    }

    /**
     * @param childJvm whether echo and the Kafka Streams peers run in their own JVM, like the service (else in this
     *     JVM); default true
     * @return this builder
     */
    public BenchOptionsBuilder peersInChildJvm(boolean childJvm) {
        this.peersInChildJvm = childJvm;
        return this;
    }

    /**
     * @param rates rates to sweep (each mode runs at each rate), each positive; default none: the workload's
     *     rate only
     * @return this builder
     */
    public BenchOptionsBuilder rates(List<Double> rates) {
        this.rates = List.copyOf(rates);
        return this;
    }

    /**
     * @param variants other service builds by label, each run as mode {@code real-time-LABEL}; default none
     * @return this builder
     */
    public BenchOptionsBuilder variants(Map<String, BenchModes.Variant> variants) {
        this.variants = new LinkedHashMap<>(variants);
        return this;
    }

    /**
     * @param workload what is sent and checked; default {@link BenchWorkload#ATTRIBUTION}
     * @return this builder
     */
    public BenchOptionsBuilder benchWorkload(BenchWorkload workload) {
        this.benchWorkload = Objects.requireNonNull(workload, "benchWorkload");
        return this;
    }

    /**
     * @param jar the rtm-examples fat jar (published workloads, modes other than echo); default
     *     {@link BenchOptions#DEFAULT_EXAMPLES_JAR}
     * @return this builder
     */
    public BenchOptionsBuilder examplesJar(Path jar) {
        this.examplesJar = Objects.requireNonNull(jar, "examplesJar");
        return this;
    }

    /**
     * @param dir the target directory of module load-generator-spark (modes {@code spark-real-time},
     *     {@code spark-micro-batch}); default {@code load-generator-spark/target}
     * @return this builder
     */
    public BenchOptionsBuilder sparkDir(Path dir) {
        this.sparkDir = Objects.requireNonNull(dir, "sparkDir");
        return this;
    }

    /**
     * @param bytes characters of a stateless or aggregation row's value (published workloads), 1..{@value
     *     LatencyWorkload#MAX_ROW_BYTES}; default {@value LatencyWorkload#DEFAULT_ROW_BYTES}
     * @return this builder
     */
    public BenchOptionsBuilder rowBytes(int bytes) {
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
