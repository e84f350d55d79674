package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.tools.LatencySummary;
import dev.rtmstreams.tools.ReportJson;
import dev.rtmstreams.tools.TextTable;
import dev.rtmstreams.tools.TextTable.Column;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writes reports as JSON and self-contained HTML, and prints the console comparison table. */
public final class ReportWriter {

    private ReportWriter() {}

    /**
     * Writes {@code <name>.json} and {@code <name>.html} for one run.
     *
     * @param dir the report directory (created)
     * @param name the base file name
     * @param report the report
     * @return the JSON file
     * @throws IOException on write failure
     */
    public static Path writeRun(Path dir, String name, LoadReport report) throws IOException {
        Files.createDirectories(dir);
        Path json = dir.resolve(name + ".json");
        ReportJson.write(json, report);
        Files.writeString(
                dir.resolve(name + ".html"),
                HtmlReport.render("Load run: " + report.mode(), List.of(report)),
                StandardCharsets.UTF_8);
        return json;
    }

    /**
     * Writes {@code bench.json} (all reports) and {@code bench.html} (the combined picture).
     *
     * @param dir the report directory (created)
     * @param reports one report per mode
     * @return the HTML file
     * @throws IOException on write failure
     */
    public static Path writeCombined(Path dir, List<LoadReport> reports) throws IOException {
        Files.createDirectories(dir);
        ReportJson.write(dir.resolve("bench.json"), reports);
        Path html = dir.resolve("bench.html");
        Files.writeString(
                html, HtmlReport.render("Benchmark: " + reports.size() + " modes", reports), StandardCharsets.UTF_8);
        return html;
    }

    /**
     * Writes {@code find-max.json} and the plot {@code p99-vs-rate.svg}.
     *
     * @param dir the report directory (created)
     * @param settings the search settings
     * @param results one search result per mode
     * @param environment environment description for the JSON
     * @return the JSON file
     * @throws IOException on write failure
     */
    public static Path writeFindMax(
            Path dir,
            FindMax.Settings settings,
            List<FindMax.Result> results,
            RunDescriptions.SearchEnvironment environment)
            throws IOException {
        Files.createDirectories(dir);
        Path json = dir.resolve("find-max.json");
        ReportJson.write(json, FindMax.report(settings, results, environment));
        Files.writeString(dir.resolve("p99-vs-rate.svg"), RateLatencySvg.render(results), StandardCharsets.UTF_8);
        return json;
    }

    /**
     * Adds {@code p99_ratio_to_echo} to every report: its p99 latency divided by the p99 of the echo floor measured at
     * the same target rate in the same bench (the echo's own is 1; absent when no echo ran at that rate).
     *
     * @param reports one report per mode (and rate)
     * @return the reports with their ratios, in the same order
     */
    public static List<LoadReport> withEchoRatios(List<LoadReport> reports) {
        List<LoadReport> out = new ArrayList<>();
        for (LoadReport r : reports) {
            Double ratio = null;
            for (LoadReport echo : reports) {
                String mode = echo.mode();
                boolean isEcho = mode.equals("echo") || mode.startsWith("echo@");
                if (isEcho && echo.run().targetRate() == r.run().targetRate()) {
                    double floor = echo.run().latencyMs().p99();
                    double p99 = r.run().latencyMs().p99();
                    if (floor > 0 && !Double.isNaN(p99)) {
                        ratio = Math.round(p99 / floor * 100) / 100.0;
                    }
                }
            }
            out.add(r.withP99RatioToEcho(ratio));
        }
        return out;
    }

    /**
     * Prints the comparison table.
     *
     * @param out where to print
     * @param reports one report per mode
     */
    public static void printTable(PrintStream out, List<LoadReport> reports) {
        TextTable table = new TextTable(
                Column.left("mode", 25),
                Column.decimal("target/s", 9, 0),
                Column.decimal("achieved", 9, 0),
                Column.right("expected", 8),
                Column.right("observed", 8),
                Column.right("missing", 7),
                Column.right("dup", 5),
                Column.right("unexp", 6),
                Column.decimal("p50ms", 8, 1),
                Column.decimal("p90ms", 8, 1),
                Column.decimal("p95ms", 8, 1),
                Column.decimal("p99ms", 8, 1),
                Column.decimal("p99.9ms", 8, 1),
                Column.decimal("maxms", 8, 1),
                Column.right("p99/echo", 9),
                Column.decimal("SUT us/ev", 10, 1),
                Column.decimal("broker us/ev", 12, 1),
                Column.decimal("GC ms", 7, 1));
        for (LoadReport r : reports) {
            RunReport run = r.run();
            LatencySummary l = run.latencyMs();
            CostMeter.Cost c = r.cost();
            table.row(
                    r.mode(),
                    run.targetRate(),
                    run.achievedRate(),
                    run.counts().expected(),
                    run.counts().observed(),
                    run.counts().missing(),
                    run.counts().duplicates(),
                    run.counts().unexpected(),
                    l.p50(),
                    l.p90(),
                    l.p95(),
                    l.p99(),
                    l.p999(),
                    l.max(),
                    ratio(r.p99RatioToEcho()),
                    c == null ? null : c.sutCpuUsPerEvent(),
                    c == null ? null : c.brokerCpuUsPerEvent(),
                    c == null ? null : c.gcPauseMs());
        }
        table.print(out);
        BenchModes.printLegend(out, reports.stream().map(LoadReport::mode).toList());
        printInstances(out, reports);
    }

    /**
     * Under the table, for each report of several service instances: each instance's CPU per event, its share of the
     * group's CPU and its active tasks at the end, and whether the assignment changed during the run.
     *
     * @param out where to print
     * @param reports the reports
     */
    static void printInstances(PrintStream out, List<LoadReport> reports) {
        for (LoadReport r : reports) {
            GroupAssignment.Section section = r.instances();
            if (section == null || section.count() < 2) {
                continue;
            }
            out.printf(
                    Locale.ROOT,
                    "%s: %d instances, SUT %s us/ev in all, assignment %s during the run%n",
                    r.mode(),
                    section.count(),
                    orDash(section.sutCpuUsPerEvent()),
                    section.assignmentChanged() ? "CHANGED" : "unchanged");
            for (GroupAssignment.InstanceReport i : section.perInstance()) {
                out.printf(
                        Locale.ROOT,
                        "  %-12s pid %-8s %8s us/ev  share %5s  active tasks %s%n",
                        i.label(),
                        i.pid(),
                        orDash(i.cpuUsPerEvent()),
                        i.cpuShare() != null ? String.format(Locale.ROOT, "%.0f%%", 100 * i.cpuShare()) : "-",
                        i.tasks());
            }
        }
    }

    private static String ratio(Object o) {
        return o instanceof Number n ? String.format(Locale.ROOT, "%.2fx", n.doubleValue()) : "-";
    }

    private static String orDash(Object o) {
        return o instanceof Number n ? String.format(Locale.ROOT, "%.1f", n.doubleValue()) : "-";
    }
}
