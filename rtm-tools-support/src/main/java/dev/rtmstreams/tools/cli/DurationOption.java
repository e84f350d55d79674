package dev.rtmstreams.tools.cli;

import java.time.Duration;
import java.util.Objects;
import picocli.CommandLine.Option;

/**
 * {@code --duration}: how long a load runs, as an ISO-8601 duration (e.g. {@code PT60S}), as a picocli mixin; each
 * command gives its own default.
 *
 * <pre>{@code
 * @Mixin DurationOption duration = new DurationOption(Duration.ofSeconds(60));
 * }</pre>
 */
public final class DurationOption {

    @Option(names = "--duration", description = "Length of the load (ISO-8601, e.g. PT60S). Default: ${DEFAULT-VALUE}.")
    private Duration duration;

    /** With the default of 60 seconds. */
    public DurationOption() {
        this(Duration.ofSeconds(60));
    }

    /** @param defaultDuration the duration when the option is not given; not null */
    public DurationOption(Duration defaultDuration) {
        this.duration = Objects.requireNonNull(defaultDuration, "defaultDuration");
    }

    /** @return the duration given, or the default */
    public Duration duration() {
        return duration;
    }
}
