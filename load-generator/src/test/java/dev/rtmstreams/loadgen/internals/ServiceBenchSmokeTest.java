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
 * A short bench of the real service (adattribution-app's fat jar, started as child JVMs with its
 * command line) in real-time mode against an embedded broker, as a group of two instances with one application id
 * ({@code --instances 2}): the oracle is the same, the report says what each instance cost and ran. The reactor builds
 * adattribution-app before this module, so in a full {@code mvn verify} the jar exists; when this
 * module is built alone without it, the test is skipped (reported as skipped, not passed).
 */
class ServiceBenchSmokeTest {

    private static final Path APP_JAR = Path.of("..", "adattribution-app", "target", "adattribution-app.jar");

    @Test
    void shouldMatchTheOracleExactlyWhenBenchingTwoInstancesOfTheServiceInRealTimeMode(@TempDir Path dir)
            throws Exception {
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
                .instances(2) // partitions: 2 per instance by default
                .drain(Duration.ofSeconds(30))
                .readyTimeout(Duration.ofSeconds(120))
                .build();

        Set<Path> stateDirsBefore = serviceStateDirs();

        Map<String, Object> r = Bench.run(options).get(0);

        // the services' state directories are deleted once the services have stopped
        assertThat(serviceStateDirs()).isSubsetOf(stateDirsBefore);
        assertThat(dir.resolve("service-real-time-1.log")).isNotEmptyFile();
        assertThat(dir.resolve("service-real-time-2.log")).isNotEmptyFile();

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

        // the group: 4 partitions, so each of the 2 sub-topologies has 4 tasks, spread over the 2 instances before the
        // run (each runs tasks of its own) and still so at its end; the CPU of the group is the sum of the instances'
        @SuppressWarnings("unchecked")
        Map<String, Object> instances = (Map<String, Object>) r.get("instances");
        assertThat((String) r.get("system_under_test")).endsWith(", 2 instances with one application id");
        assertThat(instances).containsEntry("count", 2).containsEntry("sut_cpu_ms", cost.get("sut_cpu_ms"));
        @SuppressWarnings("unchecked")
        Map<String, List<String>> atStart = (Map<String, List<String>>) instances.get("assignment_at_start");
        assertThat(atStart.keySet()).containsExactly("instance-1", "instance-2");
        assertThat(atStart.values()).allSatisfy(tasks -> assertThat(tasks).isNotEmpty());
        List<String> all = atStart.values().stream().flatMap(List::stream).toList();
        assertThat(all).doesNotHaveDuplicates().hasSize(8);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> per = (List<Map<String, Object>>) instances.get("per_instance");
        assertThat(per).hasSize(2).allSatisfy(i -> {
            assertThat((Long) i.get("cpu_ms")).isPositive();
            assertThat((Integer) i.get("active_tasks")).isPositive();
            assertThat(i).containsEntry("state", "RUNNING");
        });
        assertThat(per.stream().mapToLong(i -> (Long) i.get("cpu_ms")).sum()).isEqualTo(cost.get("sut_cpu_ms"));
        assertThat(per.stream().map(i -> i.get("pid")).toList())
                .doesNotHaveDuplicates()
                .isEqualTo(cost.get("sut_pids"));
    }

    private static Set<Path> serviceStateDirs() throws IOException {
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("loadgen-app-state-"))
                    .collect(Collectors.toSet());
        }
    }
}
