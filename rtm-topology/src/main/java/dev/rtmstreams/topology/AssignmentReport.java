package dev.rtmstreams.topology;

import java.util.List;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The actual task assignment of this application instance after a rebalance, checked against slot rules.
 *
 * @param applicationId Kafka Streams {@code application.id}
 * @param timeMs wall-clock time of the check (epoch ms)
 * @param slots one entry per local stream thread, in thread-name order; unmodifiable
 * @param tasksPerSlot the configured packing
 * @param targetUtilization the busy fraction a slot should stay under (default 0.5)
 * @param violations human-readable violations (a slot running more than {@code tasksPerSlot} active tasks, a group
 *     with fewer slots than the topology needs); empty when the assignment is within the rules; unmodifiable
 * @param group the whole group's slots (every instance's stream threads) against what the topology needs; null when the
 *     group could not be described
 */
@InterfaceStability.Evolving
public record AssignmentReport(
        String applicationId,
        long timeMs,
        List<Slot> slots,
        int tasksPerSlot,
        double targetUtilization,
        List<String> violations,
        GroupSlots group) {

    /** Copies the lists. */
    public AssignmentReport {
        slots = List.copyOf(slots);
        violations = List.copyOf(violations);
    }

    /** @return total active tasks on this instance */
    public int activeTasks() {
        return slots.stream().mapToInt(s -> s.activeTasks().size()).sum();
    }

    /**
     * One slot (stream thread).
     * @param threadName the stream thread
     * @param activeTasks active task ids (e.g. {@code "0_3"}), sorted; unmodifiable
     * @param standbyTasks standby task ids, sorted; unmodifiable
     * @param busyFraction process+punctuate+commit ratio of the thread, -1 when unknown
     * @param overTarget true when {@code busyFraction > targetUtilization}
     */
    public record Slot(
            String threadName,
            List<String> activeTasks,
            List<String> standbyTasks,
            double busyFraction,
            boolean overTarget) {
        /** Copies the lists. */
        public Slot {
            activeTasks = List.copyOf(activeTasks);
            standbyTasks = List.copyOf(standbyTasks);
        }
    }
}
