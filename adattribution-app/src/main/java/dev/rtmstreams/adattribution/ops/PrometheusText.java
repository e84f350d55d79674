package dev.rtmstreams.adattribution.ops;

import java.util.Locale;
import java.util.Map;

/** A small writer of the Prometheus text exposition format (0.0.4). */
public final class PrometheusText {
    private final StringBuilder sb = new StringBuilder(4096);

    /**
     * Starts a metric family.
     *
     * @param name metric name ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}; other characters become {@code _})
     * @param type counter, gauge, summary or untyped
     * @param help help text
     * @return this
     */
    public PrometheusText family(String name, String type, String help) {
        sb.append("# HELP ")
                .append(sanitize(name))
                .append(' ')
                .append(help.replace('\n', ' '))
                .append('\n');
        sb.append("# TYPE ").append(sanitize(name)).append(' ').append(type).append('\n');
        return this;
    }

    /**
     * Adds a sample.
     *
     * @param name metric name
     * @param labels label names to values (may be empty)
     * @param value the value
     * @return this
     */
    public PrometheusText sample(String name, Map<String, String> labels, double value) {
        sb.append(sanitize(name));
        if (!labels.isEmpty()) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, String> e : labels.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                sb.append(sanitize(e.getKey()))
                        .append("=\"")
                        .append(escape(e.getValue()))
                        .append('"');
            }
            sb.append('}');
        }
        sb.append(' ').append(format(value)).append('\n');
        return this;
    }

    /**
     * Appends already formatted exposition text (e.g. from rtm-topology).
     *
     * @param text the text; a trailing newline is added when missing
     * @return this
     */
    public PrometheusText raw(String text) {
        if (text != null && !text.isEmpty()) {
            sb.append(text);
            if (!text.endsWith("\n")) {
                sb.append('\n');
            }
        }
        return this;
    }

    /**
     * @param name any string
     * @return a valid Prometheus metric or label name
     */
    public static String sanitize(String name) {
        String s = name.replaceAll("[^a-zA-Z0-9_:]", "_");
        return Character.isDigit(s.charAt(0)) ? "_" + s : s;
    }

    private static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String format(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%s", v);
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
