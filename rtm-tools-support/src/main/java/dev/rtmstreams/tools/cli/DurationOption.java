package dev.rtmstreams.tools.cli;

import java.time.Duration;
import java.util.Objects;
import picocli.CommandLine.Option;

/**
 * {@code --duration}: how long a load runs ({@code PT60S} or {@code 60s}, with the command line's
 * {@link dev.rtmstreams.cli.DurationConverter} registered), as a picocli mixin; each command gives its own default.
 *
 * <pre>{@code
 * @Mixin DurationOption duration = new DurationOption(Duration.ofSeconds(60));
 * }</pre>
 */
public final class DurationOption {

    @Option(names = "--duration", description = "Length of the load (PT60S or 60s). Default: ${DEFAULT-VALUE}.")
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
