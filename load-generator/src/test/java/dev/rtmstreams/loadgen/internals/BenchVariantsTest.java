package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchVariantsTest {

    @Test
    void shouldParseVariantsWithTheirOwnArgumentsInOrder() {
        Map<String, BenchModes.Variant> v = BenchModes.parseVariants(
                List.of("new=/tmp/new.jar", "old=build/a=b.jar"),
                List.of("new=--checkpoint-interval", "new=PT1M", "old=--foo=bar"));

        assertThat(v.keySet()).containsExactly("new", "old");
        assertThat(v.get("new").jar()).isEqualTo(Path.of("/tmp/new.jar"));
        assertThat(v.get("new").args()).containsExactly("--checkpoint-interval", "PT1M");
        assertThat(v.get("new").mode()).isEqualTo("real-time-new");
        assertThat(v.get("old").jar()).isEqualTo(Path.of("build/a=b.jar"));
        assertThat(v.get("old").args()).containsExactly("--foo=bar");
    }

    @Test
    void shouldRejectMalformedOrUnknownVariantsNamingThem() {
        assertThatThrownBy(() -> BenchModes.parseVariants(List.of("new"), List.of()))
                .hasMessageContaining("LABEL=JAR")
                .hasMessageContaining("'new'");
        assertThatThrownBy(() -> BenchModes.parseVariants(List.of("=x.jar"), List.of()))
                .hasMessageContaining("LABEL=JAR");
        assertThatThrownBy(() -> BenchModes.parseVariants(List.of("new="), List.of()))
                .hasMessageContaining("LABEL=JAR");
        assertThatThrownBy(() -> BenchModes.parseVariants(List.of("a=1.jar", "a=2.jar"), List.of()))
                .hasMessageContaining("twice")
                .hasMessageContaining("'a'");
        assertThatThrownBy(() -> BenchModes.parseVariants(List.of("a=1.jar"), List.of("b=--x")))
                .hasMessageContaining("unknown variant 'b'");
        assertThatThrownBy(() -> BenchModes.parseVariants(List.of("a b=1.jar"), List.of()))
                .hasMessageContaining("'a b'");
        assertThatThrownBy(() -> BenchModes.parseVariants(List.of("echo=1.jar"), List.of()))
                .hasMessageContaining("must not be a mode name");
    }

    @Test
    void shouldAcceptVariantLabelsAndPrefixedModesWhenResolvingModes() {
        Map<String, BenchModes.Variant> v = BenchModes.parseVariants(List.of("new=n.jar", "old=o.jar"), List.of());

        assertThat(BenchModes.resolveModes(List.of("echo", "new", "real-time-old", "micro-batch-asap"), v))
                .containsExactly("echo", "real-time-new", "real-time-old", "micro-batch-asap");
        assertThat(BenchModes.resolveModes(null, v))
                .containsExactly(
                        "echo",
                        "real-time",
                        "micro-batch",
                        "kafka-streams-join",
                        "kafka-streams-join-tuned",
                        "kafka-streams-passthrough",
                        "real-time-eos",
                        "kafka-streams-join-eos",
                        "real-time-new",
                        "real-time-old");
        assertThat(BenchModes.resolveModes(List.of(), Map.of())).isEqualTo(BenchModes.DEFAULT_MODES);
        assertThatThrownBy(() -> BenchModes.resolveModes(List.of("real-time-other"), v))
                .hasMessageContaining("unknown mode 'real-time-other'")
                .hasMessageContaining("real-time-new");
    }

    @Test
    void shouldAcceptVariantModesInOptionsOnlyWhenTheVariantExists() {
        WorkloadConfig w = WorkloadConfig.builder()
                .rate(100)
                .duration(Duration.ofSeconds(1))
                .build();
        Map<String, BenchModes.Variant> v = BenchModes.parseVariants(List.of("new=n.jar"), List.of());

        BenchOptions o = BenchOptions.builder()
                .workload(w)
                .reportDir(Path.of("r"))
                .modes(List.of("real-time-new", "micro-batch-asap"))
                .variants(v)
                .build();

        assertThat(o.atRate(500).variants()).containsKey("new");
        assertThat(o.atRate(500).workload().rate()).isEqualTo(500);
        assertThatThrownBy(() -> BenchOptions.builder()
                        .workload(w)
                        .reportDir(Path.of("r"))
                        .modes(List.of("real-time-new"))
                        .build())
                .hasMessageContaining("unknown mode 'real-time-new'");
    }
}
