package dev.rtmstreams.topology;

import java.util.List;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Task-slot sizing of a topology, computed by {@link SlotAccounting#compute} without starting anything.
 * A slot is a stream thread; every task of every sub-topology needs a slot at once (Spark RTM's rule), or a share of
 * one when {@code tasksPerSlot > 1} (Databricks' {@code maxPartitions}).
 *
 * @param subtopologies per sub-topology, in id order; unmodifiable
 * @param totalTasks sum of the sub-topologies' tasks
 * @param tasksPerSlot how many tasks one slot may run
 * @param requiredSlots {@code ceil(totalTasks / tasksPerSlot)}
 * @param threadsPerInstance {@code num.stream.threads}
 * @param instances expected application instances
 * @param availableSlots {@code threadsPerInstance * instances}
 */
@InterfaceStability.Evolving
public record SizingReport(
        List<SubtopologySizing> subtopologies,
        int totalTasks,
        int tasksPerSlot,
        int requiredSlots,
        int threadsPerInstance,
        int instances,
        int availableSlots) {

    /** Copies the list. */
    public SizingReport {
        subtopologies = List.copyOf(subtopologies);
    }

    /** @return true when {@code availableSlots >= requiredSlots} */
    public boolean sufficient() {
        return availableSlots >= requiredSlots;
    }

    /** @return one line per sub-topology, e.g. {@code "sub-topology 0: 8 tasks (orders=8)"} */
    public String tasksPerSubtopology() {
        StringBuilder sb = new StringBuilder();
        for (SubtopologySizing s : subtopologies) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append("  sub-topology ")
                    .append(s.subtopologyId())
                    .append(": ")
                    .append(s.tasks())
                    .append(" tasks")
                    .append(s.repartitionStage() ? " [shuffle]" : " [source]")
                    .append(" ")
                    .append(s.sourcePartitions());
        }
        return sb.toString();
    }

    /** @return a printable multi-line report */
    @Override
    public String toString() {
        return "Slot sizing: " + totalTasks + " tasks in " + subtopologies.size() + " sub-topologies, "
                + tasksPerSlot + " task(s) per slot -> " + requiredSlots + " slots required; "
                + availableSlots + " available (" + threadsPerInstance + " threads x " + instances + " instances): "
                + (sufficient() ? "OK" : "INSUFFICIENT") + "\n" + tasksPerSubtopology();
    }
}
