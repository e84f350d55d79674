package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.tools.PrometheusText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Predicate;

/**
 * Reads what the chaos runner needs out of the Prometheus text exposition format of the service's {@code /metrics}:
 * sums, maxima and sums per label, over the samples {@link PrometheusText} parses, and raw sample lines for reports.
 */
final class PrometheusSamples {

    private PrometheusSamples() {}

    /**
     * Sums every sample of the metric family with this exact name.
     *
     * @param text the exposition text, or null
     * @param metric the metric name
     * @return the sum of the finite values, or -1 when no such sample
     */
    static double sum(String text, String metric) {
        return PrometheusText.sum(text, metric);
    }

    /**
     * Returns the largest sample of the metric family with this exact name.
     *
     * @param text the exposition text, or null
     * @param metric the metric name
     * @return the maximum of the finite values, or -1 when no such sample
     */
    static double max(String text, String metric) {
        return PrometheusText.samples(text, metric).stream()
                .mapToDouble(PrometheusText.Sample::value)
                .filter(Double::isFinite)
                .max()
                .orElse(-1);
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
     * Sums the samples of the metric family with this exact name per combination of some of their labels.
     *
     * @param text the exposition text, or null
     * @param metric the metric name
     * @param labels the labels, e.g. {@code topic} and {@code partition}
     * @param keep which samples count, by their labels (e.g. those of one client)
     * @return per combination ({@code value1:value2}) the sum of its finite samples, in order of first appearance;
     *     samples lacking one of the labels are left out; empty for null text
     */
    static Map<String, Double> byLabels(
            String text, String metric, List<String> labels, Predicate<Map<String, String>> keep) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (PrometheusText.Sample sample : PrometheusText.samples(text, metric)) {
            if (!Double.isFinite(sample.value()) || !keep.test(sample.labels())) {
                continue;
            }
            StringJoiner key = new StringJoiner(":");
            for (String label : labels) {
                String value = sample.labels().get(label);
                if (value == null) {
                    key = null;
                    break;
                }
                key.add(value);
            }
            if (key != null) {
                out.merge(key.toString(), sample.value(), Double::sum);
            }
        }
        return out;
    }
}
