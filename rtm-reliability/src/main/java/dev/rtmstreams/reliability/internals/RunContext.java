package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.KafkaClusterProcess;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The running system of one chaos run as its {@link Fault} and {@link Checker} see it: the settings, the service
 * instances, the runner's own broker (if it started one), the probes and their outputs, and when the load started.
 * Built by {@link ScenarioRunner} once the instances are RUNNING; the load's start is set when the load starts.
 */
final class RunContext {

    /** Ids (keys) of probe records start with it, so the output monitor tells them from the load's records. */
    static final String PROBE_PREFIX = "probe-";

    /** The service's watermark delay (its default: the runner does not set it). */
    static final Duration WATERMARK_DELAY = Duration.ofMinutes(5);

    /** The service's attribution window (its default: the runner does not set it). */
    static final Duration ATTRIBUTION_WINDOW = Duration.ofMinutes(2);

    private final ScenarioRunner.Settings settings;
    private final String runId;
    private final ServiceTopics topics;
    private final KafkaConnection kafka;
    private final List<ServiceInstance> instances;
    private final KafkaBrokerProcess broker;
    private final KafkaClusterProcess cluster;
    private final Probes probes;
    private final ProbeOutputs outputs;
    private volatile long loadStartNanos = -1;
    private volatile long loadEndNanos = -1;
    private volatile LoadOracle oracle;

    /**
     * @param settings how the run runs; not null
     * @param runId the run's id; not null
     * @param topics the run's topics; not null
     * @param kafka the cluster, or null (tests)
     * @param instances the service instances, the one faults hit first; not empty
     * @param broker the runner's own single broker, or null on an existing cluster or the runner's own cluster
     * @param cluster the runner's own cluster of several brokers, or null
     * @param probes the probe sender, or null (tests of checks that send nothing)
     * @param outputs the probe outputs; not null
     */
    RunContext(
            ScenarioRunner.Settings settings,
            String runId,
            ServiceTopics topics,
            KafkaConnection kafka,
            List<ServiceInstance> instances,
            KafkaBrokerProcess broker,
            KafkaClusterProcess cluster,
            Probes probes,
            ProbeOutputs outputs) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.runId = Objects.requireNonNull(runId, "runId");
        this.topics = Objects.requireNonNull(topics, "topics");
        this.kafka = kafka;
        this.instances = List.copyOf(instances);
        if (this.instances.isEmpty()) {
            throw new IllegalArgumentException("instances must not be empty");
        }
        this.broker = broker;
        this.cluster = cluster;
        this.probes = probes;
        this.outputs = Objects.requireNonNull(outputs, "outputs");
    }

    ScenarioRunner.Settings settings() {
        return settings;
    }

    String runId() {
        return runId;
    }

    ServiceTopics topics() {
        return topics;
    }

    KafkaConnection kafka() {
        return kafka;
    }

    /** @return the instance faults hit (the only one, or the first of two) */
    ServiceInstance primary() {
        return instances.get(0);
    }

    /** @return the instance that must be RUNNING at the end (the last one) */
    ServiceInstance survivor() {
        return instances.get(instances.size() - 1);
    }

    List<ServiceInstance> instances() {
        return instances;
    }

    /**
     * @return the runner's own broker
     * @throws IllegalStateException on an existing cluster (the settings reject that for broker-restart)
     */
    KafkaBrokerProcess broker() {
        if (broker == null) {
            throw new IllegalStateException("the scenario needs the runner's own broker");
        }
        return broker;
    }

    /**
     * @return the runner's own cluster of several brokers
     * @throws IllegalStateException without one (the settings reject that for the broker faults)
     */
    KafkaClusterProcess cluster() {
        if (cluster == null) {
            throw new IllegalStateException("the scenario needs the runner's own cluster (--brokers 3)");
        }
        return cluster;
    }

    /** @return the service's application id (its internal topics start with it and a dash) */
    String applicationId() {
        return "chaos-" + runId;
    }

    Probes probes() {
        return probes;
    }

    ProbeOutputs outputs() {
        return outputs;
    }

    /**
     * Names a probe record of this run.
     *
     * @param name unique within the run, e.g. {@code timer-0}
     * @return {@code probe-<run id>-<name>}
     */
    String probeId(String name) {
        return PROBE_PREFIX + runId + "-" + name;
    }

    /**
     * Records the end of the load run (after its drain) and its oracle figures.
     *
     * @param oracle the load run's figures
     * @param nanos when it ended ({@link System#nanoTime()})
     */
    void loadEnded(LoadOracle oracle, long nanos) {
        this.oracle = Objects.requireNonNull(oracle, "oracle");
        this.loadEndNanos = nanos;
    }

    /** @return the load run's figures, null before it ended */
    LoadOracle oracle() {
        return oracle;
    }

    /** @return when the load run ended ({@link System#nanoTime()}), -1 before */
    long loadEndNanos() {
        return loadEndNanos;
    }

    void loadStarted(long nanos) {
        loadStartNanos = nanos;
    }

    /** @return when the load started ({@link System#nanoTime()}), -1 before */
    long loadStartNanos() {
        return loadStartNanos;
    }

    /**
     * @param nanos an instant ({@link System#nanoTime()})
     * @return seconds from the start of the load to it, to the ms
     */
    double secondsIntoLoad(long nanos) {
        return round3((nanos - loadStartNanos) / 1e9);
    }

    static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    static long millis(long nanos) {
        return nanos / 1_000_000L;
    }
}
