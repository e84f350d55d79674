package dev.rtmstreams.topology;

import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Tasks of one Kafka Streams sub-topology (a Spark stage).
 * @param subtopologyId the sub-topology id of {@code Topology#describe()}
 * @param sourcePartitions source topic to its partition count; unmodifiable, in name order
 * @param tasks number of tasks: the largest partition count among the sources
 * @param repartitionStage true when a source is an internal topic written by another sub-topology of the same
 *     topology (a shuffle stage)
 */
@InterfaceStability.Evolving
public record SubtopologySizing(
        int subtopologyId, Map<String, Integer> sourcePartitions, int tasks, boolean repartitionStage) {

    /** Copies the map, keeping its order. */
    public SubtopologySizing {
        sourcePartitions = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sourcePartitions));
    }
}
