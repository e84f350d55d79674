package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Short benches of the published latency workloads against an embedded broker: the echo in this JVM and the
 * rtm-examples programs from their fat jar (rtm-examples-runner's) as child JVMs in real-time mode, every output
 * checked by the workload's oracle. The pom's test-scoped dependency on rtm-examples-runner makes the reactor build
 * the jar first; when this module is built alone without it, the tests are skipped (reported as skipped, not passed),
 * except under {@code CI=true}, where a missing jar fails them.
 */
class PublishedWorkloadsBenchSmokeTest {

    private static final Path EXAMPLES_JAR = Path.of("..", "rtm-examples-runner", "target", "rtm-examples.jar");

    private static List<LoadReport> bench(Path dir, BenchWorkload workload, List<String> modes, int seconds)
            throws Exception {
        boolean present = Files.isRegularFile(EXAMPLES_JAR);
        if (!present && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true and the rtm-examples jar is missing: " + EXAMPLES_JAR.toAbsolutePath());
        }
        Assumptions.assumeTrue(present, "needs " + EXAMPLES_JAR.toAbsolutePath());
        WorkloadConfig rows = WorkloadConfig.builder()
                .seed(9)
                .rate(500)
                .duration(Duration.ofSeconds(seconds))
                .build();
        BenchOptions options = InProcessBench.options(rows, dir)
                .modes(modes)
                .appJar(Path.of("none.jar"))
                .appJvmOptions(List.of("-Xmx384m"))
                .partitions(2)
                .drain(Duration.ofSeconds(20))
                .readyTimeout(Duration.ofSeconds(90))
                .benchWorkload(workload)
                .examplesJar(EXAMPLES_JAR)
                .rowBytes(200)
                .build();
        return Bench.run(options);
    }

    private static void assertExact(LoadReport report, long expected) {
        TestReports.assertExactOutputs(report, expected);
        RunReport r = report.run();
        assertThat(r.latencyMs().count()).isEqualTo(r.counts().observed());
    }

    @Test
    void shouldCopyEveryRowExactlyWhenBenchingTheStatelessWorkloadInEchoAndRealTimeModes(@TempDir Path dir)
            throws Exception {
        List<LoadReport> reports = bench(dir, BenchWorkload.STATELESS, List.of("echo", "real-time"), 5);

        assertThat(reports).hasSize(2);
        for (LoadReport r : reports) {
            assertThat(r.run().sending().eventsSent()).isEqualTo(2500L);
            assertExact(r, 2500L);
            assertThat(((RunDescriptions.RowWorkload) r.setting().workload()).workload())
                    .isEqualTo("stateless");
        }
        assertThat(reports.get(0).p99RatioToEcho()).isEqualTo(1.0);
        assertThat(reports.get(1).p99RatioToEcho()).isPositive();
        // the example runs in a child JVM: its CPU over the measured window is measured
        assertThat(reports.get(1).cost().sutCpuUsPerEvent()).isPositive();
        assertThat(dir.resolve("bench.html")).exists();
        assertThat(Files.readString(dir.resolve("example-real-time.log"))).contains("EXAMPLE READY");
    }

    @Test
    void shouldCountEveryGroupToItsRowsWhenBenchingTheAggregationInRealTimeMode(@TempDir Path dir) throws Exception {
        LoadReport r =
                bench(dir, BenchWorkload.AGGREGATION, List.of("real-time"), 4).get(0);

        // 2000 rows, every tenth repeating the previous row's (timestamp, value): 1800 groups; one update per row
        assertExact(r, 1800L);
        assertThat(r.run().counts().observed()).isEqualTo(2000L);
    }

    @Test
    void shouldEnrichEveryRowWithAPartnerWhenBenchingTheStreamStaticJoinInRealTimeMode(@TempDir Path dir)
            throws Exception {
        LoadReport r = bench(dir, BenchWorkload.STREAM_STATIC_JOIN, List.of("real-time"), 4)
                .get(0);

        long rows = new LatencyWorkload(BenchWorkload.STREAM_STATIC_JOIN, 9, 500, Duration.ofSeconds(4), "", 200, 0)
                .expectedJoinResults()
                .size();
        assertExact(r, rows);
        assertThat(rows).isBetween(1990L, 2000L);
    }
}
