package dev.rtmstreams.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.reliability.internals.ChaosReport;
import dev.rtmstreams.reliability.internals.ChaosReport.GroupChangeFigures;
import dev.rtmstreams.reliability.internals.GroupSettings;
import dev.rtmstreams.reliability.internals.InjectedFault.GroupChange;
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
    void shouldMoveTasksToTheNewInstanceAndLoseAndDuplicateNothingWhenScalingOutUnderExactlyOnce() throws Exception {
        ChaosReport r = ChaosScenariosIT.runChaos(dir, run("scale-out", "--exactly-once"));

        assertThat(r.oracle().duplicates()).as("duplicates under exactly-once").isZero();
        GroupChange fault = groupChange(r);
        assertThat(fault.groupProtocol()).isEqualTo("classic");
        assertThat(fault.assignmentBefore()).containsOnlyKeys("service-a");
        assertThat(fault.assignmentAfter()).containsOnlyKeys("service-a", "service-b");
        assertThat(fault.tasksMoved()).isBetween(1, 3);
        assertThat(fault.movedTasksProcessingAgainMs()).isPositive();
        GroupChangeFigures change = r.sections().groupChange();
        assertThat(change.rebalancesMax()).isPositive();
        assertThat(change.p99BeforeMs()).isPositive();
    }

    @Test
    void shouldMoveTheStoppedInstancesTasksToTheOneLeftAndLoseNothingWhenScalingIn() throws Exception {
        ChaosReport r = ChaosScenariosIT.runChaos(dir, run("scale-in"));

        GroupChange fault = groupChange(r);
        assertThat(fault.groupProtocol()).isEqualTo("classic");
        assertThat(fault.assignmentBefore()).containsOnlyKeys("service-a", "service-b");
        assertServiceATasksMovedToServiceB(fault);
    }

    @Test
    void shouldLoseNothingAndEndWithBothInstancesHoldingTasksWhenRestartingThemOneAfterTheOther() throws Exception {
        // dynamic members with the trigger's standby replica: each stop hands the tasks over, each start takes some
        // back (a join task returning to an instance that held its standby is recycled: IntervalJoinRecycleTest)
        ChaosReport r = ChaosScenariosIT.runChaos(dir, run("rolling-restart"));

        GroupChange fault = groupChange(r);
        assertThat(fault.steps())
                .filteredOn(step -> step.contains("RUNNING again"))
                .hasSize(2);
        Map<String, List<String>> after = fault.assignmentAfter();
        assertThat(after).containsOnlyKeys("service-a", "service-b");
        assertThat(after.values()).allSatisfy(tasks -> assertThat(tasks).isNotEmpty());
        assertThat(after.values().stream().mapToInt(List::size).sum()).isEqualTo(4);
        assertThat(r.sections().groupChange().rebalancesMax())
                .as("dynamic members rebalance at each stop and start")
                .isPositive();
    }

    @Test
    void shouldMoveTheKilledInstancesTasksToTheSurvivorWhenTheBrokerAssignsThemUnderTheStreamsProtocol()
            throws Exception {
        ChaosReport r = ChaosScenariosIT.runChaos(dir, run("instance-kill", "--group-protocol", "streams"));

        GroupChange fault = groupChange(r);
        assertThat(fault.groupProtocol()).isEqualTo("streams");
        assertServiceATasksMovedToServiceB(fault);
    }

    /** @return the report's fault, which must be a group change */
    private static GroupChange groupChange(ChaosReport r) {
        assertThat(r.fault().injected()).isInstanceOf(GroupChange.class);
        return (GroupChange) r.fault().injected();
    }

    /** service-a held tasks before; after, service-b holds all four, and exactly service-a's moved and resumed. */
    private static void assertServiceATasksMovedToServiceB(GroupChange fault) {
        Map<String, List<String>> before = fault.assignmentBefore();
        assertThat(before.get("service-a")).isNotEmpty();
        Map<String, List<String>> after = fault.assignmentAfter();
        assertThat(after).containsOnlyKeys("service-b");
        assertThat(after.get("service-b")).hasSize(4).containsAll(before.get("service-a"));
        assertThat(fault.movedTasks()).isEqualTo(before.get("service-a"));
        assertThat(fault.movedTasksProcessingAgainMs()).isPositive();
    }
}
