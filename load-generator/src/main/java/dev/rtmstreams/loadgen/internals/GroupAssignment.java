package dev.rtmstreams.loadgen.internals;

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
     * The report's {@code instances} section: the group's CPU over the measured window (summed and per instance), and
     * its assignment when it was stable before the run and after the run.
     *
     * @param atStart the group once stable, before the first send
     * @param atEnd the group after the run
     * @param cpu each instance's CPU in the window, in the group's order ({@link CostMeter#instanceCpu()})
     * @param events input events in the measured window
     * @return count, sut_cpu_ms, sut_cpu_us_per_event (sums; null when one is unknown), per_instance (label, pid,
     *     cpu_ms, cpu_us_per_event, cpu_share of the group's CPU, state, active_tasks, tasks, slot_active_tasks, all
     *     at the end), assignment_at_start, assignment_at_end (tasks by label) and assignment_changed
     * @throws IllegalArgumentException when the lists do not name the same instances in the same order
     */
    static Map<String, Object> section(
            List<Instance> atStart, List<Instance> atEnd, List<CostMeter.InstanceCpu> cpu, long events) {
        List<String> labels = atEnd.stream().map(Instance::label).toList();
        if (!labels.equals(cpu.stream().map(CostMeter.InstanceCpu::label).toList())
                || !labels.equals(atStart.stream().map(Instance::label).toList())) {
            throw new IllegalArgumentException("instances differ: " + labels + ", "
                    + cpu.stream().map(CostMeter.InstanceCpu::label).toList() + ", "
                    + atStart.stream().map(Instance::label).toList());
        }
        Long total = CostMeter.totalCpuMs(cpu);
        List<Map<String, Object>> per = new ArrayList<>();
        for (int i = 0; i < atEnd.size(); i++) {
            Instance end = atEnd.get(i);
            CostMeter.InstanceCpu c = cpu.get(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("label", end.label());
            m.put("pid", end.pid());
            m.put("cpu_ms", c.cpuMs());
            m.put("cpu_us_per_event", CostMeter.perEvent(c.cpuMs(), events));
            m.put("cpu_share", total == null || total == 0 ? null : LatencyRecorder.round((double) c.cpuMs() / total));
            m.put("state", end.state());
            m.put("active_tasks", end.tasks().size());
            m.put("tasks", end.tasks());
            m.put("slot_active_tasks", end.slotActiveTasks());
            per.add(m);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("count", atEnd.size());
        s.put("sut_cpu_ms", total);
        s.put("sut_cpu_us_per_event", CostMeter.perEvent(total, events));
        s.put("per_instance", per);
        s.put("assignment_at_start", tasksByInstance(atStart));
        s.put("assignment_at_end", tasksByInstance(atEnd));
        s.put("assignment_changed", !sameTasks(atStart, atEnd));
        return s;
    }
}
