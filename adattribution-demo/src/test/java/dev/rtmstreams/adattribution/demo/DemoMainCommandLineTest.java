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
    void shouldRunTheServiceCommandLineWhenRunIsGiven() {
        Outcome o = run("run", "--help");

        assertThat(o.code).isZero();
        assertThat(o.out).contains("--bootstrap-servers", "RTM_BOOTSTRAP_SERVERS");
    }
}
