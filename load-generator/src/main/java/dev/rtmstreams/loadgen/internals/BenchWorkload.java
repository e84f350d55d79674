package dev.rtmstreams.loadgen.internals;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code bench} sends and checks: the seed's ad-attribution workload, or one of the three workloads of
 * databricks-solutions/latency-benchmarks run by the matching rtm-examples program ({@link LatencyWorkload}).
 */
public enum BenchWorkload {
    /** Impressions and clicks (plus requests and acks) against the ad-attribution service: the default. */
    ATTRIBUTION("attribution"),
    /** Query A: every row copied to the output topic (rtm-examples {@code stateless}). */
    STATELESS("stateless"),
    /** Query B: {@code groupBy(timestamp, value).count()} in update mode (rtm-examples {@code aggregation}). */
    AGGREGATION("aggregation"),
    /** Query C: each row joined with a 10 000-row static table (rtm-examples {@code stream-static-join}). */
    STREAM_STATIC_JOIN("stream-static-join");

    /**
     * Modes of the published workloads, in the default order ({@code micro-batch-asap} and the Apache Spark peers are
     * extra; {@code spark-real-time} does not run the aggregation, see {@link #modes()}).
     */
    public static final List<String> PUBLISHED_MODES = List.of(
            "echo", "real-time", "micro-batch", "micro-batch-asap", SparkPeers.REAL_TIME, SparkPeers.MICRO_BATCH);

    /** Input rows per second of the published workloads when no rate is given (the published runs' rate). */
    public static final double PUBLISHED_RATE = 10_000;

    private final String cliName;

    BenchWorkload(String cliName) {
        this.cliName = cliName;
    }

    /** @return the name on the command line, which is also the rtm-examples command of a published workload */
    public String cliName() {
        return cliName;
    }

    /** @return whether this is one of the published latency workloads (run by an rtm-examples program) */
    public boolean isPublished() {
        return this != ATTRIBUTION;
    }

    /** @return the modes that can run this workload */
    public List<String> modes() {
        if (!isPublished()) {
            return BenchModes.MODES.stream().filter(m -> !SparkPeers.isSpark(m)).toList();
        }
        return PUBLISHED_MODES.stream()
                .filter(m -> !SparkPeers.isSpark(m) || SparkPeers.runs(this, m))
                .toList();
    }

    /** @return the modes run when none are chosen */
    public List<String> defaultModes() {
        return isPublished() ? List.of("echo", "real-time", "micro-batch") : BenchModes.DEFAULT_MODES;
    }

    /**
     * Parses a command-line name.
     *
     * @param name e.g. {@code stream-static-join}
     * @return the workload
     * @throws IllegalArgumentException naming the value and the known names
     */
    public static BenchWorkload parse(String name) {
        List<String> known = new ArrayList<>();
        for (BenchWorkload w : values()) {
            if (w.cliName.equals(name == null ? null : name.trim().toLowerCase(Locale.ROOT))) {
                return w;
            }
            known.add(w.cliName);
        }
        throw new IllegalArgumentException("unknown workload '" + name + "'; known: " + String.join(",", known));
    }
}
