package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.tools.LatencyRecorder;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cumulative stop-the-world GC times of a JVM by collector, in milliseconds.
 *
 * @param pauseMs pause time so far by collector name (e.g. "G1 young collection pauses", or YGCT and FGCT when
 *     read from {@code jstat -gc})
 */
public record GcTimes(Map<String, Double> pauseMs) {
    /** Copies. */
    public GcTimes {
        pauseMs = Collections.unmodifiableMap(new LinkedHashMap<>(pauseMs));
    }

    /**
     * The pause time between two readings, by collector.
     *
     * @param before the earlier reading of the same JVM
     * @return this minus before, by collector (collectors missing from before count from 0)
     */
    public Map<String, Double> minus(GcTimes before) {
        Map<String, Double> d = new LinkedHashMap<>();
        pauseMs.forEach((k, v) ->
                d.put(k, LatencyRecorder.round(v - before.pauseMs().getOrDefault(k, 0.0))));
        return d;
    }

    /**
     * The pause times of several JVMs added up by collector.
     *
     * @param each readings of different JVMs taken at about the same time
     * @return their sum, by collector, in order of first appearance
     */
    public static GcTimes sum(List<GcTimes> each) {
        Map<String, Double> total = new LinkedHashMap<>();
        each.forEach(t -> t.pauseMs().forEach((k, v) -> total.merge(k, v, Double::sum)));
        return new GcTimes(total);
    }
}
