package dev.rtmstreams.adattribution.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExecutionMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo end to end at a small scale: an embedded broker, the service in both modes, the load generator's workload
 * with its warm-up, and every output the oracle expects received.
 */
class DemoRunnerIT {

    @Test
    void shouldReceiveEveryOutputTheOracleExpectsWhenRunningBothModes(@TempDir Path dir) throws Exception {
        DemoRunner.Settings settings = new DemoRunner.Settings(
                Duration.ofSeconds(5),
                300,
                Duration.ofSeconds(1),
                1,
                dir.resolve("report"),
                List.of(ExecutionMode.REAL_TIME, ExecutionMode.MICRO_BATCH),
                Duration.ofMillis(500),
                7,
                Map.of(),
                false);
        StringWriter console = new StringWriter();

        List<DemoRunner.ModeResult> results = new DemoRunner(settings, new PrintWriter(console)).run();

        assertThat(results)
                .extracting(DemoRunner.ModeResult::mode)
                .containsExactly(ExecutionMode.REAL_TIME, ExecutionMode.MICRO_BATCH);
        for (DemoRunner.ModeResult r : results) {
            assertThat(r.expectedAttributed())
                    .as("%s attributed clicks", r.mode())
                    .isPositive();
            assertThat(r.receivedAttributed())
                    .as("%s attributed clicks", r.mode())
                    .isEqualTo(r.expectedAttributed());
            assertThat(r.expectedLogRecords()).as("%s log records", r.mode()).isPositive();
            assertThat(r.receivedLogRecords()).as("%s log records", r.mode()).isEqualTo(r.expectedLogRecords());
            assertThat(r.attribution().getTotalCount())
                    .as("%s measured latencies", r.mode())
                    .isPositive();
            assertThat(r.correlation().getTotalCount())
                    .as("%s measured latencies", r.mode())
                    .isPositive();
        }
        assertThat(console.toString())
                .contains("End-to-end latency (ms)", "click-attribution", "request-ack", "Correctness:");
        assertThat(dir.resolve("report/demo-report.json")).isRegularFile();
        assertThat(dir.resolve("report/latency-attribution-real-time.hgrm")).isRegularFile();
    }
}
