package dev.rtmstreams.loadgen.internals;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The bench's modes: the built-in ones, the {@code real-time-LABEL} mode of each {@link Variant} (another build of
 * the service), and how the command line names them ({@code --modes}, {@code --variant}, {@code --variant-arg}).
 */
final class BenchModes {

    /** The stock Kafka Streams join: {@code KStream#join} as a user first writes it ({@link KafkaStreamsPeer}). */
    public static final String KAFKA_STREAMS_JOIN = KafkaStreamsPeer.Kind.JOIN.mode();
    /** The same join with real-time mode's own client settings ({@link KafkaStreamsPeer}). */
    public static final String KAFKA_STREAMS_JOIN_TUNED = KafkaStreamsPeer.Kind.JOIN_TUNED.mode();
    /** A Kafka Streams source to sink copy with real-time mode's client settings ({@link KafkaStreamsPeer}). */
    public static final String KAFKA_STREAMS_PASSTHROUGH = KafkaStreamsPeer.Kind.PASSTHROUGH.mode();
    /** The stock join under exactly-once, Kafka Streams' default commit interval ({@link KafkaStreamsPeer}). */
    public static final String KAFKA_STREAMS_JOIN_EOS = KafkaStreamsPeer.Kind.JOIN_EOS.mode();
    /** The join under exactly-once with real-time mode's settings and transaction interval ({@link KafkaStreamsPeer}). */
    public static final String KAFKA_STREAMS_JOIN_EOS_TUNED = KafkaStreamsPeer.Kind.JOIN_EOS_TUNED.mode();
    /** The service in real-time mode under {@code exactly_once_v2}: short transactions, read_committed output. */
    public static final String REAL_TIME_EOS = "real-time-eos";

    /** The modes run when none are chosen, in order. */
    public static final List<String> DEFAULT_MODES = List.of(
            "echo",
            "real-time",
            "micro-batch",
            KAFKA_STREAMS_JOIN,
            KAFKA_STREAMS_JOIN_TUNED,
            KAFKA_STREAMS_PASSTHROUGH,
            REAL_TIME_EOS,
            KAFKA_STREAMS_JOIN_EOS);

    /**
     * Every built-in mode (the defaults plus {@code micro-batch-asap} and the Apache Spark peers, which run the published
     * workloads only); variants add {@code real-time-LABEL}.
     */
    public static final List<String> MODES = List.of(
            "echo",
            "real-time",
            "micro-batch",
            "micro-batch-asap",
            KAFKA_STREAMS_JOIN,
            KAFKA_STREAMS_JOIN_TUNED,
            KAFKA_STREAMS_PASSTHROUGH,
            REAL_TIME_EOS,
            KAFKA_STREAMS_JOIN_EOS,
            KAFKA_STREAMS_JOIN_EOS_TUNED,
            SparkPeers.REAL_TIME,
            SparkPeers.MICRO_BATCH);

    /** What each built-in mode runs, in words for the reports: every peer named plainly. */
    private static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry("echo", "consumer -> producer copy, no Kafka Streams: the floor of this machine"),
            Map.entry("real-time", "rtm-streams, real-time mode"),
            Map.entry("micro-batch", "rtm-streams, micro-batch mode"),
            Map.entry("micro-batch-asap", "rtm-streams, micro-batch mode, batches back to back"),
            Map.entry(
                    KAFKA_STREAMS_JOIN,
                    "stock KStream#join (Kafka's client defaults but linger 1 ms, fetch wait 100 ms, no record cache):"
                            + " what you get by switching"),
            Map.entry(
                    KAFKA_STREAMS_JOIN_TUNED,
                    "KStream#join with real-time mode's client settings: what the engine adds"),
            Map.entry(
                    KAFKA_STREAMS_PASSTHROUGH,
                    "Kafka Streams source -> sink with real-time mode's client settings: the Kafka Streams floor"),
            Map.entry(
                    REAL_TIME_EOS,
                    "rtm-streams, real-time mode, exactly_once_v2 (transactions every 10 ms; output read read_committed)"),
            Map.entry(
                    KAFKA_STREAMS_JOIN_EOS,
                    "stock KStream#join under exactly_once_v2, Kafka Streams' default commit interval (100 ms)"),
            Map.entry(
                    KAFKA_STREAMS_JOIN_EOS_TUNED,
                    "KStream#join under exactly_once_v2 with real-time mode's client settings, commits every 10 ms"),
            Map.entry(
                    SparkPeers.REAL_TIME,
                    "Apache Spark 4.2, local mode, Trigger.RealTime (5-minute checkpoint interval), Spark's Kafka"
                            + " client defaults: the published query"),
            Map.entry(
                    SparkPeers.MICRO_BATCH,
                    "Apache Spark 4.2, local mode, Trigger.ProcessingTime(\"0 seconds\"), Spark's Kafka client"
                            + " defaults: the published query"));

    /** Prefix of the mode of a {@link Variant}. */
    public static final String VARIANT_PREFIX = "real-time-";

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
            if (MODES.contains(label) || MODES.contains(VARIANT_PREFIX + label)) {
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
     * modes can run the workload is checked by {@link BenchOptions}.
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

    /**
     * Says what a mode runs, for reports and tables.
     *
     * @param mode a mode, possibly with an {@code @RATE} suffix (a sweep's report)
     * @return one line, never null: empty for an unknown mode
     */
    static String description(String mode) {
        String m = withoutRate(mode);
        if (m.startsWith(VARIANT_PREFIX) && !DESCRIPTIONS.containsKey(m)) {
            return "rtm-streams, real-time mode, the service from --variant " + m.substring(VARIANT_PREFIX.length());
        }
        return DESCRIPTIONS.getOrDefault(m, "");
    }

    /**
     * Prints one line per distinct mode (a sweep's {@code @RATE} suffix dropped) saying what it runs, under a table.
     *
     * @param out where to print
     * @param modes the modes of the table's rows
     */
    static void printLegend(PrintStream out, List<String> modes) {
        Set<String> seen = new LinkedHashSet<>();
        modes.forEach(m -> seen.add(withoutRate(m)));
        for (String mode : seen) {
            String d = description(mode);
            if (!d.isEmpty()) {
                out.println("  " + mode + ": " + d);
            }
        }
    }

    private static String withoutRate(String mode) {
        int at = mode.indexOf('@');
        return at < 0 ? mode : mode.substring(0, at);
    }

    static List<String> knownModes(Map<String, Variant> variants) {
        List<String> known = new ArrayList<>(MODES);
        variants.values().forEach(v -> known.add(v.mode()));
        return known;
    }

    static Variant variantOf(String mode, Map<String, Variant> variants) {
        if (!mode.startsWith(VARIANT_PREFIX) || MODES.contains(mode)) {
            return null;
        }
        return variants.get(mode.substring(VARIANT_PREFIX.length()));
    }

    private BenchModes() {}

    /**
     * @param mode a known mode
     * @return whether the mode runs the ad-attribution service (real-time, micro-batch, micro-batch-asap,
     *     real-time-eos, a variant), which {@link BenchOptions#instances()} can run several instances of
     */
    static boolean runsService(String mode) {
        return !mode.equals("echo") && KafkaStreamsPeer.Kind.ofMode(mode) == null && !SparkPeers.isSpark(mode);
    }
}
