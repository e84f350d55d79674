package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.workload.RunReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reports and settings with made-up figures, shaped as the runner builds them for each scenario. */
final class SyntheticReports {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SyntheticReports() {}

    static ScenarioRunner.Settings settings(Scenario scenario) {
        return new ScenarioRunner.Settings(
                scenario,
                Duration.ofSeconds(60),
                1000,
                Path.of("chaos-out"),
                Optional.empty(),
                false,
                Path.of("app.jar"),
                2,
                Duration.ofSeconds(5),
                Duration.ofMinutes(2),
                42,
                Duration.ofSeconds(60),
                List.of("-Xmx1g"),
                List.of("-Xmx768m"),
                Duration.ofSeconds(5),
                0.4,
                Duration.ofSeconds(1),
                0.01,
                Duration.ofSeconds(180),
                Optional.empty(),
                KafkaClientSettings.empty(),
                System.out,
                GroupSettings.DEFAULTS,
                scenario.needsCluster() ? 3 : 1);
    }

    static LoadOracle oracle(long missing, long duplicates, long unexpected, long sendErrors) {
        try {
            return new LoadOracle(
                    60_000L,
                    999.991,
                    true,
                    sendErrors,
                    10_821L,
                    10_821L + duplicates + unexpected - missing,
                    10_821L - missing,
                    missing,
                    duplicates,
                    unexpected,
                    0L,
                    2492L,
                    JSON.readTree("{\"p50\":345.855,\"p99\":15777.791,\"count\":10821}"),
                    JSON.readTree("{\"missing\":[],\"unexpected\":[],\"duplicates\":[]}"),
                    "/tmp/load/report.json");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static InjectedFault.ServiceKill kill(String wiped, long downtimeMs) {
        return new InjectedFault.ServiceKill(
                10_000_000_000L,
                40_000_000_000L,
                "kill -9 of the service JVM (pid 4242)",
                24.048,
                wiped,
                downtimeMs,
                1906,
                29_201,
                31_138);
    }

    static InjectedFault.InstanceKill failover(long takeoverMs) {
        Map<String, Long> before = new LinkedHashMap<>();
        before.put("service-a", 2L);
        before.put("service-b", 2L);
        return new InjectedFault.InstanceKill(
                10_000_000_000L,
                before,
                "kill -9 of service-a (pid 6884); service-b survives",
                24.491,
                takeoverMs < 0 ? 2 : 4,
                4,
                takeoverMs,
                List.of("adattribution_slot_active_tasks{thread=\"t-1\"} 2"));
    }

    /**
     * A scale-out 1 -> 3 at 24.5 s into the load (21.0 s after its first input), 5 of 8 tasks moved.
     *
     * @param settledMs from the fault until the assignment settled, -1 if never
     * @param resumedMs from the fault until every moved task processed again, -1 if one never did
     * @return the group change
     */
    static InjectedFault.GroupChange groupChange(long settledMs, long resumedMs) {
        Map<String, List<String>> before = new LinkedHashMap<>();
        before.put("service-a", List.of("0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3"));
        Map<String, List<String>> after = new LinkedHashMap<>();
        after.put("service-a", List.of("0_1", "1_0", "1_3"));
        after.put("service-b", List.of("0_2", "1_1"));
        after.put("service-c", List.of("0_0", "0_3", "1_2"));
        return new InjectedFault.GroupChange(
                10_000_000_000L,
                "scale-out 1 -> 3",
                24.5,
                21.0,
                "classic",
                1,
                false,
                6000,
                List.of("service-b started, RUNNING at +7.2 s", "service-c started, RUNNING at +7.4 s"),
                before,
                after,
                8,
                settledMs,
                5,
                List.of("0_0", "0_2", "0_3", "1_1", "1_2"),
                resumedMs,
                2_400,
                "0_3");
    }

    /**
     * A kill -9 of broker 2 at 21.5 s into the load, started again 1 s later.
     *
     * @param failoverMs from the kill until its partitions had other leaders, -1 if never, null when not measured
     * @param isrFullMs from the kill until the in-sync replicas were full again, -1 if never
     * @return the fault
     */
    static InjectedFault.BrokerFault brokerFault(Long failoverMs, long isrFullMs) {
        return new InjectedFault.BrokerFault(
                10_000_000_000L,
                "kill -9 of partition leader broker 2, start again after PT1S",
                21.5,
                List.of(2),
                "leader of 5 of the 9 partitions of the tasks on partition 0 (inputs, outputs, changelogs)",
                failoverMs,
                1_000,
                6_300,
                isrFullMs,
                List.of("kill -9 of broker 2 (pid 4711)", "new leaders of its partitions after 3200 ms"));
    }

    /**
     * A load run's per-second series: 30 s, p99 100 ms (max 150 ms) but 900 ms (max 1200 ms) in seconds 21-25.
     *
     * @return the series
     */
    static List<RunReport.Second> perSecond() {
        List<RunReport.Second> a = new java.util.ArrayList<>();
        for (int t = 0; t < 30; t++) {
            boolean slow = t >= 21 && t <= 25;
            a.add(new RunReport.Second(t, 500, t == 0 ? 0 : 90, 20.0, slow ? 900.0 : 100.0, slow ? 1200.0 : 150.0));
        }
        return a;
    }

    static ChaosReport.PoisonFigures poison(long missing, long withoutHeaders) {
        return new ChaosReport.PoisonFigures(
                692,
                0,
                692,
                (int) (692 - missing),
                missing,
                missing > 0 ? Map.of("no-key", missing) : Map.of(),
                0,
                withoutHeaders,
                0,
                List.of("{rtm.chaos.poison.id=poison-2}"));
    }

    static ChaosReport.WipeProbes wipe(int lateJoined, long revived, boolean freshJoined) {
        return new ChaosReport.WipeProbes(43_543, 9_812, 100, 20_396, 21_006, 600, lateJoined, 3, revived, freshJoined);
    }

    /**
     * A report of a scenario with every field the runner writes for it.
     *
     * @param scenario the scenario
     * @param ownBroker whether the runner started its own broker
     * @return the report
     */
    static ChaosReport report(Scenario scenario, boolean ownBroker) {
        Findings findings = new Findings();
        InjectedFault injected = switch (scenario) {
            case SERVICE_CRASH, PENDING_TIMERS -> kill(null, 1000);
            case LONG_OUTAGE -> kill(null, 240_000);
            case STATE_WIPE -> kill("/tmp/state/state-wipe-1ah26g-service-a", 1000);
            case BROKER_RESTART ->
                new InjectedFault.BrokerRestart(
                        10_000_000_000L,
                        "graceful stop of the broker JVM, start again on the same port and log dir",
                        24.1,
                        1200,
                        4300,
                        6700);
            case INSTANCE_FAILOVER -> failover(11_123);
            case POISON, SOAK -> null;
            case SCALE_OUT, SCALE_IN, ROLLING_RESTART, INSTANCE_KILL -> groupChange(8_000, 2_600);
            case BROKER_LEADER_KILL, CONTROLLER_KILL, BROKER_PAUSE, TXN_COORDINATOR_KILL, BROKER_NETWORK_PARTITION ->
                brokerFault(3_200L, 14_500);
            case BROKER_ROLLING_RESTART -> brokerFault(null, 31_000);
        };
        ProbeSet straddle = new ProbeSet(
                List.of("probe-r-straddle-0", "probe-r-straddle-1", "probe-r-straddle-2"),
                List.of("probe-r-simp-0", "probe-r-simp-1", "probe-r-simp-2"),
                List.of(1L, 2L, 3L),
                0,
                0);
        switch (scenario) {
            case PENDING_TIMERS -> {
                findings.timersDue(new ChaosReport.TimersDue(true, 97.013));
                StraddleChecker.judge(
                        straddle, true, new FixedProbeOutputs().seenOnce(straddle.straddleOutputs()), findings);
                PendingTimersChecker.judge(new ChaosReport.PendingTimers(3, 0, true), findings);
            }
            case LONG_OUTAGE ->
                StraddleChecker.judge(
                        straddle, true, new FixedProbeOutputs().seenOnce(straddle.straddleOutputs()), findings);
            case STATE_WIPE -> {
                findings.timersDue(new ChaosReport.TimersDue(true, 97.013));
                StateWipeChecker.judge(wipe(0, 0, true), findings);
            }
            case POISON -> PoisonChecker.judge(poison(0, 0), findings);
            case SOAK -> {
                Map<String, ChaosReport.SeriesSummary> summary = new LinkedHashMap<>();
                for (String series : MetricsSampler.SERIES.subList(1, MetricsSampler.SERIES.size())) {
                    summary.put(series, new ChaosReport.SeriesSummary(1, 2, 3, 1.5, 1.75, true));
                }
                findings.soak(36, summary, List.of("out/soak-series.csv", "out/soak-series.html"), false);
            }
            case SCALE_OUT, SCALE_IN, ROLLING_RESTART, INSTANCE_KILL ->
                findings.groupChange(GroupChangeChecker.figures(
                        (InjectedFault.GroupChange) injected,
                        new TreeMap<>(Map.of("service-a", 2, "service-b", 1, "service-c", 1)),
                        perSecond(),
                        new TreeMap<>(Map.of("service-a", 0L, "service-b", 0L, "service-c", 0L))));
            case BROKER_LEADER_KILL,
                    CONTROLLER_KILL,
                    BROKER_PAUSE,
                    BROKER_ROLLING_RESTART,
                    TXN_COORDINATOR_KILL,
                    BROKER_NETWORK_PARTITION ->
                findings.brokerFault(BrokerFaultChecker.figures(
                        (InjectedFault.BrokerFault) injected,
                        perSecond(),
                        1_234,
                        scenario == Scenario.TXN_COORDINATOR_KILL ? 0 : null));
            default -> {
                // service-crash, broker-restart, instance-failover: no sections
            }
        }
        ChaosReport.FaultSection fault = injected == null
                ? ChaosReport.FaultSection.NONE
                : new ChaosReport.FaultSection(injected, findings.timersDue(), 1500L, 2100L);
        return new ChaosReport(
                scenario.cliName(),
                scenario.cliName() + "-1ah26g",
                true,
                1000,
                60.0,
                2,
                "PT5S",
                "PT2M",
                "chaos-1ah26g.",
                "2026-11-29T18:47:38.349299420Z",
                new ChaosReport.Machine(2, "32.56 35.42 37.88 30/664 14814"),
                ownBroker ? "child JVM (KafkaBrokerProcess) localhost:34125" : null,
                29_684,
                fault,
                findings.sections(),
                50_474,
                oracle(0, 0, 0, 0),
                true,
                true,
                "{\"status\":\"UP\",\"state\":\"RUNNING\"}",
                "30.24 32.67 36.28 14/698 19502",
                findings.failures().isEmpty() ? ChaosReport.PASS : ChaosReport.FAIL,
                findings.failures());
    }
}
