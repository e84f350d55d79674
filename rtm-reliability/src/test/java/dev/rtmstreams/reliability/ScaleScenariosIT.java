package dev.rtmstreams.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.reliability.internals.GroupSettings;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Short versions of the group changes through the {@code chaos} command line, against one embedded KRaft broker (its
 * streams groups may have the real-time trigger's 6 s session timeout), with two service instances instead of the long
 * runs' three: a scale-out 1 -> 2 under exactly-once with the classic protocol, a scale-in 2 -> 1 (graceful stop) and
 * a rolling restart of both at least once, and a kill -9 of one of two under the streams protocol (KIP-1071). 18 s of
 * load each at 200 events/s.
 */
class ScaleScenariosIT {

    private static EmbeddedKafkaCluster kafka;

    Path dir;

    @BeforeEach
    void reportDir(TestInfo info) throws Exception {
        dir = ChaosScenariosIT.reportDirFor(info);
    }

    @BeforeAll
    static void startBroker() {
        EmbeddedKafkaCluster.Builder b = EmbeddedKafkaCluster.builder();
        GroupSettings.BROKER_PROPERTIES.forEach(b::brokerProperty);
        kafka = b.build().start();
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /**
     * 18 s at 200 events/s, 2 partitions (4 tasks), 2 instances, the change 7.2 s into the load (the latency before it
     * is measured from second 5 of the load; a moved task processed again 7.7-8.0 s after a kill or a scale-out).
     */
    private List<String> run(String scenario, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "--scenario",
                scenario,
                "--duration",
                "PT18S",
                "--rate",
                "200",
                "--fault-at",
                "0.4",
                "--instances",
                "2",
                "--report-dir",
                dir.toString(),
                "--correlation-window",
                "PT60S",
                "--bootstrap-servers",
                kafka.bootstrapServers()));
        args.addAll(ChaosScenariosIT.shortRunService());
        args.addAll(List.of(extra));
        return args;
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldMoveTasksToTheNewInstanceAndLoseAndDuplicateNothingWhenScalingOutUnderExactlyOnce() throws Exception {
        Map<String, Object> r = ChaosScenariosIT.runChaos(dir, run("scale-out", "--exactly-once"));

        assertThat(((Number) ((Map<String, Object>) r.get("oracle")).get("duplicates")).longValue())
                .as("duplicates under exactly-once")
                .isZero();
        Map<String, Object> fault = (Map<String, Object>) r.get("fault");
        assertThat(fault.get("group_protocol")).isEqualTo("classic");
        assertThat((Map<String, Object>) fault.get("assignment_before")).containsOnlyKeys("service-a");
        assertThat((Map<String, Object>) fault.get("assignment_after")).containsOnlyKeys("service-a", "service-b");
        assertThat(((Number) fault.get("tasks_moved")).intValue()).isBetween(1, 3);
        assertThat(((Number) fault.get("moved_tasks_processing_again_ms")).longValue())
                .isPositive();
        Map<String, Object> change = (Map<String, Object>) r.get("group_change");
        assertThat(((Number) change.get("rebalances_max")).intValue()).isPositive();
        assertThat(((Number) change.get("p99_before_ms")).doubleValue()).isPositive();
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldMoveTheStoppedInstancesTasksToTheOneLeftAndLoseNothingWhenScalingIn() throws Exception {
        Map<String, Object> r = ChaosScenariosIT.runChaos(dir, run("scale-in"));

        Map<String, Object> fault = (Map<String, Object>) r.get("fault");
        assertThat(fault.get("group_protocol")).isEqualTo("classic");
        assertThat((Map<String, Object>) fault.get("assignment_before")).containsOnlyKeys("service-a", "service-b");
        assertServiceATasksMovedToServiceB(fault);
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldLoseNothingAndEndWithBothInstancesHoldingTasksWhenRestartingThemOneAfterTheOther() throws Exception {
        // dynamic members with the trigger's standby replica: each stop hands the tasks over, each start takes some
        // back (a join task returning to an instance that held its standby is recycled: IntervalJoinRecycleTest)
        Map<String, Object> r = ChaosScenariosIT.runChaos(dir, run("rolling-restart"));

        Map<String, Object> fault = (Map<String, Object>) r.get("fault");
        assertThat((List<String>) fault.get("steps"))
                .filteredOn(step -> step.contains("RUNNING again"))
                .hasSize(2);
        Map<String, List<String>> after = (Map<String, List<String>>) fault.get("assignment_after");
        assertThat(after).containsOnlyKeys("service-a", "service-b");
        assertThat(after.values()).allSatisfy(tasks -> assertThat(tasks).isNotEmpty());
        assertThat(after.values().stream().mapToInt(List::size).sum()).isEqualTo(4);
        Map<String, Object> change = (Map<String, Object>) r.get("group_change");
        assertThat(((Number) change.get("rebalances_max")).intValue())
                .as("dynamic members rebalance at each stop and start")
                .isPositive();
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldMoveTheKilledInstancesTasksToTheSurvivorWhenTheBrokerAssignsThemUnderTheStreamsProtocol()
            throws Exception {
        Map<String, Object> r = ChaosScenariosIT.runChaos(dir, run("instance-kill", "--group-protocol", "streams"));

        Map<String, Object> fault = (Map<String, Object>) r.get("fault");
        assertThat(fault.get("group_protocol")).isEqualTo("streams");
        assertServiceATasksMovedToServiceB(fault);
    }

    /** service-a held tasks before; after, service-b holds all four, and exactly service-a's moved and resumed. */
    @SuppressWarnings("unchecked")
    private static void assertServiceATasksMovedToServiceB(Map<String, Object> fault) {
        Map<String, List<String>> before = (Map<String, List<String>>) fault.get("assignment_before");
        assertThat(before.get("service-a")).isNotEmpty();
        Map<String, List<String>> after = (Map<String, List<String>>) fault.get("assignment_after");
        assertThat(after).containsOnlyKeys("service-b");
        assertThat(after.get("service-b")).hasSize(4).containsAll(before.get("service-a"));
        assertThat(fault.get("moved_tasks")).isEqualTo(before.get("service-a"));
        assertThat(((Number) fault.get("moved_tasks_processing_again_ms")).longValue())
                .isPositive();
    }
}
