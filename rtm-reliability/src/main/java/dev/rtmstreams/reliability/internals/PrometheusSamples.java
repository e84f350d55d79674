package dev.rtmstreams.reliability.internals;

import java.util.ArrayList;
import java.util.List;

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
