package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.workload.RunReport;
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

        LoadReport report = Bench.run(options).get(0);
        RunReport r = report.run();

        // the services' state directories are deleted once the services have stopped
        assertThat(serviceStateDirs()).isSubsetOf(stateDirsBefore);
        assertThat(dir.resolve("service-real-time-1.log")).isNotEmptyFile();
        assertThat(dir.resolve("service-real-time-2.log")).isNotEmptyFile();

        assertThat(r.counts().expected()).isGreaterThan(50L);
        assertThat(r.counts().clean()).isTrue();
        assertThat(r.oracleCounters().get("late_inputs_dropped_by_oracle")).isPositive();
        // the service runs in a child JVM: its CPU and GC pauses over the measured window are measured
        CostMeter.Cost cost = report.cost();
        assertThat(cost.events()).isEqualTo(r.sending().eventsSent());
        assertThat(cost.brokerCpuMs()).isNull();
        assertThat(cost.windowMs()).isBetween(5500L, 120_000L);
        assertThat(cost.sutCpuMs()).isPositive();
        assertThat(cost.sutCpuUsPerEvent()).isPositive();
        assertThat(cost.gcPauseMs()).isNotNegative();

        // the group: 4 partitions, so each of the 2 sub-topologies has 4 tasks, spread over the 2 instances before the
        // run (each runs tasks of its own) and still so at its end; the CPU of the group is the sum of the instances'
        GroupAssignment.Section instances = report.instances();
        assertThat(report.systemUnderTest()).endsWith(", 2 instances with one application id");
        assertThat(instances.count()).isEqualTo(2);
        assertThat(instances.sutCpuMs()).isEqualTo(cost.sutCpuMs());
        Map<String, List<String>> atStart = instances.assignmentAtStart();
        assertThat(atStart.keySet()).containsExactly("instance-1", "instance-2");
        assertThat(atStart.values()).allSatisfy(tasks -> assertThat(tasks).isNotEmpty());
        List<String> all = atStart.values().stream().flatMap(List::stream).toList();
        assertThat(all).doesNotHaveDuplicates().hasSize(8);
        List<GroupAssignment.InstanceReport> per = instances.perInstance();
        assertThat(per).hasSize(2).allSatisfy(i -> {
            assertThat(i.cpuMs()).isPositive();
            assertThat(i.activeTasks()).isPositive();
            assertThat(i.state()).isEqualTo("RUNNING");
        });
        assertThat(per.stream().mapToLong(GroupAssignment.InstanceReport::cpuMs).sum())
                .isEqualTo(cost.sutCpuMs());
        assertThat(per.stream().map(GroupAssignment.InstanceReport::pid).toList())
                .doesNotHaveDuplicates()
                .isEqualTo(cost.sutPids());
    }

    private static Set<Path> serviceStateDirs() throws IOException {
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("loadgen-app-state-"))
                    .collect(Collectors.toSet());
        }
    }
}
