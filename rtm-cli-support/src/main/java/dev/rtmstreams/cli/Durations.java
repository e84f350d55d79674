package dev.rtmstreams.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of every command line (options, environment variables, properties files): an ISO-8601
 * duration ({@code PT2M}, {@code PT0.5S}, any case) or a whole number with a unit ({@code 500ms}, {@code 30s},
 * {@code 2m}, {@code 1h}; a bare number is seconds). Negative durations are refused.
 *
 * <pre>{@code
 * Duration d = Durations.parse("30s");   // PT30S
 * new CommandLine(command).registerConverter(Duration.class, new DurationConverter());
 * }</pre>
 */
public final class Durations {

    /** A whole number and an optional unit, e.g. {@code 500ms}, {@code 30 s}, {@code 2m}, {@code 45}. */
    private static final Pattern NUMBER_WITH_UNIT = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    /** The forms accepted, for messages and help texts. */
    public static final String FORMS = "PT2M, 30s or 500ms";

    private Durations() {}

    /**
     * Parses a duration.
     *
     * @param text an ISO-8601 duration or a whole number with a unit ({@code ms}, {@code s}, {@code m}, {@code h};
     *     none means seconds); surrounding blanks are ignored
     * @return the duration, zero or positive
     * @throws IllegalArgumentException naming the text when it is not a duration ("expected a duration like PT2M, 30s
     *     or 500ms: '...'") or is negative ("must not be negative: '...'")
     */
    public static Duration parse(String text) {
        Duration d = parseSigned(text);
        if (d.isNegative()) {
            throw new IllegalArgumentException("must not be negative: '" + text + "'");
        }
        return d;
    }

    private static Duration parseSigned(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        try {
            if (t.startsWith("P") || t.startsWith("-P") || t.startsWith("+P")) {
                return Duration.parse(t);
            }
            Matcher m = NUMBER_WITH_UNIT.matcher(t.toLowerCase(Locale.ROOT));
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                String unit = m.group(2) == null ? "s" : m.group(2);
                return switch (unit) {
                    case "ms" -> Duration.ofMillis(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofSeconds(n);
                };
            }
        } catch (RuntimeException e) {
            // not a duration, or out of range: the uniform message below
        }
        throw new IllegalArgumentException("expected a duration like " + FORMS + ": '" + text + "'");
    }
}
