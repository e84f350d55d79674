package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short bench against a real embedded KRaft broker (one fresh broker per mode, like the CLI). */
class BenchSmokeTest {

    @Test
    void shouldMatchTheOracleExactlyWhenBenchingEchoAndKafkaStreamsJoin(@TempDir Path dir) throws Exception {
        BenchOptions options =
                lateAndDuplicateInputs(11, Duration.ofSeconds(5), List.of("echo", "kafka-streams-join"), dir);

        List<LoadReport> reports = Bench.run(options);

        assertThat(reports).hasSize(2);
        reports.forEach(r -> assertExactAndMeasured(r, 2000L, 4500L));
        // the workload really exercised late and duplicate inputs
        assertThat(reports.get(1).run().oracleCounters().get("late_inputs_dropped_by_oracle"))
                .isPositive();
        assertThat(reports.get(1).run().oracleCounters().get("duplicate_inputs_dropped_by_oracle"))
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

        List<LoadReport> reports = Bench.run(options);

        assertThat(reports)
                .extracting(LoadReport::mode)
                .containsExactly("kafka-streams-join-tuned", "kafka-streams-passthrough");
        reports.forEach(r -> assertExactAndMeasured(r, 1200L, 2500L));
        // the passthrough is checked like the echo: one copy per click sent, so more outputs than the join's matches
        assertThat(reports.get(1).run().counts().expected())
                .isGreaterThan(reports.get(0).run().counts().expected());
        assertThat(reports.get(0).systemUnderTest()).isEqualTo(BenchModes.description("kafka-streams-join-tuned"));
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
    private static void assertExactAndMeasured(LoadReport report, long events, long minWindowMs) {
        RunReport r = report.run();
        assertThat(r.counts().expected()).as("%s expected", r.mode()).isGreaterThan(50L);
        assertThat(r.counts())
                .as("mode %s", r.mode())
                .extracting(RunReport.Counts::missing, RunReport.Counts::duplicates, RunReport.Counts::unexpected)
                .containsExactly(0L, 0L, 0L);
        assertThat(r.sending().eventsSent()).isEqualTo(events);
        assertThat(r.latencyMs().count()).isEqualTo(r.counts().expected());
        // in-process peers and broker: a measured window, but no process to measure
        CostMeter.Cost cost = report.cost();
        assertThat(cost.events()).isEqualTo(events);
        assertThat(cost.sutCpuMs()).isNull();
        assertThat(cost.brokerCpuMs()).isNull();
        assertThat(cost.gcPauseMs()).isNull();
        assertThat(cost.windowMs()).isBetween(minWindowMs, 60_000L);
        assertThat(report.setting().environment()).isNotNull();
    }

    @Test
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

        LoadReport report = Bench.run(options).get(0);
        RunReport r = report.run();

        // 400 inputs/s: slots 0..1199 are scheduled before 3 s (the warm-up), 1200..2399 after
        assertThat(r.sending().warmupEventsSent()).isEqualTo(1200L);
        assertThat(r.sending().eventsSent()).isEqualTo(1200L);
        assertThat(r.counts().clean()).isTrue();
        assertThat(report.cost().events()).isEqualTo(1200L);
        // the oracle checks every output, the latency covers those completed by a measured input only
        long expected = r.counts().expected();
        long measured = r.latencyMs().count();
        assertThat(measured).isPositive().isLessThan(expected);
        assertThat(measured).isGreaterThan(expected / 3);
        // per-second figures start at the measured window: three seconds of sends (plus the drain's tail)
        List<RunReport.Second> perSecond = r.perSecond();
        long sentPerSecond =
                perSecond.stream().mapToLong(RunReport.Second::sent).sum();
        assertThat(sentPerSecond).isEqualTo(1200L);
        assertThat(perSecond.size()).isBetween(3, 5);
    }
}
