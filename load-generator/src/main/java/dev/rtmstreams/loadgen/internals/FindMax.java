package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.tools.LatencySummary;
import dev.rtmstreams.tools.TextTable;
import dev.rtmstreams.tools.TextTable.Column;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code bench --find-max}: per mode, the highest input rate it sustains, found by full runs ("probes") at rising
 * rates and then bisection.
 *
 * <p><b>A probe passes</b> when all of these hold (see {@link #judge}):
 * <ol>
 *   <li>the generator kept up with its schedule ({@code kept_up});</li>
 *   <li>outputs arrive while the inputs are sent: when the measured sending period lasted at least three seconds,
 *       at least three of its seconds (plus one second for outputs in flight) received outputs. A mode whose outputs
 *       only arrive after the last input was sent is behind by more than the window;</li>
 *   <li>latency does not grow across the measured window: over the seconds of the sending period (plus one second
 *       for outputs in flight) that received outputs, the median of the per-second p50 latencies of the last third
 *       is at most {@value #GROWTH_FACTOR} x the median of the first third + {@value #GROWTH_SLACK_MS} ms. With fewer
 *       than three such seconds (and a sending period shorter than three seconds) this is not judged;</li>
 *   <li>no standing backlog: that median of the last third is at most {@value #BACKLOG_BOUND_MS} ms. The warm-up and
 *       the measured window are one continuous stream, so a mode that fell behind while it warmed up (the JIT
 *       compilers still busy) starts the window with that backlog: if it still holds seconds of it at the end of the
 *       window, its capacity at this rate has no headroom to drain it, and the rate is not sustained;</li>
 *   <li>every expected output arrived within the drain ({@code missing == 0}).</li>
 * </ol>
 *
 * <p><b>Search</b> ({@link #search}): probe at the start rate, then multiply by the factor until the first failure
 * or until the limit passed (the last step is clamped to the limit). Then bisect between the last pass and the
 * first failure until they are at most the resolution apart (default: 10% of the pass rate, at least
 * {@value #MIN_RESOLUTION} ev/s). If the start rate already fails, step down by the factor until a pass (then
 * bisect) or until below {@value #FLOOR_RATE} ev/s (then the mode has no sustained rate). A probe that throws counts
 * as a failure; if no probe passed yet it ends the search of that mode (most likely a set-up problem).
 */
public final class FindMax {

    /** Latency growth criterion: allowed ratio of the last third's median p50 to the first third's. */
    public static final double GROWTH_FACTOR = 2.0;
    /** Latency growth criterion: allowed absolute growth on top of the ratio, in ms. */
    public static final double GROWTH_SLACK_MS = 50.0;
    /** Standing backlog criterion: the largest median p50 of the last third of the window, in ms. */
    public static final double BACKLOG_BOUND_MS = 1000.0;
    /** The smallest default resolution of the bisection, in events/s. */
    public static final double MIN_RESOLUTION = 500.0;
    /** Stepping down from a failing start rate stops below this rate (events/s). */
    public static final double FLOOR_RATE = 500.0;

    /**
     * Search settings.
     *
     * @param start the first rate probed (events/s)
     * @param factor the ramp factor (greater than 1)
     * @param limit the highest rate probed
     * @param resolution the bisection stops when last pass and first failure are at most this far apart; null: 10% of
     *     the pass rate, at least {@value #MIN_RESOLUTION}
     */
    public record Settings(double start, double factor, double limit, Double resolution) {
        /** Validates. */
        public Settings {
            if (!(start > 0)) {
                throw new IllegalArgumentException("--find-max-start must be positive: " + start);
            }
            if (!(factor > 1)) {
                throw new IllegalArgumentException("--find-max-factor must be greater than 1: " + factor);
            }
            if (!(limit >= start)) {
                throw new IllegalArgumentException("--find-max-limit must be at least --find-max-start: " + limit);
            }
            if (resolution != null && !(resolution > 0)) {
                throw new IllegalArgumentException("--find-max-resolution must be positive: " + resolution);
            }
        }

        /**
         * The resolution at a pass rate.
         *
         * @param passRate the last passing rate
         * @return the resolution in events/s
         */
        public double resolutionAt(double passRate) {
            return resolution != null ? resolution : Math.max(MIN_RESOLUTION, 0.1 * passRate);
        }
    }

    /**
     * The outcome of one probe.
     *
     * @param rate the target rate (events/s)
     * @param pass whether the mode sustained it
     * @param reason "ok" or why it failed
     * @param p50 overall p50 latency (ms), null if unknown
     * @param p99 overall p99 latency (ms), null if unknown
     * @param cost the run's {@code cost} section, null if unknown
     */
    public record Probe(double rate, boolean pass, String reason, Double p50, Double p99, CostMeter.Cost cost) {}

    /**
     * The verdict on one run report.
     *
     * @param pass whether every criterion holds
     * @param reason "ok", or the failed criteria separated by "; "
     */
    public record Verdict(boolean pass, String reason) {}

    /**
     * The search result of one mode.
     *
     * @param mode the mode
     * @param maxSustainedRate the highest passing rate, null if none passed
     * @param probes every probe in the order run
     */
    public record Result(String mode, Double maxSustainedRate, List<Probe> probes) {}

    /** Runs one probe: a full mode run at a rate. */
    @FunctionalInterface
    public interface ProbeFunction {
        /**
         * Probes a rate.
         *
         * @param rate events/s
         * @return the probe
         * @throws Exception if the run fails (counted as a failing probe)
         */
        Probe run(double rate) throws Exception;
    }

    private FindMax() {}

    /**
     * Judges a run report against the criteria.
     *
     * @param report a run's report (whether it kept up, its send lag, missing and expected outputs, per second)
     * @return the verdict
     */
    public static Verdict judge(RunReport report) {
        List<String> failures = new ArrayList<>();
        if (!report.sending().keptUp()) {
            failures.add(
                    "generator fell behind (max send lag " + report.sending().maxSendLagMs() + " ms)");
        }
        Verdict latency = latencyCriteria(report.perSecond());
        if (!latency.pass()) {
            failures.add(latency.reason());
        }
        long missing = report.counts().missing();
        if (missing != 0) {
            failures.add("missing " + missing + " of " + report.counts().expected() + " outputs");
        }
        return failures.isEmpty() ? new Verdict(true, "ok") : new Verdict(false, String.join("; ", failures));
    }

    /**
     * The latency criteria over the per-second entries of a report (t, sent, outputs, p50): outputs arrive while the
     * inputs are sent, latency does not grow, no standing backlog at the end.
     *
     * @param perSecond the report's per-second entries
     * @return pass, or fail naming the failed criteria and their figures
     */
    public static Verdict latencyCriteria(List<RunReport.Second> perSecond) {
        int lastSending = -1;
        int sendingSeconds = 0;
        for (RunReport.Second s : perSecond) {
            if (s.sent() > 0) {
                lastSending = Math.max(lastSending, s.t());
                sendingSeconds++;
            }
        }
        List<Double> p50s = new ArrayList<>();
        for (RunReport.Second s : perSecond) {
            if (s.t() <= lastSending + 1 && s.outputs() > 0) {
                p50s.add(s.p50());
            }
        }
        if (p50s.size() < 3) {
            if (sendingSeconds >= 3) {
                return new Verdict(
                        false,
                        "outputs lag the inputs by more than the window: " + p50s.size() + " of the " + sendingSeconds
                                + " sending seconds received outputs");
            }
            return new Verdict(true, "latency growth not judged (" + p50s.size() + " seconds with outputs)");
        }
        int third = p50s.size() / 3;
        double first = median(p50s.subList(0, third));
        double last = median(p50s.subList(p50s.size() - third, p50s.size()));
        double bound = GROWTH_FACTOR * first + GROWTH_SLACK_MS;
        String text = String.format(
                Locale.ROOT,
                "median p50 of the last third %.1f ms %s %.0f x first third %.1f ms " + "+ %.0f ms",
                last,
                last <= bound ? "<=" : ">",
                GROWTH_FACTOR,
                first,
                GROWTH_SLACK_MS);
        List<String> failures = new ArrayList<>();
        if (last > bound) {
            failures.add("latency grew: " + text);
        }
        if (last > BACKLOG_BOUND_MS) {
            failures.add(String.format(
                    Locale.ROOT,
                    "standing backlog: median p50 of the last third %.1f ms > %.0f ms",
                    last,
                    BACKLOG_BOUND_MS));
        }
        return failures.isEmpty() ? new Verdict(true, text) : new Verdict(false, String.join("; ", failures));
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /**
     * Builds the probe of a finished run.
     *
     * @param rate the target rate
     * @param report the run's report
     * @return the probe (verdict, overall p50/p99, cost)
     */
    public static Probe probeOf(double rate, LoadReport report) {
        Verdict v = judge(report.run());
        LatencySummary l = report.run().latencyMs();
        return new Probe(rate, v.pass(), v.reason(), l.p50(), l.p99(), report.cost());
    }

    /**
     * Searches the highest sustained rate of one mode.
     *
     * @param mode the mode (for the result)
     * @param s the settings
     * @param probe runs one probe
     * @return every probe and the highest passing rate
     * @throws InterruptedException if interrupted
     */
    public static Result search(String mode, Settings s, ProbeFunction probe) throws InterruptedException {
        List<Probe> probes = new ArrayList<>();
        Double pass = null;
        Double fail = null;
        double rate = s.start();
        while (true) {
            Probe p = run(probe, rate, probes);
            if (!p.pass()) {
                fail = rate;
                break;
            }
            pass = rate;
            if (rate >= s.limit()) {
                break;
            }
            rate = Math.min(s.limit(), Math.round(rate * s.factor()));
        }
        boolean aborted = pass == null && isError(probes.get(probes.size() - 1));
        if (pass == null && !aborted) {
            for (double r = Math.round(fail / s.factor()); r >= FLOOR_RATE; r = Math.round(r / s.factor())) {
                Probe p = run(probe, r, probes);
                if (p.pass()) {
                    pass = r;
                    break;
                }
                fail = r;
                if (isError(p)) {
                    break;
                }
            }
        }
        if (pass != null && fail != null) {
            while (fail - pass > s.resolutionAt(pass)) {
                double mid = Math.round((pass + fail) / 2);
                if (mid <= pass || mid >= fail) {
                    break;
                }
                if (run(probe, mid, probes).pass()) {
                    pass = mid;
                } else {
                    fail = mid;
                }
            }
        }
        return new Result(mode, pass, probes);
    }

    private static boolean isError(Probe p) {
        return p.reason().startsWith("error: ");
    }

    private static Probe run(ProbeFunction f, double rate, List<Probe> probes) throws InterruptedException {
        Probe p;
        try {
            p = f.run(rate);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            p = new Probe(rate, false, "error: " + e.getMessage(), null, null, null);
        }
        probes.add(p);
        System.err.printf(
                Locale.ROOT, "   probe %.0f events/s: %s (%s)%n", rate, p.pass() ? "PASS" : "FAIL", p.reason());
        return p;
    }

    /**
     * The search's report, {@code find-max.json}.
     *
     * @param settings the search settings
     * @param criterion what a passing probe meets, in words
     * @param environment load averages and the like
     * @param modes one entry per mode, in search order
     */
    public record Report(
            SettingsReport settings,
            String criterion,
            RunDescriptions.SearchEnvironment environment,
            List<ModeReport> modes) {}

    /**
     * The search settings as reported.
     *
     * @param start the first rate probed (events/s)
     * @param factor the ramp factor
     * @param limit the highest rate probed
     * @param resolution the bisection's resolution (events/s), null when it is the default
     * @param resolutionRule the resolution in words (the fixed figure, or the default's rule)
     */
    public record SettingsReport(
            double start,
            double factor,
            double limit,
            Double resolution,
            @JsonProperty("resolution_rule") String resolutionRule) {}

    /**
     * One mode's search as reported.
     *
     * @param mode the mode
     * @param systemUnderTest what the mode runs
     * @param maxSustainedRate the highest passing rate, null if none passed
     * @param probes every probe in the order run
     */
    public record ModeReport(
            String mode,
            @JsonProperty("system_under_test") String systemUnderTest,
            @JsonProperty("max_sustained_rate") Double maxSustainedRate,
            List<Probe> probes) {}

    /**
     * Builds the search's report ({@code find-max.json}).
     *
     * @param settings the search settings
     * @param results one result per mode
     * @param environment load averages and the like
     * @return the report
     */
    public static Report report(
            Settings settings, List<Result> results, RunDescriptions.SearchEnvironment environment) {
        SettingsReport st = new SettingsReport(
                settings.start(),
                settings.factor(),
                settings.limit(),
                settings.resolution(),
                settings.resolution() != null
                        ? String.format(Locale.ROOT, "%.0f events/s", settings.resolution())
                        : "10% of the pass rate, at least " + (long) MIN_RESOLUTION);
        String criterion = String.format(
                Locale.ROOT,
                "kept_up; at least 3 sending seconds receive outputs; median per-second p50 of the last "
                        + "third of the sending period <= %.0f x that of the first third + %.0f ms and <= "
                        + "%.0f ms; missing == 0",
                GROWTH_FACTOR,
                GROWTH_SLACK_MS,
                BACKLOG_BOUND_MS);
        List<ModeReport> modes = results.stream()
                .map(r -> new ModeReport(
                        r.mode(), BenchModes.description(r.mode()), r.maxSustainedRate(), List.copyOf(r.probes())))
                .toList();
        return new Report(st, criterion, environment, modes);
    }

    /**
     * Prints every probe and the highest sustained rate per mode.
     *
     * @param out where to print
     * @param results one result per mode
     */
    public static void printTable(PrintStream out, List<Result> results) {
        TextTable table = new TextTable(
                Column.left("mode", 25),
                Column.decimal("rate/s", 8, 0),
                Column.right("pass", 5),
                Column.decimal("p50ms", 8, 1),
                Column.decimal("p99ms", 8, 1),
                Column.decimal("SUT us/ev", 9, 1),
                Column.decimal("brk us/ev", 9, 1),
                Column.decimal("GC ms", 7, 1),
                Column.left("reason", 1));
        for (Result r : results) {
            for (Probe p : r.probes()) {
                CostMeter.Cost c = p.cost();
                table.row(
                        r.mode(),
                        p.rate(),
                        p.pass() ? "yes" : "NO",
                        p.p50(),
                        p.p99(),
                        c == null ? null : c.sutCpuUsPerEvent(),
                        c == null ? null : c.brokerCpuUsPerEvent(),
                        c == null ? null : c.gcPauseMs(),
                        p.reason());
            }
        }
        table.print(out);
        for (Result r : results) {
            out.printf(
                    Locale.ROOT,
                    "max sustained rate of %s: %s%n",
                    r.mode(),
                    r.maxSustainedRate() == null
                            ? "none (no probe passed)"
                            : String.format(Locale.ROOT, "%.0f events/s", r.maxSustainedRate()));
        }
        BenchModes.printLegend(out, results.stream().map(Result::mode).toList());
    }
}
