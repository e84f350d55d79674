package dev.rtmstreams.topology.internals;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/** Reads per-thread values out of {@code KafkaStreams#metrics()}. */
final class MetricsReader {

    private MetricsReader() {}

    /** @return process-ratio + punctuate-ratio + commit-ratio of the thread, or -1 when not reported yet */
    public static double busyFraction(Map<MetricName, ? extends Metric> metrics, String thread) {
        double sum = 0;
        boolean found = false;
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            MetricName n = e.getKey();
            if (!"stream-thread-metrics".equals(n.group())
                    || !thread.equals(n.tags().get("thread-id"))) {
                continue;
            }
            if (n.name().equals("process-ratio")
                    || n.name().equals("punctuate-ratio")
                    || n.name().equals("commit-ratio")) {
                double v = value(e.getValue());
                if (!Double.isNaN(v)) {
                    sum += v;
                    found = true;
                }
            }
        }
        return found ? Math.min(1.0, sum) : -1;
    }

    /** @return the sum of a {@code stream-state-metrics} metric over the thread's stores, or -1 when none reports it */
    public static long sumStateMetric(Map<MetricName, ? extends Metric> metrics, String thread, String name) {
        long sum = 0;
        boolean found = false;
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            MetricName n = e.getKey();
            if (n.name().equals(name)
                    && "stream-state-metrics".equals(n.group())
                    && thread.equals(n.tags().get("thread-id"))) {
                double v = value(e.getValue());
                if (!Double.isNaN(v)) {
                    sum += (long) v;
                    found = true;
                }
            }
        }
        return found ? sum : -1;
    }

    /**
     * @return the lowest value of any metric of the thread whose name contains "watermark" (as reported by
     *     rtm-streams operators), or null when there is none
     */
    public static Long watermark(Map<MetricName, ? extends Metric> metrics, String thread) {
        Long min = null;
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            MetricName n = e.getKey();
            if (n.name().contains("watermark")
                    && !n.name().contains("late")
                    && thread.equals(n.tags().get("thread-id"))) {
                double v = value(e.getValue());
                if (!Double.isNaN(v) && !Double.isInfinite(v)) {
                    long l = (long) v;
                    min = min == null ? l : Math.min(min, l);
                }
            }
        }
        return min;
    }

    static double value(Metric m) {
        try {
            Object v = m.metricValue();
            return v instanceof Number num ? num.doubleValue() : Double.NaN;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }
}
