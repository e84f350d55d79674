package dev.rtmstreams.loadgen.internals;

import java.util.List;
import java.util.Map;

/**
 * The checks of {@link BenchOptionsBuilder#build()}: what each option must be, which modes run which bench workload,
 * how many instances and partitions a run can have; and the modes and partitions a valid builder resolves to.
 */
final class BenchOptionsCheck {

    /**
     * The modes and partitions of valid options.
     *
     * @param modes the modes to run, in order (the builder's, or the bench workload's default modes plus every
     *     variant)
     * @param partitions partitions per topic (the builder's, or the default for the instances)
     */
    record Checked(List<String> modes, int partitions) {}

    private BenchOptionsCheck() {}

    /**
     * Checks the builder's options.
     *
     * @param b the builder
     * @return the modes and partitions to build with
     * @throws IllegalArgumentException naming the bad value (see {@link BenchOptionsBuilder#build()})
     */
    static Checked check(BenchOptionsBuilder b) {
        List<String> modes = b.modes;
        Map<String, BenchModes.Variant> variants = b.variants;
        BenchWorkload benchWorkload = b.benchWorkload;
        int rowBytes = b.rowBytes;
        int streamThreads = b.streamThreads;
        int instances = b.instances;
        Integer partitions = b.partitions;
        List<Double> rates = b.rates;
        if (b.workload == null) {
            throw new IllegalArgumentException("workload is required");
        }
        if (b.reportDir == null) {
            throw new IllegalArgumentException("reportDir is required");
        }
        checkBrokers(b);
        List<String> m = modes != null ? modes : BenchModes.resolveModes(List.of(), variants, benchWorkload);
        if (benchWorkload.isPublished()) {
            if (!variants.isEmpty()) {
                throw new IllegalArgumentException("variants run the ad-attribution service: workload '"
                        + benchWorkload.cliName() + "' takes none, got "
                        + String.join(",", variants.keySet()));
            }
            for (String mode : m) {
                if (!benchWorkload.modes().contains(mode)) {
                    throw new IllegalArgumentException("mode '" + mode + "' does not run workload '"
                            + benchWorkload.cliName() + "'"
                            + (SparkPeers.isSpark(mode)
                                    ? " (Spark 4.2's real-time mode runs stateless queries and stream-static joins)"
                                    : "")
                            + "; its modes: " + String.join(",", benchWorkload.modes()));
                }
            }
        } else {
            for (String mode : m) {
                if (SparkPeers.isSpark(mode)) {
                    throw new IllegalArgumentException("mode '" + mode + "' runs the published latency workloads"
                            + " (--workload stateless, aggregation or stream-static-join), not '"
                            + benchWorkload.cliName() + "'");
                }
            }
        }
        if (rowBytes < 1 || rowBytes > LatencyWorkload.MAX_ROW_BYTES) {
            throw new IllegalArgumentException(
                    "rowBytes must be in 1.." + LatencyWorkload.MAX_ROW_BYTES + ": " + rowBytes);
        }
        for (String mode : m) {
            if (!BenchModes.MODES.contains(mode) && BenchModes.variantOf(mode, variants) == null) {
                throw new IllegalArgumentException(
                        "unknown mode '" + mode + "'; known: " + String.join(",", BenchModes.knownModes(variants)));
            }
        }
        if (m.isEmpty()) {
            throw new IllegalArgumentException("modes must not be empty");
        }
        if (streamThreads < 1) {
            throw new IllegalArgumentException("streamThreads must be positive: " + streamThreads);
        }
        if (instances < 1) {
            throw new IllegalArgumentException("instances must be positive: " + instances);
        }
        if (instances > 1) {
            if (benchWorkload.isPublished()) {
                throw new IllegalArgumentException("--instances " + instances + " runs several instances of"
                        + " the ad-attribution service: workload '" + benchWorkload.cliName() + "' runs one"
                        + " rtm-examples program; use the attribution workload");
            }
            List<String> others =
                    m.stream().filter(mode -> !BenchModes.runsService(mode)).toList();
            if (!others.isEmpty()) {
                throw new IllegalArgumentException("--instances " + instances + " runs several instances of"
                        + " the ad-attribution service; modes " + String.join(",", others) + " run one JVM each"
                        + " (echo and the Kafka Streams peers): run them without --instances, or choose modes"
                        + " that run the service (real-time, micro-batch, micro-batch-asap, real-time-eos,"
                        + " variants)");
            }
        }
        int p = partitionsFor(partitions, instances);
        if (m.contains(SparkPeers.REAL_TIME) && streamThreads < p) {
            throw new IllegalArgumentException("mode " + SparkPeers.REAL_TIME + " runs Spark on local["
                    + streamThreads + "] (--stream-threads), and Spark's real-time mode holds one task slot per"
                    + " input partition for the whole batch: give at least as many stream threads as partitions ("
                    + p + ")");
        }
        for (double r : rates) {
            if (!(r > 0)) {
                throw new IllegalArgumentException("rates must be positive: " + r);
            }
        }
        return new Checked(m, p);
    }

    /** Partitions per topic with one instance. */
    public static final int DEFAULT_PARTITIONS = 2;

    /**
     * The partitions per topic of a run with a number of service instances.
     *
     * @param given the partitions asked for, or null for the default
     * @param instances the instances, positive
     * @return {@code given}, or {@value #DEFAULT_PARTITIONS} and at least 2 per instance
     * @throws IllegalArgumentException naming both values when {@code given} is not positive or fewer than the
     *     instances (an instance would hold no partition)
     */
    static int partitionsFor(Integer given, int instances) {
        if (given == null) {
            return Math.max(DEFAULT_PARTITIONS, 2 * instances);
        }
        if (given < 1) {
            throw new IllegalArgumentException("partitions must be positive: " + given);
        }
        if (given < instances) {
            throw new IllegalArgumentException("--partitions " + given + " is fewer than --instances " + instances
                    + ": an instance would hold no partition (give at least " + instances + " partitions, or leave"
                    + " them to the default of 2 per instance: " + 2 * instances + ")");
        }
        return given;
    }

    /** A cluster of 1 or 3..9 fresh child-process brokers; two would stop at the loss of either. */
    private static void checkBrokers(BenchOptionsBuilder b) {
        if (b.brokers != 1 && (b.brokers < 3 || b.brokers > 9)) {
            throw new IllegalArgumentException("--brokers must be 1 or 3..9 (two brokers cannot lose one with"
                    + " min.insync.replicas=2): " + b.brokers);
        }
        if (b.brokers > 1 && b.bootstrapServers != null) {
            throw new IllegalArgumentException("--brokers " + b.brokers + " starts a fresh cluster: it cannot be used"
                    + " with --bootstrap-servers " + b.bootstrapServers);
        }
        if (b.brokers > 1 && b.broker != BenchOptions.BrokerKind.CHILD_PROCESS) {
            throw new IllegalArgumentException(
                    "--brokers " + b.brokers + " runs each broker in its own JVM: use" + " --broker child-process, not "
                            + b.broker.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        }
    }
}
