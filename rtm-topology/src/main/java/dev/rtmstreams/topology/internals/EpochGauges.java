package dev.rtmstreams.topology.internals;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.utils.Time;

/**
 * The rtm metrics of an {@link EpochRuntime} (group {@value EpochRuntime#METRIC_GROUP}): per stream thread, the latency
 * and commit-duration percentiles of its latest closed epoch, the commit parts, counters and busy fraction, read from
 * the values its {@link EpochThreadState} publishes.
 */
final class EpochGauges implements AutoCloseable {

    private final Metrics metrics;

    /** @param time the clock of the metrics */
    EpochGauges(Time time) {
        this.metrics = new Metrics(new MetricConfig(), List.of(), time);
    }

    /** @return the metrics registered so far */
    Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    /** Registers the gauges of a stream thread's epoch state, tagged with its thread name. */
    void register(EpochThreadState s) {
        Map<String, String> tags = Map.of("thread-id", s.thread);
        String[] qs = {"p50", "p90", "p95", "p99", "max"};
        for (int j = 0; j < qs.length; j++) {
            int q = j;
            for (int i = 0; i < EpochRuntime.LATENCY_METRICS.size(); i++) {
                int metric = i;
                String m = EpochRuntime.LATENCY_METRICS.get(i);
                gauge(
                        m + "-" + qs[q],
                        m + " " + qs[q] + " of the latest checkpoint epoch",
                        tags,
                        (cfg, now) -> s.lastStat(metric, q));
            }
            gauge(
                    EpochRuntime.COMMIT_DURATION_METRIC + "-" + qs[q],
                    "commit duration " + qs[q] + " of the latest checkpoint epoch (microseconds)",
                    tags,
                    (cfg, now) -> s.lastCommitStat(q));
        }
        String[][] parts = {
            {"commit-pre-commit-us", "operator stores' before-commit writes"},
            {"commit-producer-flush-us", "producer flush"},
            {"commit-offsets-us", "input offsets (sendOffsetsToTransaction or commitSync)"},
            {"commit-end-txn-us", "commitTransaction (EndTxn)"}
        };
        for (int j = 0; j < parts.length; j++) {
            int part = j;
            gauge(
                    parts[j][0],
                    "mean per commit of the latest checkpoint epoch, microseconds: " + parts[j][1],
                    tags,
                    (cfg, now) -> s.lastCommitPart(part));
        }
        gauge("commit-total", "commits (transactions under exactly-once)", tags, (cfg, now) -> s.commitsTotal);
        gauge("commit-aborts-total", "aborted transactions", tags, (cfg, now) -> s.abortsTotal);
        gauge("epoch-total", "closed checkpoint epochs", tags, (cfg, now) -> s.epochs);
        gauge("input-rows-total", "records polled, all epochs", tags, (cfg, now) -> s.inputRowsTotal);
        metrics.addMetric(
                metrics.metricName(
                        "busy-fraction",
                        EpochRuntime.METRIC_GROUP,
                        "process+punctuate+commit ratio at the latest epoch",
                        tags),
                (Gauge<Double>) (cfg, now) -> s.busy);
    }

    private void gauge(String name, String description, Map<String, String> tags, Gauge<Long> value) {
        metrics.addMetric(metrics.metricName(name, EpochRuntime.METRIC_GROUP, description, tags), value);
    }

    @Override
    public void close() {
        metrics.close();
    }
}
