package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.tools.LatencySummary;
import dev.rtmstreams.tools.ReportJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FindMaxTest {

    private static List<RunReport.Second> perSecond(double... p50s) {
        List<RunReport.Second> out = new ArrayList<>();
        for (int t = 0; t < p50s.length; t++) {
            out.add(new RunReport.Second(t, 100L, 10L, p50s[t], p50s[t] * 2, p50s[t] * 2));
        }
        return out;
    }

    private static RunReport run(boolean keptUp, long missing, double... p50s) {
        return report(keptUp, missing, p50s).run();
    }

    private static LoadReport report(boolean keptUp, long missing, double... p50s) {
        LatencySummary latency = new LatencySummary(5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 6.0, 900);
        return LoadReport.of(
                TestReports.run("m", 1000, keptUp, 900, missing, latency, perSecond(p50s)),
                null,
                TestReports.sutCost(12.5),
                null);
    }

    @Test
    void shouldPassWhenLatencyIsFlatAndEverythingArrived() {
        FindMax.Verdict v = FindMax.judge(run(true, 0, 5, 6, 5, 7, 5, 6, 5, 6, 5));

        assertThat(v.pass()).isTrue();
        assertThat(v.reason()).isEqualTo("ok");
    }

    @Test
    void shouldAllowTwiceTheFirstThirdPlusFiftyMillisecondsWhenJudgingGrowth() {
        // first third median 10 ms -> bound 70 ms
        assertThat(FindMax.latencyCriteria(perSecond(10, 10, 10, 30, 40, 50, 70, 70, 70))
                        .pass())
                .isTrue();
        assertThat(FindMax.latencyCriteria(perSecond(10, 10, 10, 30, 40, 50, 71, 71, 71))
                        .pass())
                .isFalse();
        // one slow second in the last third does not move its median
        assertThat(FindMax.latencyCriteria(perSecond(10, 10, 10, 10, 10, 10, 10, 900, 10))
                        .pass())
                .isTrue();
    }

    @Test
    void shouldFailNamingTheMediansWhenLatencyGrowsAcrossTheRun() {
        FindMax.Verdict v = FindMax.judge(run(true, 0, 5, 5, 5, 50, 100, 200, 400, 800, 1600));

        assertThat(v.pass()).isFalse();
        assertThat(v.reason())
                .startsWith("latency grew: median p50 of the last third 800.0 ms > 2 x first third 5.0 ms");
    }

    @Test
    void shouldFailWhenTheGeneratorFellBehindOrOutputsAreMissing() {
        FindMax.Verdict behind = FindMax.judge(run(false, 0, 5, 5, 5));
        FindMax.Verdict missing = FindMax.judge(run(true, 3, 5, 5, 5));
        FindMax.Verdict both = FindMax.judge(run(false, 3, 5, 5, 5));

        assertThat(behind.pass()).isFalse();
        assertThat(behind.reason()).contains("generator fell behind (max send lag 1500.0 ms)");
        assertThat(missing.pass()).isFalse();
        assertThat(missing.reason()).isEqualTo("missing 3 of 900 outputs");
        assertThat(both.reason()).contains("fell behind").contains("; missing 3");
    }

    @Test
    void shouldNotJudgeGrowthWithFewerThanThreeSecondsOfOutputs() {
        assertThat(FindMax.latencyCriteria(perSecond(5, 5000)).pass()).isTrue();
        assertThat(FindMax.latencyCriteria(perSecond(5, 5000)).reason()).contains("not judged");
    }

    @Test
    void shouldFailWhenOutputsOnlyArriveAfterTheSendingPeriod() {
        // 20 s of sending without an output; the outputs arrive 27-29 s after the window started (the continuous
        // stream carried a backlog of ~25 s out of the warm-up)
        List<RunReport.Second> ps = new ArrayList<>();
        for (int t = 0; t < 30; t++) {
            double p50 = t >= 27 ? 25_000.0 : 0.0;
            ps.add(new RunReport.Second(t, t < 20 ? 100L : 0L, t >= 27 ? 10L : 0L, p50, p50, p50));
        }

        FindMax.Verdict v = FindMax.latencyCriteria(ps);

        assertThat(v.pass()).isFalse();
        assertThat(v.reason())
                .isEqualTo("outputs lag the inputs by more than the window: 0 of the 20 sending seconds received"
                        + " outputs");
    }

    @Test
    void shouldFailOnAStandingBacklogThatDoesNotGrow() {
        // flat at ~13 s: no growth, but a queue of seconds carried into the window and never drained
        FindMax.Verdict flat = FindMax.latencyCriteria(perSecond(12_600, 12_800, 13_100, 13_300, 13_000, 12_900));
        // a backlog drained within the window passes: it started at 4.4 s and ended at ~20 ms
        FindMax.Verdict drained = FindMax.latencyCriteria(perSecond(4456, 3883, 1917, 1040, 62, 19, 26, 14, 15));
        // the bound is inclusive
        FindMax.Verdict atBound = FindMax.latencyCriteria(perSecond(900, 900, 900, 1000, 1000, 1000));

        assertThat(flat.pass()).isFalse();
        assertThat(flat.reason()).isEqualTo("standing backlog: median p50 of the last third 12950.0 ms > 1000 ms");
        assertThat(drained.pass()).isTrue();
        assertThat(atBound.pass()).isTrue();
    }

    @Test
    void shouldNameBothFailuresWhenTheBacklogGrowsPastTheBound() {
        FindMax.Verdict v = FindMax.latencyCriteria(perSecond(100, 100, 400, 800, 1600, 3200));

        assertThat(v.pass()).isFalse();
        assertThat(v.reason())
                .isEqualTo("latency grew: median p50 of the last third 2400.0 ms > 2 x first third 100.0 ms + 50 ms;"
                        + " standing backlog: median p50 of the last third 2400.0 ms > 1000 ms");
    }

    @Test
    void shouldIgnoreDrainSecondsAfterTheFirstSecondBeyondTheSendingPeriod() {
        List<RunReport.Second> ps = new ArrayList<>();
        for (RunReport.Second s : perSecond(5, 5, 5, 5, 5, 5, 5000, 5000, 5000)) {
            ps.add(s.t() < 5 ? s : new RunReport.Second(s.t(), 0L, s.outputs(), s.p50(), s.p99(), s.max()));
        }
        // sending ended in second 4; seconds 0..5 count: 5,5,5,5,5,5 -> flat
        assertThat(FindMax.latencyCriteria(ps).pass()).isTrue();
    }

    @Test
    void shouldBuildAProbeWithLatencyAndCostOfTheReport() {
        FindMax.Probe p = FindMax.probeOf(7000, report(true, 0, 5, 5, 5));

        assertThat(p.rate()).isEqualTo(7000);
        assertThat(p.pass()).isTrue();
        assertThat(p.p50()).isEqualTo(5.0);
        assertThat(p.p99()).isEqualTo(20.0);
        assertThat(p.cost().sutCpuUsPerEvent()).isEqualTo(12.5);
    }

    /** A fake mode that sustains every rate up to {@code max}. */
    private static FindMax.ProbeFunction upTo(double max, List<Double> probed) {
        return rate -> {
            probed.add(rate);
            boolean pass = rate <= max;
            return new FindMax.Probe(rate, pass, pass ? "ok" : "latency grew", 1.0, 2.0, null);
        };
    }

    @Test
    void shouldRampByTheFactorThenBisectToTheResolutionWhenSearching() throws Exception {
        List<Double> probed = new ArrayList<>();

        FindMax.Result r = FindMax.search("m", new FindMax.Settings(5000, 1.5, 60000, null), upTo(14000, probed));

        // ramp 5000, 7500, 11250, 16875 (fail); bisect 14063 (fail), 12657 (pass), 13360 (pass): gap 703 <= 10% of
        // 13360
        assertThat(probed).containsExactly(5000.0, 7500.0, 11250.0, 16875.0, 14063.0, 12657.0, 13360.0);
        assertThat(r.maxSustainedRate()).isEqualTo(13360.0);
        assertThat(r.probes())
                .extracting(FindMax.Probe::pass)
                .containsExactly(true, true, true, false, false, true, true);
        assertThat(r.mode()).isEqualTo("m");
    }

    @Test
    void shouldStopAtTheLimitWhenEveryRatePasses() throws Exception {
        List<Double> probed = new ArrayList<>();

        FindMax.Result r = FindMax.search("m", new FindMax.Settings(5000, 2, 30000, null), upTo(1e9, probed));

        assertThat(probed).containsExactly(5000.0, 10000.0, 20000.0, 30000.0);
        assertThat(r.maxSustainedRate()).isEqualTo(30000.0);
    }

    @Test
    void shouldUseAnExplicitResolutionWhenGiven() throws Exception {
        List<Double> probed = new ArrayList<>();

        FindMax.Result r = FindMax.search("m", new FindMax.Settings(1000, 2, 8000, 100.0), upTo(1500, probed));

        // ramp 1000, 2000 (fail); bisect 1500 (pass), 1750 (fail), 1625 (fail), 1563 (fail); gap 63 <= 100
        assertThat(probed).containsExactly(1000.0, 2000.0, 1500.0, 1750.0, 1625.0, 1563.0);
        assertThat(r.maxSustainedRate()).isEqualTo(1500.0);
    }

    @Test
    void shouldStepDownThenBisectWhenTheStartRateFails() throws Exception {
        List<Double> probed = new ArrayList<>();

        FindMax.Result r = FindMax.search("m", new FindMax.Settings(5000, 2, 60000, null), upTo(1800, probed));

        // 5000 fails; step down 2500 (fail), 1250 (pass); bisect 1875 (fail), 1563 (pass); gap 312 <= 500
        assertThat(probed).containsExactly(5000.0, 2500.0, 1250.0, 1875.0, 1563.0);
        assertThat(r.maxSustainedRate()).isEqualTo(1563.0);
    }

    @Test
    void shouldReportNoSustainedRateWhenEvenTheFloorFails() throws Exception {
        List<Double> probed = new ArrayList<>();

        FindMax.Result r = FindMax.search("m", new FindMax.Settings(2000, 2, 60000, null), upTo(100, probed));

        assertThat(probed).containsExactly(2000.0, 1000.0, 500.0);
        assertThat(r.maxSustainedRate()).isNull();
    }

    @Test
    void shouldCountAThrowingProbeAsFailureAndStopWhenNothingPassedYet() throws Exception {
        FindMax.Result first = FindMax.search("m", new FindMax.Settings(5000, 1.5, 60000, null), rate -> {
            throw new IllegalStateException("service jar not found");
        });
        List<Double> probed = new ArrayList<>();
        FindMax.ProbeFunction crashesAbove = rate -> {
            probed.add(rate);
            if (rate > 6000) {
                throw new IllegalStateException("service crashed");
            }
            return new FindMax.Probe(rate, true, "ok", 1.0, 2.0, null);
        };
        FindMax.Result later = FindMax.search("m", new FindMax.Settings(5000, 1.5, 60000, null), crashesAbove);

        assertThat(first.probes()).hasSize(1);
        assertThat(first.probes().get(0).reason()).isEqualTo("error: service jar not found");
        assertThat(first.maxSustainedRate()).isNull();
        assertThat(probed).containsExactly(5000.0, 7500.0, 6250.0, 5625.0, 5938.0);
        assertThat(later.probes().get(1).reason()).isEqualTo("error: service crashed");
        assertThat(later.maxSustainedRate()).isEqualTo(5938.0);
    }

    @Test
    void shouldRejectInvalidSettings() {
        assertThatThrownBy(() -> new FindMax.Settings(0, 1.5, 100, null)).hasMessageContaining("--find-max-start");
        assertThatThrownBy(() -> new FindMax.Settings(10, 1, 100, null)).hasMessageContaining("--find-max-factor");
        assertThatThrownBy(() -> new FindMax.Settings(10, 2, 5, null)).hasMessageContaining("--find-max-limit");
        assertThatThrownBy(() -> new FindMax.Settings(10, 2, 50, -1.0)).hasMessageContaining("--find-max-resolution");
        assertThat(new FindMax.Settings(10, 2, 50, null).resolutionAt(20000)).isEqualTo(2000);
        assertThat(new FindMax.Settings(10, 2, 50, null).resolutionAt(3000)).isEqualTo(500);
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldListMaxSustainedRateAndProbesPerModeInTheJson() {
        FindMax.Result r = new FindMax.Result(
                "echo",
                7500.0,
                List.of(
                        new FindMax.Probe(7500, true, "ok", 3.0, 9.0, TestReports.sutCost(1.0)),
                        new FindMax.Probe(11250, false, "missing 3 of 10 outputs", 30.0, 900.0, null)));

        FindMax.Report report = FindMax.report(
                new FindMax.Settings(5000, 1.5, 60000, null),
                List.of(r),
                new RunDescriptions.SearchEnvironment(2, "17", null, null));
        assertThat(report.modes())
                .extracting(FindMax.ModeReport::maxSustainedRate)
                .containsExactly(7500.0);
        assertThat(report.settings().resolution()).isNull();
        assertThat(report.settings().resolutionRule()).isEqualTo("10% of the pass rate, at least 500");
        Map<String, Object> json = ReportJson.convert(report, Map.class);

        assertThat(json.keySet()).containsExactly("settings", "criterion", "environment", "modes");
        assertThat((Map<String, Object>) json.get("settings"))
                .containsEntry("start", 5000.0)
                .containsEntry("resolution", null)
                .containsKey("resolution_rule");

        List<Map<String, Object>> modes = (List<Map<String, Object>>) json.get("modes");
        assertThat(modes).hasSize(1);
        assertThat(modes.get(0))
                .containsEntry("mode", "echo")
                .containsEntry("max_sustained_rate", 7500.0)
                .containsKey("system_under_test");
        List<Map<String, Object>> probes =
                (List<Map<String, Object>>) modes.get(0).get("probes");
        assertThat(probes).extracting(p -> p.get("rate")).containsExactly(7500.0, 11250.0);
        assertThat(probes.get(1))
                .containsEntry("pass", false)
                .containsEntry("reason", "missing 3 of 10 outputs")
                .containsEntry("p99", 900.0);
        assertThat(probes.get(0).keySet()).containsExactly("rate", "pass", "reason", "p50", "p99", "cost");
    }

    @Test
    void shouldPrintOneRowPerProbeWithDashesForUnknownFiguresAndTheMaxSustainedRate() {
        FindMax.Result r = new FindMax.Result(
                "echo",
                7500.0,
                List.of(
                        new FindMax.Probe(7500, true, "ok", 3.04, 9.0, TestReports.gcCost(1.0)),
                        new FindMax.Probe(11250, false, "error: boom", null, null, null)));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

        FindMax.printTable(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8), List.of(r));

        String[] lines = bytes.toString(java.nio.charset.StandardCharsets.UTF_8).split(System.lineSeparator());
        assertThat(lines[0].split(" +"))
                .containsExactly(
                        "mode", "rate/s", "pass", "p50ms", "p99ms", "SUT", "us/ev", "brk", "us/ev", "GC", "ms",
                        "reason");
        assertThat(lines[1].split(" +")).containsExactly("echo", "7500", "yes", "3.0", "9.0", "-", "-", "1.0", "ok");
        assertThat(lines[2].split(" +"))
                .containsExactly("echo", "11250", "NO", "-", "-", "-", "-", "-", "error:", "boom");
        assertThat(lines[3]).isEqualTo("max sustained rate of echo: 7500 events/s");
    }
}
