package dev.rtmstreams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "PT2M, PT2M",
        "pt5m, PT5M",
        "PT0.5S, PT0.5S",
        "P1D, PT24H",
        "PT0S, PT0S",
        "500ms, PT0.5S",
        "30s, PT30S",
        "'30 s', PT30S",
        "2m, PT2M",
        "1h, PT1H",
        "2H, PT2H",
        "45, PT45S",
        "0, PT0S",
        "' 10s ', PT10S"
    })
    void shouldReadIsoDurationsAndNumbersWithAUnitWhenGivenEitherForm(String text, String expected) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"30 seconds", "", "  ", "s", "1.5s", "10d", "PT", "P", "ten", "30s30", "99999999999999999999h"})
    void shouldRejectTextThatIsNoDurationNamingTheText(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected a duration like PT2M, 30s or 500ms: '" + text + "'");
    }

    @Test
    void shouldRejectNullNamingIt() {
        assertThatThrownBy(() -> Durations.parse(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected a duration like PT2M, 30s or 500ms: 'null'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-PT5S", "PT-5S", "-pt1m", "P-1D"})
    void shouldRejectNegativeDurationsNamingTheText(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("must not be negative: '" + text + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5s", "-30"})
    void shouldRejectANegativeNumberAsNoDuration(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'");
    }

    @Command(name = "load")
    static final class LoadCommand implements Runnable {
        @Option(names = "--duration", defaultValue = "PT60S")
        Duration duration;

        @Override
        public void run() {}
    }

    @Test
    void shouldAcceptBothFormsOnACommandLineWhenTheConverterIsRegistered() {
        LoadCommand command = new LoadCommand();
        CommandLine cl = DurationConverter.registerOn(new CommandLine(command));

        assertThat(cl.execute("--duration", "30s")).isZero();
        assertThat(command.duration).isEqualTo(Duration.ofSeconds(30));
        assertThat(cl.execute("--duration", "PT2M")).isZero();
        assertThat(command.duration).isEqualTo(Duration.ofMinutes(2));
        assertThat(cl.execute()).isZero();
        assertThat(command.duration).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void shouldFailWithTheOptionAndTheValueWhenTheConverterRefusesIt() {
        StringWriter err = new StringWriter();
        CommandLine cl = DurationConverter.registerOn(new CommandLine(new LoadCommand()));
        cl.setErr(new PrintWriter(err, true));

        assertThat(cl.execute("--duration", "30 seconds")).isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option '--duration': expected a duration like PT2M, 30s or 500ms:"
                        + " '30 seconds'");
        err.getBuffer().setLength(0);
        assertThat(cl.execute("--duration", "PT-1S")).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option '--duration': must not be negative: 'PT-1S'");
    }

    @Test
    void shouldRejectThirtySecondsWithoutTheConverterAsPicocliAloneReadsOnlyIso() {
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new LoadCommand());
        cl.setErr(new PrintWriter(err, true));

        assertThat(cl.execute("--duration", "30s")).isEqualTo(2);
    }
}
