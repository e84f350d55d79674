package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.adattribution.workload.RunReport;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The group change scenarios' figures and verdicts from synthetic observations: task ownership and progress from
 * samples of /metrics, moved tasks, pauses, rebalances from service logs, latency windows, the group settings.
 */
class GroupChangeTest {

    private static final long S = 1_000_000_000L;
    private static final ServiceTopics TOPICS = ServiceTopics.DEFAULTS.withPrefix("chaos-x.");

    private static TaskTimeline.Sample sample(double seconds, String instance, int jvm, Map<String, Double> progress) {
        return new TaskTimeline.Sample((long) (seconds * S), instance, jvm, progress.keySet(), progress);
    }

    private static SortedSet<String> tasks(String... ids) {
        return new TreeSet<>(List.of(ids));
    }

    @Test
    void shouldTakeEachRunningInstancesLatestSampleAtOrBeforeTheInstantWhenAskedForOwnership() {
        TaskTimeline t = new TaskTimeline();
        t.add(sample(1, "a", 1, Map.of("0_0", 10.0, "0_1", 10.0)));
        t.add(sample(2, "b", 1, Map.of()));
        t.add(sample(3, "a", 1, Map.of("0_0", 12.0)));
        t.add(sample(3.1, "b", 1, Map.of("0_1", 5.0)));

        assertThat(t.ownership(2 * S, Set.of("a", "b")))
                .containsEntry("a", tasks("0_0", "0_1"))
                .containsEntry("b", tasks());
        assertThat(t.ownership(4 * S, Set.of("a", "b")))
                .containsEntry("a", tasks("0_0"))
                .containsEntry("b", tasks("0_1"));
        assertThat(t.ownership(4 * S, Set.of("b"))).containsOnlyKeys("b");
    }

    @Test
    void shouldCallAnAssignmentCompleteOnlyWhenEveryTaskIsHeldOnceAndEveryInstanceHoldsOne() {
        assertThat(TaskTimeline.complete(Map.of("a", tasks("0_0", "1_0"), "b", tasks("0_1", "1_1")), 4))
                .isTrue();
        assertThat(TaskTimeline.complete(Map.of("a", tasks("0_0", "1_0"), "b", tasks("0_1")), 4))
                .as("a task held by none")
                .isFalse();
        assertThat(TaskTimeline.complete(Map.of("a", tasks("0_0", "0_1", "1_0"), "b", tasks("0_1", "1_1")), 4))
                .as("a task held twice")
                .isFalse();
        assertThat(TaskTimeline.complete(Map.of("a", tasks("0_0", "0_1", "1_0", "1_1"), "b", tasks()), 4))
                .as("an idle instance")
                .isFalse();
        assertThat(TaskTimeline.complete(Map.of("a", tasks("0_0"), "b", tasks("1_0"), "c", tasks()), 2))
                .as("more instances than tasks: an idle one is fine")
                .isTrue();
    }

    @Test
    void shouldCountATaskAsMovedWhenItsOwnerDiffersOrItLostItsOwner() {
        Map<String, SortedSet<String>> before = Map.of("a", tasks("0_0", "0_1", "1_0", "1_1"));
        Map<String, SortedSet<String>> after = Map.of("a", tasks("0_0", "1_1"), "b", tasks("0_1"), "c", tasks("1_0"));

        assertThat(TaskTimeline.moved(before, after)).containsExactly("0_1", "1_0");
        assertThat(TaskTimeline.moved(after, Map.of("a", tasks("0_0", "1_1")))).containsExactly("0_1", "1_0");
        assertThat(TaskTimeline.moved(before, before)).isEmpty();
    }

    @Test
    void shouldSeeProgressOnlyWhenACounterGrowsWithinOneJvmWhenFindingTheFirstProgressOnTheNewOwner() {
        TaskTimeline t = new TaskTimeline();
        t.add(sample(1, "a", 1, Map.of("0_0", 100.0)));
        t.add(sample(2, "a", 1, Map.of("0_0", 150.0)));
        t.add(sample(10, "b", 1, Map.of("0_0", 300.0))); // baseline of b's JVM: no progress yet
        t.add(sample(11, "b", 1, Map.of("0_0", 300.0)));
        t.add(sample(12, "b", 1, Map.of("0_0", 320.0)));
        t.add(sample(13, "a", 2, Map.of("0_0", 999.0))); // a restarted: a new baseline

        assertThat(t.firstProgressOn("0_0", "a", 0)).isEqualTo(2 * S);
        assertThat(t.firstProgressOn("0_0", "b", 5 * S)).isEqualTo(12 * S);
        assertThat(t.firstProgressOn("0_0", "a", 5 * S)).isEqualTo(-1);
        assertThat(t.firstProgressOn("0_0", "c", 0)).isEqualTo(-1);
    }

