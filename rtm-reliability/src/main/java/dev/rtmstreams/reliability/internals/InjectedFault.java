package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rtmstreams.tools.ReportJson;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a fault that strikes at the scheduled time did: its kind, when, and its own figures (its JSON fields go
 * into {@code fault}).
 */
public sealed interface InjectedFault {
    /** @return when it struck ({@link System#nanoTime()}) */
    long faultNanos();

    /** @return what was done, e.g. {@code kill -9 of the service JVM (pid 4242)} */
    String kind();

    /** @return seconds from the start of the load to the fault, to the ms */
    double atS();

    /**
     * Reads a fault back from a report's {@code fault} object, which also holds the recovery's and the timers' fields:
     * the kind of fault is told by a field only it writes ({@code fault_to_restart_ms}, {@code broker_stop_ms},
     * {@code survivor_tasks_after}, {@code group_protocol}, {@code broker_nodes}). The times that are not written read back as 0.
     *
     * @param fault the {@code fault} object
     * @return the fault, or null when the object holds none (no {@code kind}: a scenario without a fault that strikes)
     * @throws IllegalArgumentException when the object has a {@code kind} but none of those fields, or does not read as
     *     the fault they tell
     */
    static InjectedFault fromJson(JsonNode fault) {
        if (!fault.has("kind")) {
            return null;
        }
        Class<? extends InjectedFault> type;
        if (fault.has("fault_to_restart_ms")) {
            type = ServiceKill.class;
        } else if (fault.has("broker_stop_ms")) {
            type = BrokerRestart.class;
        } else if (fault.has("survivor_tasks_after")) {
            type = InstanceKill.class;
        } else if (fault.has("group_protocol")) {
            type = GroupChange.class;
        } else if (fault.has("broker_nodes")) {
            type = BrokerFault.class;
        } else {
            throw new IllegalArgumentException("a fault of unknown kind (none of fault_to_restart_ms, broker_stop_ms,"
                    + " survivor_tasks_after, group_protocol, broker_nodes): " + fault);
        }
        return ReportJson.convert(fault, type);
    }

    /**
     * The service JVM killed (-9), its state directory optionally wiped, and started again after a downtime.
     *
     * @param faultNanos when it was killed (not written)
     * @param runningNanos when it was RUNNING again (not written)
     * @param kind {@code kill -9 of the service JVM (pid N)}
     * @param atS seconds from the start of the load
     * @param stateDirWiped the state directory deleted, or null when kept (then not written)
     * @param downtimeMs how long it stayed down
     * @param faultToRestartMs from the kill to the new JVM's launch
     * @param restartToRunningMs from the launch to RUNNING
     * @param faultToRunningMs from the kill to RUNNING
     */
    @JsonIgnoreProperties(ignoreUnknown = true) // the fault object also holds the recovery's fields
    public record ServiceKill(
            @JsonIgnore long faultNanos,
            @JsonIgnore long runningNanos,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,

            @JsonProperty("state_dir_wiped") @JsonInclude(JsonInclude.Include.NON_NULL)
            String stateDirWiped,

            @JsonProperty("downtime_ms") long downtimeMs,
            @JsonProperty("fault_to_restart_ms") long faultToRestartMs,
            @JsonProperty("restart_to_running_ms") long restartToRunningMs,
            @JsonProperty("fault_to_running_ms") long faultToRunningMs)
            implements InjectedFault {}

    /**
     * The broker process stopped and started again on the same port and log directory.
     *
     * @param faultNanos when it was stopped (not written)
     * @param kind what was done
     * @param atS seconds from the start of the load
     * @param brokerStopMs how long the graceful stop took
     * @param brokerStartMs how long the start took
     * @param faultToBrokerUpMs from the stop to the broker serving again
     */
    @JsonIgnoreProperties(ignoreUnknown = true) // the fault object also holds the recovery's fields
    public record BrokerRestart(
            @JsonIgnore long faultNanos,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,
            @JsonProperty("broker_stop_ms") long brokerStopMs,
            @JsonProperty("broker_start_ms") long brokerStartMs,
            @JsonProperty("fault_to_broker_up_ms") long faultToBrokerUpMs)
            implements InjectedFault {}

    /**
     * One of two instances killed (-9); the other takes over its tasks.
     *
     * @param faultNanos when it was killed (not written)
     * @param assignmentBefore active tasks per instance name just before the kill
     * @param kind what was done
     * @param atS seconds from the start of the load
     * @param survivorTasksAfter active tasks of the survivor at the end of the wait
     * @param tasksTotal tasks of the topology
     * @param faultToTakeoverMs from the kill until the survivor reported every task, -1 if not within 120 s
     * @param survivorSlotReport the survivor's {@code adattribution_slot_*} metric lines
     */
    @JsonIgnoreProperties(ignoreUnknown = true) // the fault object also holds the recovery's fields
    public record InstanceKill(
            @JsonIgnore long faultNanos,
            @JsonProperty("assignment_before") Map<String, Long> assignmentBefore,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,
            @JsonProperty("survivor_tasks_after") long survivorTasksAfter,
            @JsonProperty("tasks_total") long tasksTotal,
            @JsonProperty("fault_to_takeover_ms") long faultToTakeoverMs,
            @JsonProperty("survivor_slot_report") List<String> survivorSlotReport)
            implements InjectedFault {

        /** Copies the collections. */
        public InstanceKill {
            assignmentBefore = Collections.unmodifiableMap(new LinkedHashMap<>(assignmentBefore));
            survivorSlotReport = List.copyOf(survivorSlotReport);
        }
    }

