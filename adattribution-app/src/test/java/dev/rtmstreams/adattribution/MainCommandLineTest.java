package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainCommandLineTest {

    private record Outcome(int code, String out, String err) {}

    private static Outcome run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, env::get, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void shouldPrintUsageWithEveryOptionWhenRunHelpIsRequested() {
        Outcome o = run(Map.of(), "run", "--help");

        assertThat(o.code).isZero();
        assertThat(o.out)
                .contains(
                        "--bootstrap-servers",
                        "--application-id",
                        "--trigger",
                        "--checkpoint-interval",
                        "--state-dir",
                        "--create-topics",
                        "--config",
                        "--attribution-window",
                        "--watermark-delay",
                        "--correlation-window",
                        "--http-port",
                        "RTM_BOOTSTRAP_SERVERS");
    }

    @Test
    void shouldPrintHelpWhenTopLevelHelpIsRequested() {
        assertThat(run(Map.of(), "--help").out).contains("run", "demo", "state");
    }

    @Test
    void shouldNameTheDemoJarAndFailWhenDemoIsRunFromTheServiceJar() {
        Outcome o = run(Map.of(), "demo", "--rate", "500");

        assertThat(o.code).isEqualTo(1);
        assertThat(o.err).contains("adattribution-demo/target/adattribution-demo.jar demo");
    }

    @Test
    void shouldExitNonZeroNamingOptionWhenOptionIsUnknown() {
        Outcome o = run(Map.of(), "run", "--bootstrap-servers", "localhost:9092", "--no-such-option");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--no-such-option");
    }

    @Test
    void shouldExitNonZeroNamingOptionAndValueWhenDurationIsInvalid() {
        Outcome o = run(Map.of(), "run", "--bootstrap-servers", "localhost:9092", "--attribution-window", "soon");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--attribution-window", "soon");
    }

    @Test
    void shouldExitNonZeroNamingTriggerWhenTriggerIsUnknown() {
        Outcome o = run(Map.of(), "run", "--bootstrap-servers", "localhost:9092", "--trigger", "continuous");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--trigger", "continuous");
    }

    @Test
    void shouldExitNonZeroNamingTheEvictionIndexWhenItIsUnknown() {
        Outcome o = run(Map.of(), "run", "--bootstrap-servers", "localhost:9092", "--eviction-index", "disk");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--eviction-index", "disk", "heap, state-store or segments");
    }

    @Test
    void shouldExitNonZeroNamingEnvironmentVariableWhenItsValueIsInvalid() {
        Outcome o = run(Map.of("RTM_WATERMARK_DELAY", "-PT1M"), "run", "--bootstrap-servers", "localhost:9092");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--watermark-delay", "RTM_WATERMARK_DELAY", "-PT1M");
    }

    @Test
    void shouldExitNonZeroWhenBootstrapServersAreMissingEverywhere() {
        Outcome o = run(Map.of(), "run");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("bootstrap-servers");
    }

    @Test
    void shouldExitNonZeroNamingKeyWhenConfigFileHasUnknownKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, "bootstrap-servers=localhost:9092\natribution-window=PT1M\n");

        Outcome o = run(Map.of(), "run", "--config", file.toString());

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("atribution-window");
    }

    @Test
    void shouldExitNonZeroWhenCommandIsMissing() {
        Outcome o = run(new HashMap<>());

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("run", "demo");
    }
}
