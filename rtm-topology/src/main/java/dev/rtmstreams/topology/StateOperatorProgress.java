package dev.rtmstreams.topology;

import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * One stateful operator's part of an {@link EpochProgress}, like an element of Spark's
 * {@code StreamingQueryProgress.stateOperators}: its custom metrics under Spark's names (see
 * {@code RtmProcessorMetrics.SPARK_CUSTOM_METRICS}), summed over the epoch's thread's tasks. Counters
 * ({@code numRegisteredTimers}, {@code numExpiredTimers}, {@code timerProcessingTimeMs}, ...) give their growth
 * during the epoch, as Spark's per-batch values do; counts of declared state variables are levels.
 *
 * @param operatorName the operator's name ({@code TransformWithState#name()})
 * @param customMetrics Spark metric name to value; unmodifiable, sorted by name
 */
@InterfaceStability.Evolving
public record StateOperatorProgress(String operatorName, Map<String, Long> customMetrics) {

    /** Copies the metrics. */
    public StateOperatorProgress {
        customMetrics = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(customMetrics));
    }
}
