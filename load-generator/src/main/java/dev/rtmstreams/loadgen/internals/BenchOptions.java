package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Benchmark options; immutable, built and validated by {@link #builder()} ({@link BenchOptionsBuilder}).
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

    BenchOptions(BenchOptionsBuilder b, List<String> modes, int partitions) {
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
    public static BenchOptionsBuilder builder() {
        return new BenchOptionsBuilder();
    }

    /** @return a builder holding these options, to change some of them */
    public BenchOptionsBuilder toBuilder() {
        return new BenchOptionsBuilder()
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
}
