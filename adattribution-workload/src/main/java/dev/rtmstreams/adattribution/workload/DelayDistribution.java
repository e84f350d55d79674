package dev.rtmstreams.adattribution.workload;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The distribution of the delay between an impression and a click on it (event time), before the
 * generator truncates it to the attribution window. Immutable.
 *
 * <p>Textual forms (for the command line): {@code exp:PT10S} (exponential with that mean),
 * {@code uniform:PT0S:PT2M} (uniform between two bounds), {@code fixed:PT5S}.
 */
public final class DelayDistribution {

    private enum Shape {
        EXPONENTIAL,
        UNIFORM,
        FIXED
    }

    private final Shape shape;
    private final Duration a;
    private final Duration b;

    private DelayDistribution(Shape shape, Duration a, Duration b) {
        this.shape = shape;
        this.a = a;
        this.b = b;
    }

    /**
     * Returns an exponential distribution.
     *
     * @param mean the mean delay; positive
     * @return the distribution
     * @throws IllegalArgumentException if mean is not positive
     */
    public static DelayDistribution exponential(Duration mean) {
        requirePositive("mean", mean);
        return new DelayDistribution(Shape.EXPONENTIAL, mean, mean);
    }

    /**
     * Returns a uniform distribution on {@code [min, max]}.
     *
     * @param min lower bound; not negative
     * @param max upper bound; at least min
     * @return the distribution
     * @throws IllegalArgumentException if the bounds are negative or reversed
     */
    public static DelayDistribution uniform(Duration min, Duration max) {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        if (min.isNegative() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("uniform bounds must satisfy 0 <= min <= max: " + min + ", " + max);
        }
        return new DelayDistribution(Shape.UNIFORM, min, max);
    }

    /**
     * Returns a constant delay.
     *
     * @param delay the delay; not negative
     * @return the distribution
     * @throws IllegalArgumentException if delay is negative
     */
    public static DelayDistribution fixed(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("fixed delay must not be negative: " + delay);
        }
        return new DelayDistribution(Shape.FIXED, delay, delay);
    }

    /**
     * Parses {@code exp:MEAN}, {@code uniform:MIN:MAX} or {@code fixed:D} (ISO-8601 durations).
     *
     * @param text the text; not null
     * @return the distribution
     * @throws IllegalArgumentException naming the text if it does not parse
     */
    public static DelayDistribution parse(String text) {
        Objects.requireNonNull(text, "text");
        String[] parts = text.trim().split(":");
        try {
            switch (parts[0].toLowerCase(java.util.Locale.ROOT)) {
                case "exp":
                case "exponential":
                    if (parts.length == 2) {
                        return exponential(Duration.parse(parts[1]));
                    }
                    break;
                case "uniform":
                    if (parts.length == 3) {
                        return uniform(Duration.parse(parts[1]), Duration.parse(parts[2]));
                    }
                    break;
                case "fixed":
                    if (parts.length == 2) {
                        return fixed(Duration.parse(parts[1]));
                    }
                    break;
                default:
                    break;
            }
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("invalid delay distribution '" + text + "': " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("invalid delay distribution '" + text
                + "': expected exp:MEAN, uniform:MIN:MAX or fixed:D with ISO-8601 durations, e.g. exp:PT10S");
    }

    /**
     * Draws one delay in milliseconds.
     *
     * @param random the random source; not null
     * @return a delay, not negative
     */
    public long sampleMillis(SplittableRandom random) {
        switch (shape) {
            case EXPONENTIAL:
                return (long) (-Math.log(1.0 - random.nextDouble()) * a.toMillis());
            case UNIFORM:
                return a.toMillis()
                        + (b.toMillis() == a.toMillis() ? 0 : random.nextLong(b.toMillis() - a.toMillis() + 1));
            default:
                return a.toMillis();
        }
    }

    private static void requirePositive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }

    @Override
    public String toString() {
        switch (shape) {
            case EXPONENTIAL:
                return "exp:" + a;
            case UNIFORM:
                return "uniform:" + a + ":" + b;
            default:
                return "fixed:" + a;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DelayDistribution && o.toString().equals(toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
