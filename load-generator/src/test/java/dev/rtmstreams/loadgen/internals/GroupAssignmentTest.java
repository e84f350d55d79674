package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.tools.LatencySummary;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link GroupAssignment}: reading an instance's answers, the group's stability, and the report's section. */
class GroupAssignmentTest {

    private static final String RUNNING = "{\"status\":\"UP\",\"state\":\"RUNNING\"}";

    /** A service's /metrics with these active tasks on stream thread 1 and a slot gauge of {@code slots}. */
    private static String metrics(int slots, String... tasks) {
        StringBuilder sb = new StringBuilder("# HELP adattribution_slot_active_tasks Active tasks per slot.\n");
        sb.append("adattribution_slot_active_tasks{thread=\"app-x-StreamThread-1\"} ")
                .append(slots)
                .append(".0\n");
        sb.append("kafka_streams_stream_thread_metrics_task_created_total{thread_id=\"app-x-StreamThread-1\"} 9.0\n");
        for (String t : tasks) {
            sb.append("kafka_streams_stream_task_metrics_process_total{task_id=\"")
                    .append(t)
                    .append("\",thread_id=\"app-x-StreamThread-1\"} 42.0\n");
            sb.append("kafka_streams_stream_task_metrics_dropped_records_total{task_id=\"9_9\",thread_id=\"t\"} 0.0\n");
        }
        return sb.toString();
    }

    private static GroupAssignment.Instance instance(String label, String... tasks) {
        return new GroupAssignment.Instance(label, 100, "RUNNING", List.of(tasks), tasks.length);
    }

    @Test
    void shouldReadStateActiveTasksAndSlotsFromAnInstancesAnswers() {
        GroupAssignment.Instance i =
                GroupAssignment.read("instance-1", 7, RUNNING, metrics(3, "1_0", "0_1", "0_0", "0_1"));

        assertThat(i.label()).isEqualTo("instance-1");
        assertThat(i.pid()).isEqualTo(7);
        assertThat(i.state()).isEqualTo("RUNNING");
        // sorted, once each, only from the task metric
        assertThat(i.tasks()).containsExactly("0_0", "0_1", "1_0");
        assertThat(i.slotActiveTasks()).isEqualTo(3);
    }

    @Test
    void shouldSayUnreachableWhenAnInstanceDoesNotAnswer() {
        GroupAssignment.Instance i = GroupAssignment.read("instance-2", 8, null, null);

        assertThat(i.state()).isEqualTo("UNREACHABLE");
        assertThat(i.tasks()).isEmpty();
        assertThat(i.slotActiveTasks()).isNull();
        assertThat(GroupAssignment.read("i", 1, "{}", "").state()).isEqualTo("UNKNOWN");
    }

    @Test
    void shouldAcceptAGroupOnlyWhenEveryInstanceRunsTasksOfItsOwn() {
        assertThat(GroupAssignment.problem(
                        List.of(instance("instance-1", "0_0", "1_0"), instance("instance-2", "0_1"))))
                .isNull();
        assertThat(GroupAssignment.problem(List.of(instance("instance-1", "0_0", "0_1"), instance("instance-2"))))
                .isEqualTo("instance-2 runs no task");
        assertThat(GroupAssignment.problem(List.of(instance("instance-1", "0_0"), instance("instance-2", "0_0"))))
                .isEqualTo("task 0_0 is on instance-1 and instance-2");
        GroupAssignment.Instance rebalancing =
                new GroupAssignment.Instance("instance-2", 1, "REBALANCING", List.of("0_1"), 1);
        assertThat(GroupAssignment.problem(List.of(instance("instance-1", "0_0"), rebalancing)))
                .isEqualTo("instance-2 is REBALANCING");
    }

    @Test
    void shouldCompareTheTasksOfTwoReadings() {
        List<GroupAssignment.Instance> a = List.of(instance("instance-1", "0_0"), instance("instance-2", "0_1"));
        List<GroupAssignment.Instance> same = List.of(instance("instance-1", "0_0"), instance("instance-2", "0_1"));
        List<GroupAssignment.Instance> moved = List.of(instance("instance-1", "0_1"), instance("instance-2", "0_0"));

        assertThat(GroupAssignment.sameTasks(a, same)).isTrue();
        assertThat(GroupAssignment.sameTasks(a, moved)).isFalse();
    }

