package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rtmstreams.tools.LatencyRecorder;
import dev.rtmstreams.tools.PrometheusText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the instances of one service group say about themselves, read from their {@code /health} and
 * {@code /metrics}: Kafka Streams' state and the active tasks each holds (the {@code task_id} labels of Kafka Streams'
 * task metrics, which exist only for the tasks an instance runs), and rtm-topology's slot count
 * ({@code adattribution_slot_active_tasks}, summed over the instance's stream threads). From these: whether the group
 * is stable ({@link #problem}, {@link #sameTasks}) and the report's {@code instances} section ({@link #section}).
 */
final class GroupAssignment {

    /** The service's active tasks per slot (stream thread), from rtm-topology's assignment report. */
    static final String SLOT_METRIC = "adattribution_slot_active_tasks";

    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"([A-Z_]+)\"");

    private GroupAssignment() {}

    /**
     * One instance as it answered.
     *
     * @param label its name ({@code instance-1}, ...)
     * @param pid its process id
     * @param state Kafka Streams' state from {@code /health}, or {@code UNREACHABLE}
     * @param tasks its active task ids, sorted; immutable
     * @param slotActiveTasks active tasks in rtm-topology's latest assignment report, or null when not reported
     */
    record Instance(String label, long pid, String state, List<String> tasks, Integer slotActiveTasks) {
        /** Copies. */
        Instance {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(state, "state");
            tasks = List.copyOf(tasks);
        }
    }

    /**
     * Reads one instance's answers.
     *
     * @param label its name
     * @param pid its process id
     * @param health the body of {@code GET /health}, or null when it did not answer 200
     * @param metrics the body of {@code GET /metrics}, or null
     * @return what it says
     */
    static Instance read(String label, long pid, String health, String metrics) {
        String state = "UNREACHABLE";
        if (health != null) {
            Matcher m = STATE.matcher(health);
            state = m.find() ? m.group(1) : "UNKNOWN";
        }
        List<String> tasks = List.copyOf(PrometheusText.activeTasks(metrics));
        double slots = PrometheusText.sum(metrics, SLOT_METRIC);
        return new Instance(label, pid, state, tasks, slots < 0 ? null : (int) Math.round(slots));
    }

    /**
     * Why a group is not settled yet: an instance not RUNNING, one without active tasks, or a task on two instances.
     *
     * @param group every instance of the group
     * @return the first problem in words, or null when every instance runs at least one task of its own
     */
    static String problem(List<Instance> group) {
        Map<String, String> owner = new HashMap<>();
        for (Instance i : group) {
            if (!i.state().equals("RUNNING")) {
                return i.label() + " is " + i.state();
            }
            if (i.tasks().isEmpty()) {
                return i.label() + " runs no task";
            }
            for (String t : i.tasks()) {
                String other = owner.put(t, i.label());
                if (other != null) {
                    return "task " + t + " is on " + other + " and " + i.label();
                }
            }
        }
        return null;
    }

    /**
     * @param a one reading of a group
     * @param b a later reading of the same group
     * @return whether every instance holds the same tasks in both
     */
    static boolean sameTasks(List<Instance> a, List<Instance> b) {
        return tasksByInstance(a).equals(tasksByInstance(b));
    }

    /**
     * @param group a reading of a group
     * @return each instance's active tasks by label, in order
     */
    static Map<String, List<String>> tasksByInstance(List<Instance> group) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        group.forEach(i -> m.put(i.label(), i.tasks()));
        return m;
    }

    /**
     * One line per instance: label, pid, state and tasks, for logs and errors.
     *
     * @param group a reading of a group
     * @return the text
     */
    static String describe(List<Instance> group) {
        StringBuilder sb = new StringBuilder();
        for (Instance i : group) {
            sb.append(String.format("%n  %s (pid %d): %s, active tasks %s", i.label(), i.pid(), i.state(), i.tasks()));
        }
        return sb.toString();
    }

    /**
     * One instance in the report's {@code instances} section, at the end of the run.
     *
     * @param label its name
     * @param pid its process id
     * @param cpuMs its CPU in the measured window; null when unknown
     * @param cpuUsPerEvent {@code cpuMs} per input event, in microseconds; null when unknown
     * @param cpuShare its share of the group's CPU, 0 to 1; null when unknown
     * @param state Kafka Streams' state
     * @param activeTasks how many active tasks it holds
     * @param tasks its active task ids
     * @param slotActiveTasks active tasks in rtm-topology's latest assignment report, or null
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record InstanceReport(
            String label,
            long pid,
            Long cpuMs,
            Double cpuUsPerEvent,
            Double cpuShare,
            String state,
            int activeTasks,
            List<String> tasks,
            Integer slotActiveTasks) {}

    /**
     * The report's {@code instances} section.
     *
     * @param count instances in the group
     * @param sutCpuMs the group's CPU in the measured window; null when one instance's is unknown
     * @param sutCpuUsPerEvent {@code sutCpuMs} per input event, in microseconds; null when unknown
     * @param perInstance each instance at the end, in the group's order
     * @param assignmentAtStart active tasks by instance label once the group was stable, before the first send
     * @param assignmentAtEnd active tasks by instance label after the run
     * @param assignmentChanged whether the two assignments differ
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Section(
            int count,
            Long sutCpuMs,
            Double sutCpuUsPerEvent,
            List<InstanceReport> perInstance,
            Map<String, List<String>> assignmentAtStart,
            Map<String, List<String>> assignmentAtEnd,
            boolean assignmentChanged) {}

    /**
     * The report's {@code instances} section: the group's CPU over the measured window (summed and per instance), and
     * its assignment when it was stable before the run and after the run.
     *
     * @param atStart the group once stable, before the first send
     * @param atEnd the group after the run
     * @param cpu each instance's CPU in the window, in the group's order ({@link CostMeter#instanceCpu()})
     * @param events input events in the measured window
     * @return the section
     * @throws IllegalArgumentException when the lists do not name the same instances in the same order
     */
    static Section section(List<Instance> atStart, List<Instance> atEnd, List<CostMeter.InstanceCpu> cpu, long events) {
        List<String> labels = atEnd.stream().map(Instance::label).toList();
        if (!labels.equals(cpu.stream().map(CostMeter.InstanceCpu::label).toList())
                || !labels.equals(atStart.stream().map(Instance::label).toList())) {
            throw new IllegalArgumentException("instances differ: " + labels + ", "
                    + cpu.stream().map(CostMeter.InstanceCpu::label).toList() + ", "
                    + atStart.stream().map(Instance::label).toList());
        }
        Long total = CostMeter.totalCpuMs(cpu);
        List<InstanceReport> per = new ArrayList<>();
        for (int i = 0; i < atEnd.size(); i++) {
            Instance end = atEnd.get(i);
            CostMeter.InstanceCpu c = cpu.get(i);
            per.add(new InstanceReport(
                    end.label(),
                    end.pid(),
                    c.cpuMs(),
                    CostMeter.perEvent(c.cpuMs(), events),
                    total == null || total == 0 ? null : LatencyRecorder.round((double) c.cpuMs() / total),
                    end.state(),
                    end.tasks().size(),
                    end.tasks(),
                    end.slotActiveTasks()));
        }
        return new Section(
                atEnd.size(),
                total,
                CostMeter.perEvent(total, events),
                per,
                tasksByInstance(atStart),
                tasksByInstance(atEnd),
                !sameTasks(atStart, atEnd));
    }
}
