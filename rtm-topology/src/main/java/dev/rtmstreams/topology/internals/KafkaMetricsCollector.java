package dev.rtmstreams.topology.internals;

import dev.rtmstreams.topology.internals.compat.Versions;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Bridges Kafka metrics (Kafka Streams' own and the rtm group {@value EpochRuntime#METRIC_GROUP}) into snapshots of
 * the official Prometheus client, read afresh on every scrape. The names are:
 *
 * <table>
 *   <caption>Kafka metric to Prometheus family</caption>
 *   <tr><th>Kafka metric</th><th>Prometheus family</th><th>type</th></tr>
 *   <tr><td>{@code rtm-epoch-metrics} {@code e2eLatencyMs-p50} ... {@code -max} (likewise
 *       {@code processingLatencyMs}, {@code sourceQueuingLatencyMs}, {@code e2eVisibleLatencyMs},
 *       {@code commitDurationUs})</td>
 *       <td>{@code rtm_e2e_latency_ms} ({@code rtm_processing_latency_ms}, {@code rtm_source_queuing_latency_ms},
 *       {@code rtm_e2e_visible_latency_ms}, {@code rtm_commit_duration_us}) with label {@code quantile} 0.5, 0.9,
 *       0.95, 0.99, 1.0</td><td>summary</td></tr>
 *   <tr><td>any other {@code rtm-epoch-metrics} {@code <name>}</td><td>{@code rtm_<name>}</td><td>gauge</td></tr>
 *   <tr><td>{@code <group>} {@code <name>}</td><td>{@code kafka_streams_<group>_<name>}</td><td>gauge</td></tr>
 * </table>
 *
 * <p>{@link #withInfo} adds {@code rtm_info{rtm_version="...",kafka_streams_version="..."} 1}, the versions this
 * process runs.
 *
 * <p>Every character outside {@code [A-Za-z0-9_]} of a group, name or tag becomes {@code _}; tags become labels.
 * Metrics whose value is not a finite number are left out. When two Kafka metrics map to the same family and labels,
 * the first one read is kept; a scrape never fails because of one odd metric.
 */
public final class KafkaMetricsCollector implements MultiCollector {

    private static final Map<String, String> SUMMARIES = Map.of(
            "e2eLatencyMs",
            "rtm_e2e_latency_ms",
            "processingLatencyMs",
            "rtm_processing_latency_ms",
            "sourceQueuingLatencyMs",
            "rtm_source_queuing_latency_ms",
            "e2eVisibleLatencyMs",
            "rtm_e2e_visible_latency_ms",
            EpochRuntime.COMMIT_DURATION_METRIC,
            "rtm_commit_duration_us");
    private static final Map<String, Double> QUANTILES =
            Map.of("p50", 0.5, "p90", 0.9, "p95", 0.95, "p99", 0.99, "max", 1.0);

    private final Supplier<? extends Map<MetricName, ? extends Metric>> metrics;

    /** @param metrics supplies the current metrics on every scrape (e.g. {@code RtmStreams::metrics}); not null */
    public KafkaMetricsCollector(Supplier<? extends Map<MetricName, ? extends Metric>> metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** One family under construction: a gauge's values or a summary's quantiles, by label set. */
    private static final class Family {
        final boolean summary;
        final String help;
        final Map<Map<String, String>, Double> values = new LinkedHashMap<>();
        final Map<Map<String, String>, Map<Double, Double>> quantiles = new LinkedHashMap<>();

        Family(boolean summary, String help) {
            this.summary = summary;
            this.help = help;
        }
    }

    @Override
    public MetricSnapshots collect() {
        Map<String, Family> families = new TreeMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.get().entrySet()) {
            double v = MetricsReader.value(e.getValue());
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                continue;
            }
            MetricName n = e.getKey();
            Map<String, String> labels = new TreeMap<>();
            n.tags().forEach((k, val) -> labels.put(sanitize(k), val));
            if (EpochRuntime.METRIC_GROUP.equals(n.group())) {
                int dash = n.name().lastIndexOf('-');
                String base = dash < 0 ? n.name() : n.name().substring(0, dash);
                Double q = dash < 0 ? null : QUANTILES.get(n.name().substring(dash + 1));
                if (SUMMARIES.containsKey(base) && q != null) {
                    Family f = families.computeIfAbsent(
                            SUMMARIES.get(base),
                            k -> new Family(
                                    true,
                                    base + " of the latest checkpoint epoch per stream thread ("
                                            + (base.endsWith("Us") ? "microseconds" : "ms") + ")."));
                    if (f.summary) {
                        f.quantiles
                                .computeIfAbsent(labels, k -> new TreeMap<>())
                                .putIfAbsent(q, v);
                    }
                    continue;
                }
                gauge(families, "rtm_" + sanitize(n.name()), n.description(), labels, v);
            } else {
                gauge(
                        families,
                        "kafka_streams_" + sanitize(n.group()) + "_" + sanitize(n.name()),
                        n.description(),
                        labels,
                        v);
            }
        }
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        families.forEach((name, f) -> {
            try {
                out.metricSnapshot(snapshot(name, f));
            } catch (IllegalArgumentException ex) {
                // a name or label the client rejects: leave this family out rather than fail the scrape
            }
        });
        return out.build();
    }

    /**
     * @param collector a collector
     * @return the collector's metrics plus {@code rtm_info{rtm_version="...",kafka_streams_version="..."} 1}
     */
    public static MultiCollector withInfo(MultiCollector collector) {
        Objects.requireNonNull(collector, "collector");
        return () -> {
            MetricSnapshots.Builder out = MetricSnapshots.builder();
            out.metricSnapshot(info());
            collector.collect().forEach(out::metricSnapshot);
            return out.build();
        };
    }

    /** @return {@code rtm_info{rtm_version="...",kafka_streams_version="..."} 1} */
    static InfoSnapshot info() {
        return InfoSnapshot.builder()
                .name("rtm")
                .help("The rtm-streams and Kafka Streams versions this process runs.")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                        .labels(Labels.of(
                                "rtm_version", Versions.rtm(), "kafka_streams_version", Versions.kafkaStreams()))
                        .build())
                .build();
    }

    private static void gauge(
            Map<String, Family> families, String name, String description, Map<String, String> labels, double v) {
        Family f = families.computeIfAbsent(
                name, k -> new Family(false, description == null || description.isBlank() ? null : description));
        if (!f.summary) {
            f.values.putIfAbsent(labels, v);
        }
    }

    private static MetricSnapshot snapshot(String name, Family f) {
        if (f.summary) {
            SummarySnapshot.Builder b = SummarySnapshot.builder().name(name).help(f.help);
            f.quantiles.forEach((labels, qs) -> {
                List<Quantile> list = new ArrayList<>();
                qs.forEach((q, v) -> list.add(new Quantile(q, v)));
                b.dataPoint(SummaryDataPointSnapshot.builder()
                        .labels(labels(labels))
                        .quantiles(Quantiles.of(list))
                        .build());
            });
            return b.build();
        }
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(f.help);
        f.values.forEach((labels, v) -> b.dataPoint(
                GaugeDataPointSnapshot.builder().labels(labels(labels)).value(v).build()));
        return b.build();
    }

    private static Labels labels(Map<String, String> labels) {
        return Labels.of(new ArrayList<>(labels.keySet()), new ArrayList<>(labels.values()));
    }

    /**
     * @param s a Kafka metric group, name or tag
     * @return {@code s} with every character outside {@code [A-Za-z0-9_]} replaced by {@code _}, prefixed with
     *     {@code _} when empty or starting with a digit
     */
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
}
