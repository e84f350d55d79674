package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Which modes, variants and sizes the published latency workloads accept, in {@code BenchOptions} and on the CLI. */
class BenchWorkloadOptionsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static BenchOptionsBuilder attribution(List<String> modes, Map<String, BenchModes.Variant> variants) {
        WorkloadConfig workload = WorkloadConfig.builder()
                .rate(100)
                .duration(Duration.ofSeconds(1))
                .build();
        return InProcessBench.options(workload, Path.of("r"))
                .modes(modes)
                .appJar(Path.of("a.jar"))
                .appJvmOptions(List.of())
                .partitions(1)
                .variants(variants);
    }

    private static BenchOptionsBuilder published(BenchOptionsBuilder options, BenchWorkload workload, int rowBytes) {
        return options.benchWorkload(workload).examplesJar(Path.of("e.jar")).rowBytes(rowBytes);
    }

    private int run(String... args) {
        CommandLine cl = Commands.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void shouldParseWorkloadNamesAndRejectAnUnknownOneNamingIt() {
        assertThat(BenchWorkload.parse("stream-static-join")).isEqualTo(BenchWorkload.STREAM_STATIC_JOIN);
        assertThat(BenchWorkload.parse("Aggregation")).isEqualTo(BenchWorkload.AGGREGATION);
        assertThatThrownBy(() -> BenchWorkload.parse("join"))
                .hasMessageContaining("unknown workload 'join'")
                .hasMessageContaining("attribution,stateless,aggregation,stream-static-join");
    }

    @Test
    void shouldDefaultToEchoRealTimeAndMicroBatchForAPublishedWorkload() {
        assertThat(BenchModes.resolveModes(null, Map.of(), BenchWorkload.STATELESS))
                .containsExactly("echo", "real-time", "micro-batch");
        assertThat(BenchModes.resolveModes(null, Map.of(), BenchWorkload.ATTRIBUTION))
                .isEqualTo(BenchModes.DEFAULT_MODES);
        BenchOptions o = published(
                        attribution(List.of("echo", "real-time", "micro-batch-asap"), Map.of()),
                        BenchWorkload.AGGREGATION,
                        100)
                .build();
        assertThat(o.atRate(10_000).benchWorkload()).isEqualTo(BenchWorkload.AGGREGATION);
        assertThat(o.atRate(10_000).rowBytes()).isEqualTo(100);
    }

    @Test
    void shouldRejectTheKafkaStreamsJoinVariantsAndBadRowSizesForAPublishedWorkloadNamingThem() {
        assertThatThrownBy(() -> published(
                                attribution(List.of("echo", "kafka-streams-join"), Map.of()),
                                BenchWorkload.STATELESS,
                                1200)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mode 'kafka-streams-join'")
                .hasMessageContaining("workload 'stateless'")
                .hasMessageContaining("echo,real-time,micro-batch,micro-batch-asap");
        Map<String, BenchModes.Variant> v = BenchModes.parseVariants(List.of("new=n.jar"), List.of());
        assertThatThrownBy(() -> published(attribution(List.of("echo"), v), BenchWorkload.AGGREGATION, 1200)
                        .build())
                .hasMessageContaining("workload 'aggregation' takes none, got new");
        assertThatThrownBy(() -> published(attribution(List.of("echo"), Map.of()), BenchWorkload.STATELESS, 0)
                        .build())
                .hasMessageContaining("rowBytes must be in 1..1000000: 0");
    }

    @Test
    void shouldExitTwoNamingTheValueWhenTheBenchCommandGetsABadWorkloadOrMode(@TempDir Path dir) {
        assertThat(run("bench", "--report-dir", dir.toString(), "--workload", "joins"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("unknown workload 'joins'");
        assertThat(run(
                        "bench",
                        "--report-dir",
                        dir.toString(),
                        "--workload",
                        "stream-static-join",
                        "--modes",
                        "echo,kafka-streams-join"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("mode 'kafka-streams-join' does not run workload 'stream-static-join'");
        assertThat(run(
                        "bench",
                        "--report-dir",
                        dir.toString(),
                        "--workload",
                        "stateless",
                        "--modes",
                        "real-time",
                        "--examples-jar",
                        dir.resolve("missing.jar").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("rtm-examples jar not found").contains("missing.jar");
    }

    @Test
    void shouldDocumentTheWorkloadOptionsInTheBenchHelp() {
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString())
                .contains("--workload", "stream-static-join", "--examples-jar", "--row-bytes", "p99/echo", "10000");
    }

    @Test
    void shouldLaunchTheMatchingExampleAgainstTheBenchTopicsWithTheTableForTheJoin(@TempDir Path dir) throws Exception {
        BenchOptions o = published(
                        attribution(List.of("micro-batch-asap"), Map.of())
                                .reportDir(dir)
                                .appArgs(List.of("--kafka", "producer.linger.ms=0"))
                                .streamThreads(3),
                        BenchWorkload.STREAM_STATIC_JOIN,
                        1200)
                .build();

        List<String> args = SystemUnderTest.exampleArgs(o, "micro-batch-asap", "b:1", LatencyWorkload.Topics.DEFAULTS);

        assertThat(args)
                .startsWith("stream-static-join", "--source", "kafka", "--serve", "--trigger", "micro-batch")
                .containsSequence("--bootstrap-servers", "b:1")
                .containsSequence("--input-topic", LatencyWorkload.INPUT_TOPIC)
                .containsSequence("--output-topic", LatencyWorkload.OUTPUT_TOPIC)
                .containsSequence("--threads", "3")
                .containsSequence("--micro-batch-interval", "PT0S")
                .containsSequence(
                        "--table",
                        "csv",
                        "--table-file",
                        dir.resolve("static-table.csv").toAbsolutePath().toString())
                .endsWith("--kafka", "producer.linger.ms=0");
        assertThat(dir.resolve("static-table.csv")).exists();
    }
}
