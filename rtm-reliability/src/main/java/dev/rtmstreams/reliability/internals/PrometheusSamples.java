package dev.rtmstreams.reliability.internals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reads samples out of the Prometheus text exposition format of the service's {@code /metrics}. The official client
 * ({@code io.prometheus:prometheus-metrics-*} 1.10.0) writes the format but has no parser, so this is the one small
 * reader of it in the project: a sample line is {@code name[{labels}] value}; comment lines are skipped.
 */
final class PrometheusSamples {

    private PrometheusSamples() {}

    /**
     * Sums every sample of the metric family with this exact name.
     *
     * @param text the exposition text
     * @param metric the metric name
     * @return the sum of the finite values, or -1 when no such sample
     */
    static double sum(String text, String metric) {
        return aggregate(text, metric, false);
    }

    /**
     * Returns the largest sample of the metric family with this exact name.
     *
     * @param text the exposition text
     * @param metric the metric name
     * @return the maximum of the finite values, or -1 when no such sample
     */
    static double max(String text, String metric) {
        return aggregate(text, metric, true);
    }

    /**
     * @param text the exposition text, or null
     * @param prefix the start of the metric names wanted
     * @return the sample lines whose metric name starts with {@code prefix}, in order; empty for null text
     */
    static List<String> lines(String text, String prefix) {
        List<String> out = new ArrayList<>();
        if (text != null) {
            for (String line : text.split("\n")) {
                if (line.startsWith(prefix) && !line.startsWith("#")) {
                    out.add(line);
                }
            }
        }
        return out;
    }

    /**
     * Sums the samples of the metric family with this exact name per value of one of their labels.
     *
     * @param text the exposition text, or null
     * @param metric the metric name
     * @param label the label, e.g. {@code task_id}
     * @return per label value the sum of its finite samples, in order of first appearance; samples without the label
     *     are left out; empty for null text
     */
    static Map<String, Double> byLabel(String text, String metric, String label) {
        return byLabels(text, metric, List.of(label), line -> true);
    }

    /**
     * Sums the samples of the metric family with this exact name per combination of some of their labels.
     *
     * @param text the exposition text, or null
     * @param metric the metric name
     * @param labels the labels, e.g. {@code topic} and {@code partition}
     * @param keep which sample lines count (e.g. those of one client)
     * @return per combination ({@code value1:value2}) the sum of its finite samples, in order of first appearance;
     *     samples lacking one of the labels are left out; empty for null text
     */
    static Map<String, Double> byLabels(String text, String metric, List<String> labels, Predicate<String> keep) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String line : lines(text, metric + "{")) {
            int close = line.indexOf('}');
            int space = line.lastIndexOf(' ');
            if (close < 0 || space < close || !keep.test(line)) {
                continue;
            }
            StringBuilder key = new StringBuilder();
            for (String label : labels) {
                String value = labelValue(line.substring(0, close), label);
                if (value == null) {
                    key = null;
                    break;
                }
                key.append(key.length() == 0 ? "" : ":").append(value);
            }
            try {
                double v = Double.parseDouble(line.substring(space + 1).trim());
                if (key != null && Double.isFinite(v)) {
                    out.merge(key.toString(), v, Double::sum);
                }
            } catch (NumberFormatException e) {
                // a timestamp or odd value: skip
            }
        }
        return out;
    }

    private static String labelValue(String labels, String label) {
        String key = label + "=\"";
        int at = labels.indexOf(key);
        while (at > 0 && labels.charAt(at - 1) != '{' && labels.charAt(at - 1) != ',') {
            at = labels.indexOf(key, at + 1);
        }
        if (at < 0) {
            return null;
        }
        int from = at + key.length();
        int to = labels.indexOf('"', from);
        return to < 0 ? null : labels.substring(from, to);
    }

    private static double aggregate(String text, String metric, boolean max) {
        double total = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name = line.substring(0, brace >= 0 ? brace : Math.max(0, line.indexOf(' ')));
            if (!name.equals(metric) || space < 0) {
                continue;
            }
            try {
                double v = Double.parseDouble(line.substring(space + 1).trim());
                if (!Double.isNaN(v) && !Double.isInfinite(v)) {
                    total = max ? (found ? Math.max(total, v) : v) : total + v;
                    found = true;
                }
            } catch (NumberFormatException e) {
                // a timestamp or odd value: skip
            }
        }
        return found ? total : -1;
    }
}
