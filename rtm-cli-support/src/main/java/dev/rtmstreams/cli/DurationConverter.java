package dev.rtmstreams.cli;

import java.time.Duration;
import picocli.CommandLine;

/**
 * Picocli's converter for {@link Duration} options with the syntax of {@link Durations#parse}, so
 * {@code --duration 30s} and {@code --duration PT30S} both work. Register it on a command line before it parses (it
 * then applies to the subcommands already added):
 *
 * <pre>{@code
 * CommandLine cl = DurationConverter.registerOn(new CommandLine(new Main()));
 * // the same as: cl.registerConverter(Duration.class, new DurationConverter())
 * }</pre>
 *
 * A value that does not parse fails with picocli's {@code Invalid value for option '--duration': ...} and the message
 * of {@link Durations#parse}, naming the value (exit code 2).
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /**
     * Registers the converter on a command line and its subcommands (those added so far).
     *
     * @param commandLine the command line
     * @return the same command line
     */
    public static CommandLine registerOn(CommandLine commandLine) {
        return commandLine.registerConverter(Duration.class, new DurationConverter());
    }
}
