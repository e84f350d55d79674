package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.tools.ReportJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDescriptionsTest {

    private static final WorkloadConfig WORKLOAD = WorkloadConfig.builder()
            .seed(42)
            .rate(500)
            .duration(Duration.ofSeconds(4))
            .idPrefix("run-1-")
            .attributionWindow(Duration.ofMinutes(3))
            .build();

    @Test
    void shouldReadBackTheWorkloadARecordingDescribesWhenReplayingItsFile(@TempDir Path dir) throws Exception {
        RunDescriptions.AttributionWorkload described = RunDescriptions.workloadDescription(WORKLOAD);
        // what the record command writes as the events file's header, and the replay command reads back
        Path file = dir.resolve("events.jsonl.gz");
        EventFile.write(file, new EventFile.Header(described, OptionalLong.of(1_700_000_000_000L)), List.<Event>of());

        RunDescriptions.AttributionWorkload replayed =
                EventFile.read(file).header().workload();

        assertThat(replayed)
                .isEqualTo(new RunDescriptions.AttributionWorkload(
                        42L,
                        500.0,
                        "PT4S",
                        0L, // the events file counts the events it holds
                        "run-1-",
                        described.clicksPerImpression(),
                        described.requestShare(),
                        described.clickDelay(),
                        described.outsideWindowFraction(),
                        described.edgeFraction(),
                        described.orphanFraction(),
                        described.duplicateFraction(),
                        described.outOfOrderFraction(),
                        described.lateFraction(),
                        described.ackFirstFraction(),
                        "PT3M",
                        "PT5M"));
        assertThat(described.events()).isEqualTo(2000L);
    }

    @Test
    void shouldLeaveOutTheRateAndEventCountWhenDescribingTheWorkloadOfASearch() throws Exception {
        JsonNode json = new ObjectMapper()
                .readTree(ReportJson.toJson(
                        RunDescriptions.workloadDescription(WORKLOAD).withoutRateAndEvents()));

        assertThat(json.has("rate")).isFalse();
        assertThat(json.has("events")).isFalse();
        assertThat(json.get("seed").asLong()).isEqualTo(42L);
        assertThat(json.get("id_prefix").asText()).isEqualTo("run-1-");
        assertThat(json.get("attribution_window").asText()).isEqualTo("PT3M");
    }
}