    @Test
    void shouldReportTheLongestStretchWithoutProgressInTheWindowAndWhetherTheTaskRecovered() {
        TaskTimeline t = new TaskTimeline();
        double[] aTimes = {0, 1, 2, 3, 4, 10, 11, 12};
        for (int i = 0; i < aTimes.length; i++) {
            t.add(sample(aTimes[i], "a", 1, Map.of("0_0", 10.0 * i, "0_1", i < 4 ? 10.0 * i : 30.0)));
        }

        TaskTimeline.Pause p = t.longestPause(Set.of("0_0", "0_1"), 3 * S + S / 2, 12 * S);

        assertThat(p).isEqualTo(new TaskTimeline.Pause("0_1", 8_500, false));
        assertThat(t.longestPause(Set.of("0_0"), 3 * S + S / 2, 12 * S))
                .isEqualTo(new TaskTimeline.Pause("0_0", 6_000, true));
    }

    @Test
    void shouldReadActiveTasksAndMainConsumerPositionsPerTaskWhenSamplingMetrics() {
        String metrics = String.join(
                "\n",
                "kafka_streams_stream_task_metrics_process_total{task_id=\"0_1\",thread_id=\"app-StreamThread-1\"} 0.0",
                "kafka_streams_stream_task_metrics_process_total{task_id=\"1_0\",thread_id=\"app-StreamThread-2\"} 0.0",
                "kafka_streams_stream_task_metrics_update_total{task_id=\"0_0\",thread_id=\"app-StreamThread-2\"} 0.0",
                lead("app-StreamThread-1-consumer", "chaos-x.ad-impressions", 1, 40),
                lead("app-StreamThread-1-consumer", "chaos-x.ad-clicks", 1, 2),
                lead("app-StreamThread-2-consumer", "chaos-x.ad-acks", 0, 7),
                lead("app-StateUpdater-1-restore-consumer", "chaos-x.app-store-changelog", 0, 900),
                lead("app-StreamThread-2-restore-consumer", "chaos-x.ad-requests", 0, 900),
                "");

        TaskTimeline.Sample s = GroupChangeFault.sample(5, "a", 1, metrics, TOPICS);

        assertThat(s.active()).containsExactlyInAnyOrder("0_1", "1_0");
        assertThat(s.progress()).isEqualTo(Map.of("0_1", 42.0, "1_0", 7.0));
        assertThat(GroupChangeFault.sample(5, "a", 1, null, TOPICS).active()).isEmpty();
    }

    private static String lead(String client, String topic, int partition, double value) {
        return "kafka_streams_consumer_fetch_manager_metrics_records_lead{client_id=\"" + client + "\",partition=\""
                + partition + "\",topic=\"" + topic + "\"} " + value;
    }

    @Test
    void shouldCountOnlyRebalancesFromRunningAtOrAfterTheFaultWhenReadingServiceLogs() {
        List<String> log = List.of(
                "ts=2026-12-03T19:53:55.442Z level=INFO event=state-change from=CREATED to=REBALANCING",
                "ts=2026-12-03T19:54:00.000Z level=INFO event=state-change from=RUNNING to=REBALANCING",
                "ts=2026-12-03T19:54:10.000Z level=INFO event=state-change from=REBALANCING to=RUNNING",
                "ts=2026-12-03T19:54:35.967Z level=INFO event=state-change from=RUNNING to=REBALANCING",
                "ts=2026-12-03T19:54:39.047Z level=INFO event=state-change from=RUNNING to=REBALANCING");

        assertThat(RebalanceCount.count(log, Instant.parse("2026-12-03T19:54:11Z")))
                .isEqualTo(2);
        assertThat(RebalanceCount.count(log, Instant.parse("2026-12-03T19:50:00Z")))
                .isEqualTo(3);
    }

