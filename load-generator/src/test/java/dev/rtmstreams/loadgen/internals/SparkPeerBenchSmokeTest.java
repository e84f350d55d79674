package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Apache Spark peers against an embedded broker: Spark (module load-generator-spark, in a child JVM) runs the
 * stream-static join in real-time mode, and the workload's oracle checks every output, including that it carries its
 * input row's timestamp (mode spark-micro-batch starts the same way with another trigger; one Spark start is kept
 * here, as each costs 20-30 s on two busy cores). The pom's test-scoped dependency on load-generator-spark makes the
 * reactor build the peer first; when this module is built alone without it, the test is skipped (reported as
 * skipped), except under {@code CI=true}, where a missing build fails it.
 */
class SparkPeerBenchSmokeTest {

    private static final Path SPARK_DIR = Path.of("..", "load-generator-spark", "target");

    @Test
    void shouldEnrichEveryRowExactlyOnSparkInRealTimeMode(@TempDir Path dir) throws Exception {
        boolean present = Files.isRegularFile(SPARK_DIR.resolve("spark-classpath.txt"));
        if (!present && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true and the Spark peer's build is missing: " + SPARK_DIR.toAbsolutePath());
        }
        Assumptions.assumeTrue(present, "needs " + SPARK_DIR.toAbsolutePath());
        WorkloadConfig rows = WorkloadConfig.builder()
                .seed(9)
                .rate(300)
                .duration(Duration.ofSeconds(4))
                .build();
        BenchOptions options = InProcessBench.options(rows, dir)
                .modes(List.of(SparkPeers.REAL_TIME))
                .appJar(Path.of("none.jar"))
                .appJvmOptions(List.of("-Xmx768m"))
                .partitions(2)
                .streamThreads(2)
                .drain(Duration.ofSeconds(30))
                .readyTimeout(Duration.ofSeconds(120))
                .benchWorkload(BenchWorkload.STREAM_STATIC_JOIN)
                .sparkDir(SPARK_DIR)
                .build();

        List<LoadReport> reports = Bench.run(options);

        long expected = new LatencyWorkload(
                        BenchWorkload.STREAM_STATIC_JOIN, 9, 300, Duration.ofSeconds(4), "", 1200, 0)
                .expectedJoinResults()
                .size();
        assertThat(expected).isBetween(1190L, 1200L);
        assertThat(reports).hasSize(1);
        for (LoadReport r : reports) {
            TestReports.assertExactOutputs(r, expected);
            // Spark runs in a child JVM of its own: its CPU over the measured window is measured
            assertThat(r.cost().sutCpuUsPerEvent()).isPositive();
        }
        assertThat(Files.readString(dir.resolve("spark-spark-real-time.log"))).contains("PEER READY");
        assertThat(dir.resolve("spark-checkpoint-spark-real-time")).isDirectory();
    }

    @Test
    void shouldRefuseTheAggregationInSparkRealTimeModeAndSparkModesOnTheAttributionWorkload(@TempDir Path dir) {
        WorkloadConfig rows = WorkloadConfig.builder().seed(1).rate(100).build();

        assertThatThrownBy(() -> InProcessBench.options(rows, dir)
                        .benchWorkload(BenchWorkload.AGGREGATION)
                        .modes(List.of(SparkPeers.REAL_TIME))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mode 'spark-real-time' does not run workload 'aggregation'")
                .hasMessageContaining("stateless queries");
        assertThatThrownBy(() -> InProcessBench.options(rows, dir)
                        .modes(List.of(SparkPeers.MICRO_BATCH))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runs the published latency workloads");
        assertThatThrownBy(() -> InProcessBench.options(rows, dir)
                        .benchWorkload(BenchWorkload.STATELESS)
                        .modes(List.of(SparkPeers.REAL_TIME))
                        .partitions(2)
                        .streamThreads(1)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one task slot per input partition");
        assertThat(InProcessBench.options(rows, dir)
                        .benchWorkload(BenchWorkload.AGGREGATION)
                        .modes(List.of(SparkPeers.MICRO_BATCH))
                        .build()
                        .modes())
                .containsExactly(SparkPeers.MICRO_BATCH);
    }

    @Test
    void shouldNameTheBuildCommandWhenTheSparkPeerIsNotBuilt(@TempDir Path dir) {
        assertThatThrownBy(() -> SparkPeers.requireBuild(dir.resolve("nowhere")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("load-generator-spark.jar")
                .hasMessageContaining("mvn -B -f load-generator-spark/pom.xml package");
    }
}
