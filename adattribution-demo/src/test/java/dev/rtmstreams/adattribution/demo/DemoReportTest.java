package dev.rtmstreams.adattribution.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.processor.ExecutionMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class DemoReportTest {

    @Test
    void shouldWriteSettingsCountsAndLatenciesInMillisecondsWhenModesRan() throws Exception {
        DemoRunner.Settings settings = new DemoRunner.Settings(
                Duration.ofSeconds(20),
                2000,
                Duration.ofSeconds(5),
                2,
                Path.of("out"),
                List.of(ExecutionMode.REAL_TIME, ExecutionMode.MICRO_BATCH),
                Duration.ofMillis(250),
                7,
                Map.of(),
                false);
        Histogram attribution = new Histogram(3_600_000_000L, 3);
        for (int micros = 1000; micros <= 100_000; micros += 1000) {
            attribution.recordValue(micros);
        }
        DemoRunner.ModeResult realTime = new DemoRunner.ModeResult(
                ExecutionMode.REAL_TIME,
                attribution,
                new Histogram(3_600_000_000L, 3),
                40_000,
                1999.96,
                100,
                99,
                1,
                50,
                50,
                7.456,
                Duration.ofSeconds(20));

        JsonNode json = new ObjectMapper()
                .readTree(DemoReport.of(settings, List.of(realTime)).toJson());

        assertThat(json.at("/settings/durationPerModeSeconds").asLong()).isEqualTo(20);
        assertThat(json.at("/settings/targetRate").asDouble()).isEqualTo(2000.0);
        assertThat(json.at("/settings/warmupSeconds").asLong()).isEqualTo(5);
        assertThat(json.at("/settings/microBatchIntervalMs").asLong()).isEqualTo(250);
        JsonNode mode = json.at("/modes/0");
        assertThat(mode.get("mode").asText()).isEqualTo(ExecutionMode.REAL_TIME.configValue());
        assertThat(mode.get("sentEvents").asLong()).isEqualTo(40_000);
        assertThat(mode.get("sentPerSecond").asDouble()).isEqualTo(2000.0);
        assertThat(mode.get("outputsPerSecond").asDouble()).isEqualTo(7.5);
        assertThat(mode.get("receivedAttributedClicks").asLong()).isEqualTo(99);
        assertThat(mode.get("duplicateAttributedClicks").asLong()).isEqualTo(1);
        JsonNode latency = mode.get("clickAttributionLatencyMs");
        assertThat(latency.get("count").asLong()).isEqualTo(100);
        assertThat(latency.get("p50").asDouble()).isBetween(49.9, 50.1);
        assertThat(latency.get("max").asDouble()).isBetween(99.9, 100.1);
        // an empty distribution has only its count
        assertThat(mode.get("requestAckLatencyMs").properties())
                .extracting(Map.Entry::getKey)
                .containsExactly("count");
    }
}
