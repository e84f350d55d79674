package dev.rtmstreams.topology.internals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/** Renders Kafka metrics in the Prometheus text exposition format 0.0.4. */
public final class PrometheusText {

    private static final Map<String, String> SUMMARIES = Map.of(
            "e2eLatencyMs", "rtm_e2e_latency_ms",
            "processingLatencyMs", "rtm_processing_latency_ms",
            "sourceQueuingLatencyMs", "rtm_source_queuing_latency_ms");
    private static final Map<String, String> QUANTILES =
            Map.of("p50", "0.5", "p90", "0.9", "p95", "0.95", "p99", "0.99", "max", "1.0");

    private PrometheusText() {}

    /** @return the text exposition of all numeric, finite metrics */
    public static String render(Map<MetricName, ? extends Metric> metrics) {
        Map<String, List<String>> families = new TreeMap<>();
        Map<String, String> types = new TreeMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            double v = MetricsReader.value(e.getValue());
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                continue;
            }
            MetricName n = e.getKey();
            Map<String, String> labels = new TreeMap<>();
            n.tags().forEach((k, val) -> labels.put(sanitize(k), val));
            String family;
            if (EpochRuntime.METRIC_GROUP.equals(n.group())) {
                int dash = n.name().lastIndexOf('-');
                String base = dash < 0 ? n.name() : n.name().substring(0, dash);
                String q = dash < 0 ? null : QUANTILES.get(n.name().substring(dash + 1));
                if (SUMMARIES.containsKey(base) && q != null) {
                    family = SUMMARIES.get(base);
                    labels.put("quantile", q);
                    types.put(family, "summary");
                } else {
                    family = "rtm_" + sanitize(n.name());
                    types.put(family, "gauge");
                }
            } else {
                family = "kafka_streams_" + sanitize(n.group()) + "_" + sanitize(n.name());
                types.put(family, "gauge");
            }
            families.computeIfAbsent(family, k -> new ArrayList<>()).add(family + labels(labels) + " " + format(v));
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, List<String>> f : families.entrySet()) {
            sb.append("# TYPE ")
                    .append(f.getKey())
                    .append(' ')
                    .append(types.get(f.getKey()))
                    .append('\n');
            f.getValue().stream().sorted().forEach(line -> sb.append(line).append('\n'));
        }
        return sb.toString();
    }

    static String sanitize(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            sb.append(Character.isLetterOrDigit(c) && c < 128 || c == '_' ? c : '_');
        }
        if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) {
            sb.insert(0, '_');
        }
        return sb.toString();
    }

    private static String labels(Map<String, String> labels) {
        if (labels.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("{");
        labels.forEach((k, v) -> {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(k)
                    .append("=\"")
                    .append(v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
                    .append('"');
        });
        return sb.append('}').toString();
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
