package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventFileTest {

    private static final long START = 1_700_000_000_000L;

    private static final WorkloadConfig WORKLOAD = WorkloadConfig.builder()
            .seed(7)
            .rate(500)
            .duration(Duration.ofSeconds(4))
            .build();

    private static EventFile.Header header() {
        return new EventFile.Header(RunDescriptions.workloadDescription(WORKLOAD), OptionalLong.of(START));
    }

    @Test
    void shouldUseEveryEventExactlyOnceWhenRoundTrippingThroughTheEventFile(@TempDir Path dir) throws Exception {
        List<Event> events = WorkloadGenerator.generate(WORKLOAD, START);
        Path file = dir.resolve("events.jsonl.gz");
        EventFile.write(file, header(), events);
        EventFile.Contents back = EventFile.read(file);
        assertThat(back.events()).isEqualTo(events);
        assertThat(back.header()).isEqualTo(header());
        assertThat(back.header().workload().events()).isEqualTo(2000L);
    }

    @Test
    void shouldWriteTheHeaderLineWithTheFormatMarkerTheWorkloadTheStartAndTheEventCountInOrder(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("events.jsonl");
        EventFile.write(
                file, header(), WorkloadGenerator.generate(WORKLOAD, START).subList(0, 10));

        JsonNode line = new ObjectMapper().readTree(Files.readAllLines(file).get(0));

        List<String> names = new ArrayList<>();
        line.fieldNames().forEachRemaining(names::add);
        assertThat(names)
                .containsExactly(
                        "format",
                        "seed",
                        "rate",
                        "duration",
                        "events",
                        "id_prefix",
                        "clicks_per_impression",
                        "request_share",
                        "click_delay",
                        "outside_window_fraction",
                        "edge_fraction",
                        "orphan_fraction",
                        "duplicate_fraction",
                        "out_of_order_fraction",
                        "late_fraction",
                        "ack_first_fraction",
                        "attribution_window",
                        "watermark_delay",
                        "start_time");
        assertThat(line.get("format").asText()).isEqualTo(EventFile.FORMAT);
        assertThat(line.get("events").asLong()).isEqualTo(10L);
        assertThat(line.get("start_time").asLong()).isEqualTo(START);
        assertThat(line.get("rate").asDouble()).isEqualTo(500.0);
        assertThat(line.get("id_prefix").asText()).isEqualTo("s7-");
    }

    @Test
    void shouldReadAHeaderWithoutStartOrWorkloadFieldsAsEmpty(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("events.jsonl");
        Files.writeString(file, "{\"format\":\"" + EventFile.FORMAT + "\",\"rate\":250.0,\"events\":0}\n");

        EventFile.Header header = EventFile.read(file).header();

        assertThat(header.startTime()).isEmpty();
        assertThat(header.workload().rate()).isEqualTo(250.0);
        assertThat(header.workload().attributionWindow()).isNull();
        assertThat(header.workload().idPrefix()).isNull();
    }

    @Test
    void shouldRefuseAFileWithoutTheFormatMarker(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("other.jsonl");
        Files.writeString(file, "{\"format\":\"something-else/2\"}\n");

        assertThatThrownBy(() -> EventFile.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not an events file (format something-else/2): " + file);
    }
}