    /**
     * Instances started, stopped, restarted or killed under load while they share one application id (scale-out,
     * scale-in, rolling-restart, instance-kill), and how the group's active tasks moved. The task ids per instance come
     * from each instance's task-level {@code process-total} on {@code /metrics}, sampled every 250 ms from the fault
     * until the assignment settled.
     *
     * @param faultNanos when the first action began (not written)
     * @param kind what was done, e.g. {@code scale-out 1 -> 3}
     * @param atS seconds from the start of the load
     * @param atSFromFirstInput seconds from the load's first input record (as the runner saw it arrive) to the fault:
     *     the time axis of the load run's per-second series; -1 when not seen
     * @param groupProtocol {@code classic} or {@code streams}
     * @param standbyReplicas standby replicas per task (client-side under classic, the group's config under streams)
     * @param staticMembership whether each instance had a {@code group.instance.id}
     * @param sessionTimeoutMs the session timeout the members ran with
     * @param steps each action with its timing, in order
     * @param assignmentBefore active tasks per running instance just before the fault
     * @param assignmentAfter active tasks per running instance once settled
     * @param tasksTotal tasks of the topology
     * @param faultToSettledMs from the fault until the running instances held every task, each once, each instance at
     *     least one, unchanged for 3 s; -1 if not within 120 s of the last action
     * @param tasksMoved tasks whose owner differs between before and after
     * @param movedTasks those tasks
     * @param movedTasksProcessingAgainMs from the fault until every moved task processed records on its new owner, -1
     *     if one never did (0 when none moved)
     * @param longestTaskPauseMs the longest time any task went without processing a record, from the fault until 3 s
     *     after the assignment settled
     * @param longestPausedTask the task of that pause
     */
    @JsonIgnoreProperties(ignoreUnknown = true) // the fault object also holds the recovery's fields
    public record GroupChange(
            @JsonIgnore long faultNanos,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,
            @JsonProperty("at_s_from_first_input") double atSFromFirstInput,
            @JsonProperty("group_protocol") String groupProtocol,
            @JsonProperty("standby_replicas") int standbyReplicas,
            @JsonProperty("static_membership") boolean staticMembership,
            @JsonProperty("session_timeout_ms") long sessionTimeoutMs,
            @JsonProperty("steps") List<String> steps,
            @JsonProperty("assignment_before") Map<String, List<String>> assignmentBefore,
            @JsonProperty("assignment_after") Map<String, List<String>> assignmentAfter,
            @JsonProperty("tasks_total") long tasksTotal,
            @JsonProperty("fault_to_settled_ms") long faultToSettledMs,
            @JsonProperty("tasks_moved") int tasksMoved,
            @JsonProperty("moved_tasks") List<String> movedTasks,
            @JsonProperty("moved_tasks_processing_again_ms") long movedTasksProcessingAgainMs,
            @JsonProperty("longest_task_pause_ms") long longestTaskPauseMs,
            @JsonProperty("longest_paused_task") String longestPausedTask)
            implements InjectedFault {

        /** Copies the collections. */
        public GroupChange {
            steps = List.copyOf(steps);
            assignmentBefore = copy(assignmentBefore);
            assignmentAfter = copy(assignmentAfter);
            movedTasks = List.copyOf(movedTasks);
        }

        private static Map<String, List<String>> copy(Map<String, List<String>> m) {
            Map<String, List<String>> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, List.copyOf(v)));
            return Collections.unmodifiableMap(out);
        }
    }

    /**
     * Brokers of the runner's own cluster killed, paused or restarted in turn (broker-leader-kill, controller-kill,
     * broker-pause, broker-rolling-restart, txn-coordinator-kill), and how the cluster got back to full in-sync replicas.
     *
     * @param faultNanos when the first broker was hit (not written)
     * @param kind what was done
     * @param atS seconds from the start of the load
     * @param brokerNodes the node ids hit, in order
     * @param role what the hit broker was: {@code active controller}, the leader of which partitions, or every broker
     * @param faultToFailoverMs from the fault until the partitions it led had other leaders (or another controller was
     *     active), -1 if not within 120 s; null (not written) for the rolling restart, whose clean stops move the
     *     leaders before the broker exits
     * @param brokerDownMs how long the broker was down or frozen (the longest, for the rolling restart)
     * @param brokerStartMs how long its start took, 0 for a resumed one (the longest, for the rolling restart)
     * @param faultToIsrFullMs from the fault until every replica of the run's and the service's topics was in sync
     *     again (after the last broker, for the rolling restart), -1 if not within 120 s
     * @param steps what was done, with its timing, in order
     */
    @JsonIgnoreProperties(ignoreUnknown = true) // the fault object also holds the recovery's fields
    public record BrokerFault(
            @JsonIgnore long faultNanos,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,
            @JsonProperty("broker_nodes") List<Integer> brokerNodes,
            @JsonProperty("role") String role,

            @JsonProperty("fault_to_failover_ms") @JsonInclude(JsonInclude.Include.NON_NULL)
            Long faultToFailoverMs,

            @JsonProperty("broker_down_ms") long brokerDownMs,
            @JsonProperty("broker_start_ms") long brokerStartMs,
            @JsonProperty("fault_to_isr_full_ms") long faultToIsrFullMs,
            @JsonProperty("steps") List<String> steps)
            implements InjectedFault {

        /** Copies the lists. */
        public BrokerFault {
            brokerNodes = List.copyOf(brokerNodes);
            steps = List.copyOf(steps);
        }
    }
}
