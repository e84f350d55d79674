package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportJsonTest {

    record Run(String mode, LatencySummary latency) {}

    @Test
    void shouldWriteRecordsByComponentAndReadThemBackWhenRoundTripping(@TempDir Path dir) throws Exception {
        Run run = new Run("real-time", new LatencySummary(1.5, 2, 3, 4, 5, 6, 2.25, 10));
        Path file = dir.resolve("run.json");
        ReportJson.write(file, run);

        assertThat(ReportJson.read(file, Run.class)).isEqualTo(run);
        assertThat(ReportJson.readTree(file).get("latency").get("p999").asDouble())
                .isEqualTo(5.0);
        assertThat(Files.readString(file)).contains("\n  \"mode\" : \"real-time\"");
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldKeepTheKeyOrderOfMapsAndTheComponentOrderOfRecordsWhenConverting() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("z", 1);
        m.put("a", LatencySummary.EMPTY);
        Map<String, Object> converted = ReportJson.convert(m, Map.class);

        assertThat(converted.keySet()).containsExactly("z", "a");
        assertThat(((Map<String, Object>) converted.get("a")).keySet())
                .containsExactly("p50", "p90", "p95", "p99", "p999", "max", "mean", "count");
        assertThat(ReportJson.toJson(m)).startsWith("{\n  \"z\" : 1,").doesNotEndWith("\n");
    }

    @Test
    void shouldNameTheTypeWhenAReportCannotBeWritten() {
        assertThatThrownBy(() -> ReportJson.toJson(new Object()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Object");
    }
}
