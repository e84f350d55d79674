package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.tools.LatencySummary;
import java.util.List;
import java.util.Map;

/** Run reports for tests, with the figures a test sets and zeros elsewhere. */
final class TestReports {

    private TestReports() {}

    /**
     * @param mode the label
     * @param targetRate inputs/s
     * @param expected expected outputs
     * @param missing missing outputs
     * @param latency the latency summary
     * @param perSecond the per-second entries
     * @return a report of a run that kept up, with 1 000 inputs sent
     */
    static RunReport run(
            String mode,
            double targetRate,
            long expected,
            long missing,
            LatencySummary latency,
            List<RunReport.Second> perSecond) {
        return run(mode, targetRate, true, expected, missing, latency, perSecond);
    }

    /**
     * @param keptUp whether the sending kept up (its max send lag is 0.5 ms, or 1 500 ms when it did not)
     * @return a report with 1 000 inputs sent
     */
    static RunReport run(
            String mode,
            double targetRate,
            boolean keptUp,
            long expected,
            long missing,
            LatencySummary latency,
            List<RunReport.Second> perSecond) {
        return new RunReport(
                mode,
                targetRate,
                targetRate - 0.4,
                new RunReport.Sending(1000, 0, keptUp, keptUp ? 0.5 : 1500.0, null, null, null),
                new RunReport.Counts(expected, expected - missing, expected - missing, missing, 0, 0, 0, 0, 0),
                Map.of(),
                0,
                latency,
                List.of(),
                perSecond,
                new RunReport.Samples(List.of(), List.of(), List.of()),
                null);
    }

    /**
     * Asserts that a run found exactly the expected outputs: none missing, duplicated, unexpected or undecodable.
     *
     * @param report the run's report
     * @param expected the outputs the oracle expects
     */
    static void assertExactOutputs(LoadReport report, long expected) {
        assertThat(report.run().counts())
                .as("mode %s", report.mode())
                .extracting(
                        RunReport.Counts::expected,
                        RunReport.Counts::missing,
                        RunReport.Counts::duplicates,
                        RunReport.Counts::unexpected,
                        RunReport.Counts::undecodable)
                .containsExactly(expected, 0L, 0L, 0L, 0L);
    }

    /** @return a cost section with only the GC pauses known */
    static CostMeter.Cost gcCost(double pauseMs) {
        return new CostMeter.Cost(
                null, 1000, null, null, null, null, pauseMs, null, null, null, null, null, null, null, 100);
    }

    /** @return a cost section with only the SUT's CPU per event known */
    static CostMeter.Cost sutCost(double usPerEvent) {
        return new CostMeter.Cost(
                null, 1000, null, null, usPerEvent, null, null, null, null, null, null, null, null, null, 100);
    }
}
