package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.tools.LatencySummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

    private static LoadReport report(String mode, double p99) {
        LatencySummary latency = new LatencySummary(5.04, 9.0, 11.0, p99, 30.0, 41.25, 6.0, 899);
        return LoadReport.of(
                TestReports.run(mode, 1000.0, 900, 1, latency, List.of()), null, TestReports.sutCost(12.5), null);
    }

    @Test
    void shouldPrintOneRowPerReportWithItsLatencySummaryAndDashesForMissingCosts() {
        List<LoadReport> reports =
                ReportWriter.withEchoRatios(List.of(report("echo", 10.0), report("real-time", 25.0)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ReportWriter.printTable(new PrintStream(bytes, true, StandardCharsets.UTF_8), reports);
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split(System.lineSeparator());
        assertThat(lines[0]).startsWith("mode ").contains(" p50ms ", " p99/echo ", " GC ms");
        assertThat(lines[2].split(" +"))
                .containsExactly(
                        "real-time",
                        "1000",
                        "1000",
                        "900",
                        "899",
                        "1",
                        "0",
                        "0",
                        "5.0",
                        "9.0",
                        "11.0",
                        "25.0",
                        "30.0",
                        "41.3",
                        "2.50x",
                        "12.5",
                        "-",
                        "-");
        assertThat(lines[1]).startsWith("echo ").contains(" 1.00x ");
        assertThat(lines[0].indexOf("p99ms") + "p99ms".length()).isEqualTo(lines[2].indexOf("25.0") + "25.0".length());
    }

    @Test
    void shouldWriteTheLatencySummaryUnderItsKeysWhenWritingARunReport(@TempDir Path dir) throws Exception {
        Path json = ReportWriter.writeRun(dir, "run", report("real-time", 25.0));
        JsonNode latency = new ObjectMapper().readTree(json.toFile()).get("latency_ms");
        assertThat(latency.get("p99").asDouble()).isEqualTo(25.0);
        assertThat(latency.get("p50").asDouble()).isEqualTo(5.04);
        assertThat(latency.get("p999").asDouble()).isEqualTo(30.0);
        assertThat(latency.get("count").asLong()).isEqualTo(899L);
        assertThat(latency.size()).isEqualTo(8);
        assertThat(Files.readString(dir.resolve("run.html"))).contains("<td>25.0</td>");
    }

    @Test
    void shouldWriteTheRunsKeysAtTheTopLevelAndLeaveOutWhatWasNotAdded(@TempDir Path dir) throws Exception {
        LoadReport plain = report("real-time", 25.0);
        LoadReport report =
                LoadReport.of(plain.run(), new LoadReport.Setting(null, null, null, "app-1", null), plain.cost(), null);

        JsonNode json = new ObjectMapper()
                .readTree(ReportWriter.writeRun(dir, "run", report).toFile());

        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertThat(keys)
                .containsSubsequence(
                        "mode",
                        "target_rate",
                        "achieved_rate",
                        "events_sent",
                        "send_errors",
                        "kept_up",
                        "max_send_lag_ms",
                        "expected",
                        "observed",
                        "matched",
                        "missing",
                        "duplicates",
                        "unexpected",
                        "mismatched",
                        "undecodable",
                        "foreign_outputs_ignored",
                        "drain_ms",
                        "latency_ms",
                        "latency_percentiles",
                        "per_second",
                        "samples",
                        "application_id",
                        "cost")
                .doesNotContain(
                        "run", "setting", "warmup_events_sent", "first_send_error", "workload", "instances", "replay");
        assertThat(json.get("missing").asLong()).isEqualTo(1L);
        assertThat(json.get("kept_up").asBoolean()).isTrue();
        assertThat(json.get("cost").get("sut_cpu_us_per_event").asDouble()).isEqualTo(12.5);
        assertThat(json.get("cost").has("sut_pids")).isFalse();
        assertThat(json.get("cost").get("window_ms").isNull()).isTrue();
    }
}
