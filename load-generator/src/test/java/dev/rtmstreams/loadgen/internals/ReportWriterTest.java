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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

    private static Map<String, Object> report(String mode, double p99) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("mode", mode);
        r.put("target_rate", 1000.0);
        r.put("achieved_rate", 999.6);
        r.put("expected", 900L);
        r.put("observed", 899L);
        r.put("missing", 1L);
        r.put("duplicates", 0L);
        r.put("unexpected", 0L);
        r.put("latency_ms", new LatencySummary(5.04, 9.0, 11.0, p99, 30.0, 41.25, 6.0, 899));
        r.put("latency_percentiles", List.of());
        r.put("per_second", List.of());
        r.put("cost", Map.of("sut_cpu_us_per_event", 12.5));
        return r;
    }

    @Test
    void shouldPrintOneRowPerReportWithItsLatencySummaryAndDashesForMissingCosts() {
        List<Map<String, Object>> reports = new ArrayList<>(List.of(report("echo", 10.0), report("real-time", 25.0)));
        ReportWriter.addEchoRatios(reports);
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
}
