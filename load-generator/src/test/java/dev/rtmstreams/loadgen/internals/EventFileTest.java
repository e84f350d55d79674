package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventFileTest {

    private static final long START = 1_700_000_000_000L;

    @Test
    void shouldUseEveryEventExactlyOnceWhenRoundTrippingThroughTheEventFile(@TempDir Path dir) throws Exception {
        List<Event> events = WorkloadGenerator.generate(
                WorkloadConfig.builder()
                        .rate(500)
                        .duration(Duration.ofSeconds(4))
                        .build(),
                START);
        Path file = dir.resolve("events.jsonl.gz");
        EventFile.write(file, Map.of("rate", 500.0, "start_time", START), events);
        EventFile.Contents back = EventFile.read(file);
        assertThat(back.events()).isEqualTo(events);
        assertThat(back.header()).containsEntry("format", EventFile.FORMAT).containsEntry("events", 2000);
    }
}