    @Test
    void shouldTakeTheLargestPerSecondValueOfSecondsWithOutputsInTheWindow() {
        var perSecond = SyntheticReports.perSecond();

        assertThat(LatencyWindows.max(perSecond, RunReport.Second::p99, 5, 21)).isEqualTo(100.0);
        assertThat(LatencyWindows.max(perSecond, RunReport.Second::p99, 21, 34)).isEqualTo(900.0);
        assertThat(LatencyWindows.max(perSecond, RunReport.Second::max, 20, 22)).isEqualTo(1200.0);
        assertThat(LatencyWindows.max(perSecond, RunReport.Second::p99, 0, 1))
                .as("no outputs")
                .isEqualTo(-1.0);
        assertThat(LatencyWindows.max(null, RunReport.Second::p99, 0, 30)).isEqualTo(-1.0);
    }

    @Test
    void shouldReadThePerSecondSeriesOfALoadRunsReportAndIgnoreItsOtherKeys(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path report = dir.resolve("report-real-time.json");
        java.nio.file.Files.writeString(
                report,
                "{\"mode\":\"real-time\",\"missing\":0,\"per_second\":[{\"t\":0,\"sent\":10,\"outputs\":9,"
                        + "\"p50\":1.5,\"p99\":3.0,\"max\":4.25}],\"cost\":{\"events\":10}}");

        assertThat(LatencyWindows.read(report)).containsExactly(new RunReport.Second(0, 10, 9, 1.5, 3.0, 4.25));
        java.nio.file.Files.writeString(report, "{\"mode\":\"real-time\"}");
        assertThat(LatencyWindows.read(report)).isNull();
    }

    @Test
    void shouldPlaceTheLatencyWindowsOnTheLoadsOwnTimeAxisWhenComputingTheFigures() {
        InjectedFault.GroupChange change = SyntheticReports.groupChange(8_000, 2_600);
        Map<String, Integer> rebalances = new LinkedHashMap<>();
        rebalances.put("service-a", 2);
        rebalances.put("service-b", 1);

        ChaosReport.GroupChangeFigures f =
                GroupChangeChecker.figures(change, rebalances, SyntheticReports.perSecond(), Map.of("service-a", 0L));

        // fault 21.0 s after the first input (24.5 s after the runner started the load); settled 8 s later, + 5 s
        assertThat(f.latencyWindowsS()).isEqualTo("before 5-21, during 21-34");
        assertThat(f.p99BeforeMs()).isEqualTo(100.0);
        assertThat(f.p99DuringMs()).isEqualTo(900.0);
        assertThat(f.maxDuringMs()).isEqualTo(1200.0);
        assertThat(f.rebalancesMax()).isEqualTo(2);
        assertThat(f.rebalancesSource()).contains("RUNNING to=REBALANCING");
    }

    @Test
    void shouldPassAGroupChangeThatSettledAndWhoseMovedTasksProcessAgain() {
        Findings findings = new Findings();

        GroupChangeChecker.judge(
                GroupChangeFault.Kind.SCALE_OUT,
                false,
                SyntheticReports.groupChange(8_000, 2_600),
                figures(3),
                findings);

        assertThat(findings.failures()).isEmpty();
    }

    @Test
    void shouldFailNamingWhatWasHeldWhenTheGroupDidNotSettle() {
        Findings findings = new Findings();

        GroupChangeChecker.judge(
                GroupChangeFault.Kind.KILL, false, SyntheticReports.groupChange(-1, 2_600), figures(0), findings);

        assertThat(findings.failures()).singleElement().asString().startsWith("the group did not settle");
    }

    @Test
    void shouldFailWhenAMovedTaskNeverProcessedOnItsNewOwner() {
        Findings findings = new Findings();

        GroupChangeChecker.judge(
                GroupChangeFault.Kind.SCALE_IN, false, SyntheticReports.groupChange(8_000, -1), figures(1), findings);

        assertThat(findings.failures())
                .containsExactly("moved tasks [0_0, 0_2, 0_3, 1_1, 1_2]: not all processed records on their new"
                        + " owner within 60 s of settling");
    }

    @Test
    void shouldFailARollingRestartWithStaticMembershipOnlyWhenItRebalanced() {
        Findings rebalanced = new Findings();
        Findings dynamic = new Findings();
        Findings quiet = new Findings();
        InjectedFault.GroupChange change = SyntheticReports.groupChange(8_000, 2_600);

        GroupChangeChecker.judge(GroupChangeFault.Kind.ROLLING_RESTART, true, change, figures(2), rebalanced);
        GroupChangeChecker.judge(GroupChangeFault.Kind.ROLLING_RESTART, false, change, figures(2), dynamic);
        GroupChangeChecker.judge(GroupChangeFault.Kind.ROLLING_RESTART, true, change, figures(0), quiet);

        assertThat(rebalanced.failures())
                .singleElement()
                .asString()
                .startsWith("static membership: an instance took part in 2 rebalances");
        assertThat(dynamic.failures()).isEmpty();
        assertThat(quiet.failures()).isEmpty();
    }

