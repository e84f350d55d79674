package dev.rtmstreams.tools;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads samples out of the Prometheus text exposition format (0.0.4) of a service's {@code /metrics}. The official
 * client ({@code io.prometheus:prometheus-metrics-*}) writes the format but has no parser. A sample line is
 * {@code name[{label="value",...}] value [timestamp]}; comment and blank lines are skipped, and so are lines whose value
 * is not a number.
 *
 * <pre>{@code
 * for (PrometheusText.Sample s : PrometheusText.samples(text, "kafka_streams_stream_task_metrics_process_total")) {
 *     String task = s.labels().get("task_id");
 * }
 * }</pre>
 */
public final class PrometheusText {

    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private PrometheusText() {}

    /**
     * One sample.
     *
     * @param name the metric name
     * @param labels label name to value (escapes {@code \\}, {@code \"} and {@code \n} resolved), in the order
     *     written; unmodifiable
     * @param value the value (may be NaN or infinite)
     */
    public record Sample(String name, Map<String, String> labels, double value) {
        /** Copies the labels. */
        public Sample {
            Objects.requireNonNull(name, "name");
            labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        }
    }

    /**
     * Every sample of the metric with exactly this name, in the order written.
     *
     * @param text the exposition text; null reads as empty
     * @param metric the metric name
     * @return the samples; empty when there is none
     */
    public static List<Sample> samples(String text, String metric) {
        List<Sample> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || !l.startsWith(metric)) {
                continue;
            }
            Sample s = parse(l);
            if (s != null && s.name().equals(metric)) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * The sum of the finite values of a metric's samples.
     *
     * @param text the exposition text; null reads as empty
     * @param metric the metric name
     * @return the sum, or -1 when the metric has no sample with a finite value
     */
    public static double sum(String text, String metric) {
        double total = 0;
        boolean found = false;
        for (Sample s : samples(text, metric)) {
            if (Double.isFinite(s.value())) {
                total += s.value();
                found = true;
            }
        }
        return found ? total : -1;
    }

    /** Kafka Streams' task metric present for every active task of an instance (label {@code task_id}). */
    public static final String TASK_METRIC = "kafka_streams_stream_task_metrics_process_total";

    /**
     * The Kafka Streams tasks active on an instance: the {@code task_id} labels of {@link #TASK_METRIC} (registered for
     * active tasks only; standbys register {@code update-total}).
     *
     * @param text the instance's exposition text; null reads as empty
     * @return the task ids, sorted; empty when there is none
     */
    public static SortedSet<String> activeTasks(String text) {
        SortedSet<String> tasks = new TreeSet<>();
        for (Sample s : samples(text, TASK_METRIC)) {
            String task = s.labels().get("task_id");
            if (task != null) {
                tasks.add(task);
            }
        }
        return tasks;
    }

    /** Parses one sample line, or returns null when it is not one. */
    private static Sample parse(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        String name;
        Map<String, String> labels = new LinkedHashMap<>();
        String rest;
        if (brace >= 0 && (space < 0 || brace < space)) {
            int close = line.lastIndexOf('}');
            if (close < brace) {
                return null;
            }
            name = line.substring(0, brace);
            Matcher m = LABEL.matcher(line.substring(brace + 1, close));
            while (m.find()) {
                labels.put(m.group(1), unescape(m.group(2)));
            }
            rest = line.substring(close + 1).strip();
        } else if (space > 0) {
            name = line.substring(0, space);
            rest = line.substring(space + 1).strip();
        } else {
            return null;
        }
        String value = rest.split("\\s+")[0];
        try {
            return new Sample(name, labels, parseValue(value));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static double parseValue(String v) {
        return switch (v) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(v);
        };
    }

    private static String unescape(String v) {
        if (v.indexOf('\\') < 0) {
            return v;
        }
        StringBuilder sb = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\\' && i + 1 < v.length()) {
                char n = v.charAt(++i);
                sb.append(n == 'n' ? '\n' : n);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
