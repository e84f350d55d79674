package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes reports as JSON and self-contained HTML, and prints the console comparison table. */
public final class ReportWriter {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

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
    public static Path writeRun(Path dir, String name, Map<String, Object> report) throws IOException {
        Files.createDirectories(dir);
        Path json = dir.resolve(name + ".json");
        MAPPER.writeValue(json.toFile(), report);
        Files.writeString(
                dir.resolve(name + ".html"),
                HtmlReport.render("Load run: " + report.get("mode"), List.of(report)),
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
    public static Path writeCombined(Path dir, List<Map<String, Object>> reports) throws IOException {
        Files.createDirectories(dir);
        MAPPER.writeValue(dir.resolve("bench.json").toFile(), reports);
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
            Path dir, FindMax.Settings settings, List<FindMax.Result> results, Map<String, Object> environment)
            throws IOException {
        Files.createDirectories(dir);
        Path json = dir.resolve("find-max.json");
        MAPPER.writeValue(json.toFile(), FindMax.toJson(settings, results, environment));
        Files.writeString(dir.resolve("p99-vs-rate.svg"), RateLatencySvg.render(results), StandardCharsets.UTF_8);
        return json;
    }

    /**
     * Adds {@code p99_ratio_to_echo} to every report: its p99 latency divided by the p99 of the echo floor measured at
     * the same target rate in the same bench (the echo's own is 1; absent when no echo ran at that rate).
     *
     * @param reports one report per mode (and rate); modified
     */
    @SuppressWarnings("unchecked")
    public static void addEchoRatios(List<Map<String, Object>> reports) {
        for (Map<String, Object> r : reports) {
            Double ratio = null;
            for (Map<String, Object> echo : reports) {
                String mode = String.valueOf(echo.get("mode"));
                boolean isEcho = mode.equals("echo") || mode.startsWith("echo@");
                if (isEcho && num(echo.get("target_rate")) == num(r.get("target_rate"))) {
                    double floor = num(((Map<String, Object>) echo.get("latency_ms")).get("p99"));
                    double p99 = num(((Map<String, Object>) r.get("latency_ms")).get("p99"));
                    if (floor > 0 && !Double.isNaN(p99)) {
                        ratio = Math.round(p99 / floor * 100) / 100.0;
                    }
                }
            }
            r.put("p99_ratio_to_echo", ratio);
        }
    }

    /**
     * Prints the comparison table.
     *
     * @param out where to print
     * @param reports one report per mode
     */
    @SuppressWarnings("unchecked")
    public static void printTable(PrintStream out, List<Map<String, Object>> reports) {
        out.printf(
                Locale.ROOT,
                "%-25s %9s %9s %8s %8s %7s %5s %6s %8s %8s %8s %8s %8s %8s %9s %10s %12s %7s%n",
                "mode",
                "target/s",
                "achieved",
                "expected",
                "observed",
                "missing",
                "dup",
                "unexp",
                "p50ms",
                "p90ms",
                "p95ms",
                "p99ms",
                "p99.9ms",
                "maxms",
                "p99/echo",
                "SUT us/ev",
                "broker us/ev",
                "GC ms");
        for (Map<String, Object> r : reports) {
            Map<String, Object> l = (Map<String, Object>) r.get("latency_ms");
            Map<String, Object> c = r.get("cost") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
            out.printf(
                    Locale.ROOT,
                    "%-25s %9.0f %9.0f %8d %8d %7d %5d %6d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %9s %10s %12s %7s%n",
                    r.get("mode"),
                    num(r.get("target_rate")),
                    num(r.get("achieved_rate")),
                    (long) num(r.get("expected")),
                    (long) num(r.get("observed")),
                    (long) num(r.get("missing")),
                    (long) num(r.get("duplicates")),
                    (long) num(r.get("unexpected")),
                    num(l.get("p50")),
                    num(l.get("p90")),
                    num(l.get("p95")),
                    num(l.get("p99")),
                    num(l.get("p999")),
                    num(l.get("max")),
                    ratio(r.get("p99_ratio_to_echo")),
                    orDash(c.get("sut_cpu_us_per_event")),
                    orDash(c.get("broker_cpu_us_per_event")),
                    orDash(c.get("gc_pause_ms")));
        }
        BenchModes.printLegend(
                out, reports.stream().map(r -> String.valueOf(r.get("mode"))).toList());
        printInstances(out, reports);
    }

    /**
     * Under the table, for each report of several service instances: each instance's CPU per event, its share of the
     * group's CPU and its active tasks at the end, and whether the assignment changed during the run.
     *
     * @param out where to print
     * @param reports the reports
     */
    @SuppressWarnings("unchecked")
    static void printInstances(PrintStream out, List<Map<String, Object>> reports) {
        for (Map<String, Object> r : reports) {
            if (!(r.get("instances") instanceof Map<?, ?> section) || num(section.get("count")) < 2) {
                continue;
            }
            out.printf(
                    Locale.ROOT,
                    "%s: %d instances, SUT %s us/ev in all, assignment %s during the run%n",
                    r.get("mode"),
                    (long) num(section.get("count")),
                    orDash(section.get("sut_cpu_us_per_event")),
                    Boolean.TRUE.equals(section.get("assignment_changed")) ? "CHANGED" : "unchanged");
            for (Map<String, Object> i : (List<Map<String, Object>>) section.get("per_instance")) {
                out.printf(
                        Locale.ROOT,
                        "  %-12s pid %-8s %8s us/ev  share %5s  active tasks %s%n",
                        i.get("label"),
                        i.get("pid"),
                        orDash(i.get("cpu_us_per_event")),
                        i.get("cpu_share") instanceof Number n
                                ? String.format(Locale.ROOT, "%.0f%%", 100 * n.doubleValue())
                                : "-",
                        i.get("tasks"));
            }
        }
    }

    private static String ratio(Object o) {
        return o instanceof Number n ? String.format(Locale.ROOT, "%.2fx", n.doubleValue()) : "-";
    }

    private static String orDash(Object o) {
        return o instanceof Number n ? String.format(Locale.ROOT, "%.1f", n.doubleValue()) : "-";
    }

    private static double num(Object o) {
        return o instanceof Number ? ((Number) o).doubleValue() : Double.NaN;
    }
}
