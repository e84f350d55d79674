package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/** What a report says about the setting of its run: the workload, the machine and the bench's setup. */
final class RunDescriptions {

    /** Above this 1-minute load average at bench start, the bench warns that the machine is busy. */
    public static final double BUSY_LOAD = 1.0;

    private RunDescriptions() {}

    /** Reads the 1-minute load average and warns when the machine is busy. */
    static Double loadAtBenchStart() {
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

    /**
     * Describes the setting of a {@code --find-max} search: the machine, the load at its start and the workload
     * without its rate and length (each probe has its own).
     *
     * @param o the options
     * @param benchLoad the 1-minute load average at the start, or null
     * @return a JSON-ready map
     */
    static Map<String, Object> findMaxEnvironment(BenchOptions o, Double benchLoad) {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("java", System.getProperty("java.version"));
        env.put("load_average_1m_at_bench_start", benchLoad);
        Map<String, Object> workload = workloadDescription(o.workload());
        workload.remove("rate");
        workload.remove("events");
        env.put("workload", workload);
        return env;
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

    static Map<String, Object> environment(BenchOptions o, String bootstrap) {
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
        m.put("instances", o.instances());
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
