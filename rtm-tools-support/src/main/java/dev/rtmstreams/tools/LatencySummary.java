package dev.rtmstreams.tools;

import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * The latency summary of a run, in milliseconds rounded to a microsecond: what every tool reports and prints. Serialised
 * to JSON by its component names ({@code p50}, {@code p90}, {@code p95}, {@code p99}, {@code p999}, {@code max},
 * {@code mean}, {@code count}).
 *
 * <pre>{@code
 * LatencySummary s = recorder.summary();
 * double p99 = s.p99();
 * }</pre>
 *
 * @param p50 the median; 0 when {@code count} is 0
 * @param p90 the 90th percentile; 0 when empty
 * @param p95 the 95th percentile; 0 when empty
 * @param p99 the 99th percentile; 0 when empty
 * @param p999 the 99.9th percentile; 0 when empty
 * @param max the highest latency; 0 when empty
 * @param mean the mean; 0 when empty
 * @param count the number of latencies
 */
public record LatencySummary(
        double p50, double p90, double p95, double p99, double p999, double max, double mean, long count) {

    /** The summary of no latencies: all zero. */
    public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Summarises a histogram of microseconds (one from {@link LatencyRecorder#newHistogram()}).
     *
     * @param microseconds the histogram; not null
     * @return its summary in milliseconds
     */
    public static LatencySummary of(Histogram microseconds) {
        Histogram h = Objects.requireNonNull(microseconds, "microseconds");
        if (h.getTotalCount() == 0) {
            return EMPTY;
        }
        return new LatencySummary(
                ms(h, 50),
                ms(h, 90),
                ms(h, 95),
                ms(h, 99),
                ms(h, 99.9),
                LatencyRecorder.round(h.getMaxValue() / 1000.0),
                LatencyRecorder.round(h.getMean() / 1000.0),
                h.getTotalCount());
    }

    static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : LatencyRecorder.round(h.getValueAtPercentile(percentile) / 1000.0);
    }
}
