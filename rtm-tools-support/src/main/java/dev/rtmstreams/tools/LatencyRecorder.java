package dev.rtmstreams.tools;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * End-to-end latencies of one run (used by the load generator's bench and the rtm-examples runner): one HdrHistogram over the whole run plus one per second of the
 * run (by the second in which the output was received), in microseconds with 3 significant
 * digits. Single writer; {@link #lastSecondP99Millis()} may be read from another thread.
 */
public final class LatencyRecorder {

    private static final long HIGHEST_MICROS = 3_600_000_000L;

    private final long startNanos;
    private final Histogram total = newHistogram();
    private final List<Histogram> perSecond = new ArrayList<>();
    private volatile double lastSecondP99Millis = Double.NaN;

    /**
     * Creates a recorder.
     *
     * @param startNanos the run's start on the {@code System.nanoTime()} clock
     */
    public LatencyRecorder(long startNanos) {
        this.startNanos = startNanos;
    }

    /**
     * Records one latency.
     *
     * @param receivedNanos when the output was received
     * @param latencyNanos its end-to-end latency; negative values are recorded as 0
     */
    public void record(long receivedNanos, long latencyNanos) {
        long micros = recordNanos(total, latencyNanos);
        int second = (int) Math.max(0, (receivedNanos - startNanos) / 1_000_000_000L);
        while (perSecond.size() <= second) {
            if (!perSecond.isEmpty()) {
                Histogram previous = perSecond.get(perSecond.size() - 1);
                if (previous.getTotalCount() > 0) {
                    lastSecondP99Millis = previous.getValueAtPercentile(99) / 1000.0;
                }
            }
            perSecond.add(new Histogram(HIGHEST_MICROS, 2));
        }
        perSecond.get(second).recordValue(micros);
    }

    /**
     * Returns an empty histogram like the whole-run one: microseconds up to an hour, 3 significant digits.
     *
     * @return a new histogram
     */
    public static Histogram newHistogram() {
        return new Histogram(HIGHEST_MICROS, 3);
    }

    /**
     * Records one latency into a histogram of microseconds (one from {@link #newHistogram()}).
     *
     * @param microseconds the histogram; not null
     * @param latencyNanos the latency; negative values are recorded as 0, values above an hour as an hour
     * @return the recorded value in microseconds
     */
    public static long recordNanos(Histogram microseconds, long latencyNanos) {
        long micros = Math.min(HIGHEST_MICROS, Math.max(0, latencyNanos / 1000));
        microseconds.recordValue(micros);
        return micros;
    }

    /** @return the p99 in ms of the last completed second with outputs, NaN before */
    public double lastSecondP99Millis() {
        return lastSecondP99Millis;
    }

    /** @return the whole-run histogram (microseconds); do not modify */
    public Histogram total() {
        return total;
    }

    /**
     * Returns the whole run's summary in milliseconds.
     *
     * @return the summary; {@link LatencySummary#EMPTY} before the first latency
     */
    public LatencySummary summary() {
        return LatencySummary.of(total);
    }

    private static double ms(Histogram h, double percentile) {
        return LatencySummary.ms(h, percentile);
    }

    /**
     * Rounds to three decimals (the precision of the reports).
     *
     * @param v a value
     * @return {@code v} rounded to 0.001
     */
    public static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    /**
     * The latency of the outputs received in one second of the run, in milliseconds.
     *
     * @param t the second, from the start of the run
     * @param outputs outputs received in that second
     * @param p50 their median latency; 0 without outputs
     * @param p99 their 99th percentile; 0 without outputs
     * @param max their highest latency; 0 without outputs
     */
    public record Second(int t, long outputs, double p50, double p99, double max) {}

    /**
     * Returns the per-second series.
     *
     * @return one entry per second of the run, from second 0
     */
    public List<Second> perSecondMillis() {
        List<Second> out = new ArrayList<>();
        for (int s = 0; s < perSecond.size(); s++) {
            Histogram h = perSecond.get(s);
            out.add(new Second(s, h.getTotalCount(), ms(h, 50), ms(h, 99), round(h.getMaxValue() / 1000.0)));
        }
        return out;
    }

    /**
     * Returns the latency at each of the given percentiles, in ms (for the distribution chart).
     *
     * @param percentiles percentiles in [0, 100]
     * @return the latencies
     */
    public double[] percentilesMillis(double[] percentiles) {
        double[] out = new double[percentiles.length];
        for (int i = 0; i < percentiles.length; i++) {
            out[i] = ms(total, percentiles[i]);
        }
        return out;
    }
}
