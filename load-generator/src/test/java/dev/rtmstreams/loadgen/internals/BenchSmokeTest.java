package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.tools.LatencySummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short bench against a real embedded KRaft broker (one fresh broker per mode, like the CLI). */
class BenchSmokeTest {

    @Test
    void shouldMatchTheOracleExactlyWhenBenchingEchoAndKafkaStreamsJoin(@TempDir Path dir) throws Exception {
        BenchOptions options =
                lateAndDuplicateInputs(11, Duration.ofSeconds(5), List.of("echo", "kafka-streams-join"), dir);

        List<Map<String, Object>> reports = Bench.run(options);

        assertThat(reports).hasSize(2);
        reports.forEach(r -> assertExactAndMeasured(r, 2000L, 4500L));
        // the workload really exercised late and duplicate inputs
        assertThat((Long) reports.get(1).get("late_inputs_dropped_by_oracle")).isPositive();
        assertThat((Long) reports.get(1).get("duplicate_inputs_dropped_by_oracle"))
                .isPositive();
        assertThat(dir.resolve("bench.html")).exists();
        assertThat(Files.readString(dir.resolve("bench.html"))).contains("<svg").doesNotContain("<script");
        assertThat(dir.resolve("report-echo.json")).exists();
        assertThat(dir.resolve("report-kafka-streams-join.json")).exists();
    }

    @Test
    void shouldMatchTheOracleExactlyWhenBenchingTheTunedJoinAndTheKafkaStreamsPassthrough(@TempDir Path dir)
            throws Exception {
        BenchOptions options = lateAndDuplicateInputs(
                13, Duration.ofSeconds(3), List.of("kafka-streams-join-tuned", "kafka-streams-passthrough"), dir);

        List<Map<String, Object>> reports = Bench.run(options);

        assertThat(reports)
                .extracting(r -> r.get("mode"))
                .containsExactly("kafka-streams-join-tuned", "kafka-streams-passthrough");
        reports.forEach(r -> assertExactAndMeasured(r, 1200L, 2500L));
        // the passthrough is checked like the echo: one copy per click sent, so more outputs than the join's matches
        assertThat((Long) reports.get(1).get("expected"))
                .isGreaterThan((Long) reports.get(0).get("expected"));
        assertThat(reports.get(0))
                .containsEntry("system_under_test", BenchModes.description("kafka-streams-join-tuned"));
        assertThat(Files.readString(dir.resolve("bench.html")))
                .contains("what the engine adds", "the Kafka Streams floor");
    }

    /**
     * A bench of attribution inputs at 400 events/s, late and duplicate ones among them, on two partitions, with
     * broker and peers in this JVM.
     */
    private static BenchOptions lateAndDuplicateInputs(long seed, Duration duration, List<String> modes, Path dir) {
        WorkloadConfig workload = WorkloadConfig.builder()
                .seed(seed)
                .rate(400)
                .duration(duration)
                .requestShare(0)
                .lateWarmupClicks(20)
                .lateWarmup(Duration.ZERO) // no micro-batch mode here: late events may come at once
                .lateFraction(0.02)
                .duplicateFraction(0.05)
                .build();
        return InProcessBench.options(workload, dir)
                .modes(modes)
                .appJar(Path.of("none.jar"))
                .appJvmOptions(List.of())
                .partitions(2)
                .drain(Duration.ofSeconds(30))
                .readyTimeout(Duration.ofSeconds(60))
                .build();
    }

    /** Every output of the run matched, none duplicated or unexpected; latency and a cost window measured. */
    @SuppressWarnings("unchecked")
    private static void assertExactAndMeasured(Map<String, Object> r, long events, long minWindowMs) {
        assertThat(r.get("expected")).as("%s expected", r.get("mode")).isInstanceOf(Long.class);
        assertThat((Long) r.get("expected")).as("%s expected", r.get("mode")).isGreaterThan(50L);
        assertThat(r)
                .as("mode %s", r.get("mode"))
                .containsEntry("missing", 0L)
                .containsEntry("duplicates", 0L)
                .containsEntry("unexpected", 0L)
                .containsEntry("events_sent", events);
        assertThat(((LatencySummary) r.get("latency_ms")).count()).isEqualTo(r.get("expected"));
        // in-process peers and broker: a measured window, but no process to measure
        Map<String, Object> cost = (Map<String, Object>) r.get("cost");
        assertThat(cost)
                .containsEntry("events", events)
                .containsEntry("sut_cpu_ms", null)
                .containsEntry("broker_cpu_ms", null)
                .containsEntry("gc_pause_ms", null);
        assertThat((Long) cost.get("window_ms")).isBetween(minWindowMs, 60_000L);
        assertThat((Map<String, Object>) r.get("environment"))
                .containsKeys("load_average_1m_at_bench_start", "load_average_1m_at_mode_start");
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldSendTheWarmUpAndTheMeasuredRunAsOneStreamAndMeasureOnlyTheMeasuredPart(@TempDir Path dir)
            throws Exception {
        WorkloadConfig workload = WorkloadConfig.builder()
                .seed(12)
                .rate(400)
                .duration(Duration.ofSeconds(3))
                .requestShare(0)
                .lateWarmupClicks(20)
                .lateWarmup(Duration.ZERO) // no micro-batch mode here: late events may come at once
                .lateFraction(0.02)
                .build();
        BenchOptions options = InProcessBench.options(workload, dir)
                .warmup(Duration.ofSeconds(3))
                .modes(List.of("echo"))
                .appJar(Path.of("none.jar"))
                .appJvmOptions(List.of())
                .drain(Duration.ofSeconds(30))
                .readyTimeout(Duration.ofSeconds(60))
                .build();

        Map<String, Object> r = Bench.run(options).get(0);

        // 400 inputs/s: slots 0..1199 are scheduled before 3 s (the warm-up), 1200..2399 after
        assertThat(r)
                .containsEntry("warmup_events_sent", 1200L)
                .containsEntry("events_sent", 1200L)
                .containsEntry("missing", 0L)
                .containsEntry("duplicates", 0L)
                .containsEntry("unexpected", 0L);
        assertThat(((Map<String, Object>) r.get("cost")).get("events")).isEqualTo(1200L);
        // the oracle checks every output, the latency covers those completed by a measured input only
        long expected = (Long) r.get("expected");
        long measured = ((LatencySummary) r.get("latency_ms")).count();
        assertThat(measured).isPositive().isLessThan(expected);
        assertThat(measured).isGreaterThan(expected / 3);
        // per-second figures start at the measured window: three seconds of sends (plus the drain's tail)
        List<Map<String, Object>> perSecond = (List<Map<String, Object>>) r.get("per_second");
        long sentPerSecond = perSecond.stream()
                .mapToLong(m -> ((Number) m.get("sent")).longValue())
                .sum();
        assertThat(sentPerSecond).isEqualTo(1200L);
        assertThat(perSecond.size()).isBetween(3, 5);
    }
}
