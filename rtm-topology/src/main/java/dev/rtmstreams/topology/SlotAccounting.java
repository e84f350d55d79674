package dev.rtmstreams.topology;

import dev.rtmstreams.topology.internals.TopologySizer;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.Topology;

/**
 * Computes the task slots a topology needs, without starting it. Print the result to size a deployment:
 * <pre>{@code
 * System.out.println(SlotAccounting.compute(topology, Map.of("payments", 8), 4, 4, 1));
 * }</pre>
 * Rules (Kafka Streams' own task model): each sub-topology has as many tasks as the largest partition count among
 * its source topics; an internal (repartition) topic that a sub-topology writes and another reads has the partition
 * count given in {@code partitionCounts}, else the count set on the topology ({@code Repartitioned#withNumberOfPartitions}),
 * else the task count of the sub-topology writing it (Kafka Streams' default). Required slots =
 * {@code ceil(total tasks / tasksPerSlot)}; available slots = {@code threads x instances}.
 */
@InterfaceStability.Evolving
public final class SlotAccounting {

    private SlotAccounting() {}

    /**
     * @param topology the built topology, not started (not modified)
     * @param partitionCounts topic name to partition count for every external source topic; repartition topics may
     *     be given under their name in {@code Topology#describe()} or with the {@code <application.id>-} prefix
     * @param threads stream threads per instance ({@code num.stream.threads}), at least 1
     * @param instances expected application instances, at least 1
     * @param tasksPerSlot tasks one slot may run, at least 1
     * @return the sizing report
     * @throws IllegalArgumentException when a number is below 1, or a source topic's partition count is unknown
     */
    public static SizingReport compute(
            Topology topology, Map<String, Integer> partitionCounts, int threads, int instances, int tasksPerSlot) {
        return TopologySizer.compute(topology, partitionCounts, threads, instances, tasksPerSlot);
    }
}