    @Test
    void shouldSumTheCpuOfTheInstancesAndGiveEachItsShareAndTasks() {
        List<GroupAssignment.Instance> start =
                List.of(instance("instance-1", "0_0", "1_0"), instance("instance-2", "0_1", "1_1"));
        List<GroupAssignment.Instance> end =
                List.of(instance("instance-1", "0_0", "1_0"), instance("instance-2", "0_1", "1_1"));
        List<CostMeter.InstanceCpu> cpu = List.of(
                new CostMeter.InstanceCpu("instance-1", 11, 300L), new CostMeter.InstanceCpu("instance-2", 12, 100L));

        GroupAssignment.Section s = GroupAssignment.section(start, end, cpu, 10_000);

        assertThat(s.count()).isEqualTo(2);
        assertThat(s.sutCpuMs()).isEqualTo(400L);
        assertThat(s.sutCpuUsPerEvent()).isEqualTo(40.0);
        assertThat(s.assignmentChanged()).isFalse();
        assertThat(s.assignmentAtStart())
                .isEqualTo(Map.of("instance-1", List.of("0_0", "1_0"), "instance-2", List.of("0_1", "1_1")));
        List<GroupAssignment.InstanceReport> per = s.perInstance();
        assertThat(per).hasSize(2);
        assertThat(per.get(0))
                .isEqualTo(new GroupAssignment.InstanceReport(
                        "instance-1", 100L, 300L, 30.0, 0.75, "RUNNING", 2, List.of("0_0", "1_0"), 2));
        assertThat(per.get(1).cpuUsPerEvent()).isEqualTo(10.0);
        assertThat(per.get(1).cpuShare()).isEqualTo(0.25);
    }

    @Test
    void shouldSayTheAssignmentChangedAndLeaveUnknownCpuUnknown() {
        List<GroupAssignment.Instance> start = List.of(instance("instance-1", "0_0"), instance("instance-2", "0_1"));
        List<GroupAssignment.Instance> end = List.of(instance("instance-1", "0_0", "0_1"), instance("instance-2"));
        List<CostMeter.InstanceCpu> cpu = List.of(
                new CostMeter.InstanceCpu("instance-1", 1, 50L), new CostMeter.InstanceCpu("instance-2", 2, null));

        GroupAssignment.Section s = GroupAssignment.section(start, end, cpu, 10);

        assertThat(s.assignmentChanged()).isTrue();
        assertThat(s.sutCpuMs()).isNull();
        assertThat(s.sutCpuUsPerEvent()).isNull();
        List<GroupAssignment.InstanceReport> per = s.perInstance();
        assertThat(per.get(0).cpuUsPerEvent()).isEqualTo(5000.0);
        assertThat(per.get(0).cpuShare()).isNull();
        assertThat(per.get(1).cpuMs()).isNull();
        assertThat(per.get(1).activeTasks()).isZero();
    }

    @Test
    void shouldShowEachInstanceInTheHtmlPageAndUnderTheConsoleTable() {
        List<GroupAssignment.Instance> group = List.of(instance("instance-1", "0_0"), instance("instance-2", "0_1"));
        LoadReport report = LoadReport.of(
                TestReports.run("real-time", 1000, 0, 0, LatencySummary.EMPTY, List.of()),
                null,
                null,
                GroupAssignment.section(
                        group,
                        group,
                        List.of(
                                new CostMeter.InstanceCpu("instance-1", 100, 600L),
                                new CostMeter.InstanceCpu("instance-2", 100, 200L)),
                        1000));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

        String html = HtmlReport.render("t", List.of(report));
        ReportWriter.printInstances(
                new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8), List.of(report));

        assertThat(html).contains("Service instances", "instance-1", "[0_0]", "instance-2", "[0_1]", "unchanged");
        assertThat(bytes.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("real-time: 2 instances, SUT 800.0 us/ev in all, assignment unchanged during the run")
                .containsPattern("instance-1 +pid 100 +600.0 us/ev +share +75% +active tasks \\[0_0\\]")
                .containsPattern("instance-2 +pid 100 +200.0 us/ev +share +25% +active tasks \\[0_1\\]");
    }

    @Test
    void shouldRefuseReadingsOfDifferentInstances() {
        List<GroupAssignment.Instance> one = List.of(instance("instance-1", "0_0"));
        List<GroupAssignment.Instance> other = List.of(instance("instance-2", "0_0"));
        List<CostMeter.InstanceCpu> cpu = List.of(new CostMeter.InstanceCpu("instance-1", 1, 5L));

        assertThatThrownBy(() -> GroupAssignment.section(one, other, cpu, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("instance-2");
    }
}
