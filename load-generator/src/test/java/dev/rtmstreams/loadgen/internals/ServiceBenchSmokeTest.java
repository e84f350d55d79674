package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short bench of the real service (adattribution-app's fat jar, started as a child JVM with its
 * command line) in real-time mode against an embedded broker. The reactor builds
 * adattribution-app before this module, so in a full {@code mvn verify} the jar exists; when this
 * module is built alone without it, the test is skipped (reported as skipped, not passed).
 */
class ServiceBenchSmokeTest {

    private static final Path APP_JAR = Path.of("..", "adattribution-app", "target", "adattribution-app.jar");

    @Test
    void shouldMatchTheOracleExactlyWhenBenchingTheServiceInRealTimeMode(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(APP_JAR), "needs " + APP_JAR.toAbsolutePath());
        WorkloadConfig workload = WorkloadConfig.builder()
                .seed(5)
                .rate(300)
                .duration(Duration.ofSeconds(6))
                .requestShare(0.2)
                .lateWarmupClicks(20)
                .lateWarmup(Duration.ZERO) // no micro-batch mode here: late events may come at once
                .lateFraction(0.02)
                .duplicateFraction(0.05)
                .build();
        BenchOptions options = InProcessBench.options(workload, dir)
                .modes(List.of("real-time"))
                .appJar(APP_JAR)
                .appJvmOptions(List.of("-Xmx512m"))
                .partitions(2)
                .drain(Duration.ofSeconds(30))
                .readyTimeout(Duration.ofSeconds(120))
                .build();

        Set<Path> stateDirsBefore = serviceStateDirs();

        Map<String, Object> r = Bench.run(options).get(0);

        // the service's state directory is deleted once the service has stopped
        assertThat(serviceStateDirs()).isSubsetOf(stateDirsBefore);

        assertThat((Long) r.get("expected")).isGreaterThan(50L);
        assertThat(r)
                .containsEntry("missing", 0L)
                .containsEntry("duplicates", 0L)
                .containsEntry("unexpected", 0L);
        assertThat((Long) r.get("late_inputs_dropped_by_oracle")).isPositive();
        // the service runs in a child JVM: its CPU and GC pauses over the measured window are measured
        @SuppressWarnings("unchecked")
        Map<String, Object> cost = (Map<String, Object>) r.get("cost");
        assertThat(cost).containsEntry("events", r.get("events_sent")).containsEntry("broker_cpu_ms", null);
        assertThat((Long) cost.get("window_ms")).isBetween(5500L, 120_000L);
        assertThat((Long) cost.get("sut_cpu_ms")).isPositive();
        assertThat((Double) cost.get("sut_cpu_us_per_event")).isPositive();
        assertThat((Double) cost.get("gc_pause_ms")).isNotNegative();
    }

    private static Set<Path> serviceStateDirs() throws IOException {
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("loadgen-app-state-"))
                    .collect(Collectors.toSet());
        }
    }
}
