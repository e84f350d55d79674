package dev.rtmstreams.topology.internals;

import dev.rtmstreams.processor.RtmProcessorMetrics;
import dev.rtmstreams.topology.StateOperatorProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the cumulative Spark custom metrics of one stream thread's operators into per-epoch values: counters
 * become their growth since the previous epoch of the thread, gauges stay levels. One instance per thread; not
 * thread-safe.
 */
final class StateOperatorDeltas {

    private Map<String, Map<String, Long>> previous = Map.of();

    /**
     * @param now the thread's cumulative values (operator to metric to value), as read at the epoch's commit
     * @return the epoch's values per operator, sorted by operator name
     */
    List<StateOperatorProgress> next(Map<String, Map<String, Long>> now) {
        List<StateOperatorProgress> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, Long>> op : new TreeMap<>(now).entrySet()) {
            Map<String, Long> before = previous.getOrDefault(op.getKey(), Map.of());
            Map<String, Long> values = new TreeMap<>();
            op.getValue()
                    .forEach((name, v) -> values.put(
                            name,
                            RtmProcessorMetrics.SPARK_GAUGES.contains(name)
                                    ? v
                                    : Math.max(0, v - before.getOrDefault(name, 0L))));
            out.add(new StateOperatorProgress(op.getKey(), values));
        }
        previous = now;
        return out;
    }
}
