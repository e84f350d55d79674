package dev.rtmstreams.adattribution.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoMainCommandLineTest {

    private record Outcome(int code, String out, String err) {}

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = DemoMain.execute(
                args, Map.<String, String>of()::get, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void shouldPrintHelpWhenTopLevelOrDemoHelpIsRequested() {
        assertThat(run("--help").out).contains("run", "demo", "state");
        Outcome demo = run("demo", "--help");
        assertThat(demo.code).isZero();
        assertThat(demo.out).contains("--duration", "--rate", "--seed");
    }

    @Test
    void shouldExitNonZeroNamingOptionWhenRateIsNotPositive() {
        Outcome o = run("demo", "--rate", "0");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--rate");
    }

    @Test
    void shouldAcceptDurationsWithAUnitAsWellAsIsoWhenParsingEveryDurationOption() {
        // the durations parse; the demo then stops at --rate 0, which is checked after them
        Outcome o =
                run("demo", "--duration", "30s", "--warmup", "PT2S", "--micro-batch-interval", "500ms", "--rate", "0");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--rate").doesNotContain("duration like");
    }

    @Test
    void shouldExitNonZeroNamingOptionAndValueWhenADurationDoesNotParse() {
        Outcome o = run("demo", "--duration", "30 seconds");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--duration", "'30 seconds'", "PT2M, 30s or 500ms");
    }

    @Test
    void shouldExitNonZeroNamingOptionAndValueWhenADurationIsNotPositive() {
        Outcome o = run("demo", "--duration", "0s");

        assertThat(o.code).isEqualTo(2);
        assertThat(o.err).contains("--duration", "must be positive", "PT0S");
    }

    @Test
    void shouldRunTheServiceCommandLineWhenRunIsGiven() {
        Outcome o = run("run", "--help");

        assertThat(o.code).isZero();
        assertThat(o.out).contains("--bootstrap-servers", "RTM_BOOTSTRAP_SERVERS");
    }
}