    @Test
    void shouldFailAScaleOutThatMovedNoTask() {
        InjectedFault.GroupChange c = SyntheticReports.groupChange(8_000, 0);
        InjectedFault.GroupChange unmoved = new InjectedFault.GroupChange(
                c.faultNanos(),
                c.kind(),
                c.atS(),
                c.atSFromFirstInput(),
                c.groupProtocol(),
                c.standbyReplicas(),
                c.staticMembership(),
                c.sessionTimeoutMs(),
                c.steps(),
                c.assignmentBefore(),
                c.assignmentBefore(),
                c.tasksTotal(),
                c.faultToSettledMs(),
                0,
                List.of(),
                0,
                0,
                "");
        Findings findings = new Findings();

        GroupChangeChecker.judge(GroupChangeFault.Kind.SCALE_OUT, false, unmoved, figures(1), findings);

        assertThat(findings.failures()).singleElement().asString().startsWith("no task moved");
    }

    private static ChaosReport.GroupChangeFigures figures(int rebalances) {
        return new ChaosReport.GroupChangeFigures(
                Map.of("service-a", rebalances), rebalances, RebalanceCount.SOURCE, 100, 900, 150, 1200, "", Map.of());
    }

    @Test
    void shouldSetNothingOnTheServiceUnderTheClassicProtocolWhenEveryGroupOptionIsLeftToTheTrigger() {
        assertThat(GroupSettings.DEFAULTS.serviceConfig()).isEmpty();
        assertThat(GroupSettings.DEFAULTS.streamsGroupConfig()).isEmpty();
        assertThat(GroupSettings.DEFAULTS.instanceEnvironment("app", "service-a"))
                .isEmpty();
        assertThat(GroupSettings.DEFAULTS.effectiveStandbyReplicas()).isEqualTo(1);
        assertThat(GroupSettings.DEFAULTS.effectiveSessionTimeout()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void shouldPassStandbysSessionTimeoutAndInstanceIdToTheClassicClient() {
        GroupSettings g = new GroupSettings(3, "classic", OptionalInt.of(0), true, Optional.of(Duration.ofSeconds(30)));

        assertThat(g.serviceConfig())
                .containsExactly(
                        Map.entry("kafka.num.standby.replicas", "0"), Map.entry("kafka.session.timeout.ms", "30000"));
        assertThat(g.instanceEnvironment("app", "service-b"))
                .containsExactly(Map.entry("RTM_KAFKA_GROUP_INSTANCE_ID", "app-service-b"));
        assertThat(g.streamsGroupConfig()).isEmpty();
    }

    @Test
    void shouldSetTheStreamsGroupsBrokerSideConfigsToTheTriggersValuesUnderTheStreamsProtocol() {
        GroupSettings g = new GroupSettings(3, "streams", OptionalInt.empty(), false, Optional.empty());

        assertThat(g.serviceConfig()).containsExactly(Map.entry("kafka.group.protocol", "streams"));
        assertThat(g.streamsGroupConfig())
                .containsExactly(
                        Map.entry("streams.num.standby.replicas", "1"),
                        Map.entry("streams.session.timeout.ms", "6000"),
                        Map.entry("streams.heartbeat.interval.ms", "1500"));
    }

    @Test
    void shouldRefuseGroupSettingsNamingTheOptionAndTheValue() {
        assertThatThrownBy(() -> new GroupSettings(1, "classic", OptionalInt.empty(), false, Optional.empty()))
                .hasMessage("--instances must be at least 2: 1");
        assertThatThrownBy(() -> new GroupSettings(3, "consumer", OptionalInt.empty(), false, Optional.empty()))
                .hasMessage("--group-protocol must be classic or streams: 'consumer'");
        assertThatThrownBy(() -> new GroupSettings(3, "classic", OptionalInt.of(-1), false, Optional.empty()))
                .hasMessage("--standby-replicas must not be negative: -1");
        assertThatThrownBy(
                        () -> new GroupSettings(3, "classic", OptionalInt.empty(), false, Optional.of(Duration.ZERO)))
                .hasMessage("--session-timeout must be positive: PT0S");
    }
}
