package dev.rtmstreams.adattribution.workload;

import java.time.Duration;

/**
 * The checks of {@link WorkloadConfig.Builder#build()}: each rate, duration and fraction in its range, and the
 * margins that keep the special events unambiguous (see {@link WorkloadConfig}).
 */
final class WorkloadConfigCheck {

    private WorkloadConfigCheck() {}

    /**
     * Checks a configuration just built.
     *
     * @param c the configuration
     * @throws IllegalArgumentException naming the first bad option and value
     */
    static void check(WorkloadConfig c) {
        if (!(c.rate() > 0) || Double.isInfinite(c.rate())) {
            throw new IllegalArgumentException("rate must be positive: " + c.rate());
        }
        positive("duration", c.duration());
        positive("attributionWindow", c.attributionWindow());
        positive("watermarkDelay", c.watermarkDelay());
        positive("safetyMargin", c.safetyMargin());
        positive("partnerSendLag", c.partnerSendLag());
        fraction("clicksPerImpression", c.clicksPerImpression());
        fraction("requestShare", c.requestShare());
        fraction("outsideWindowFraction", c.outsideWindowFraction());
        fraction("edgeFraction", c.edgeFraction());
        fraction("orphanFraction", c.orphanFraction());
        fraction("duplicateFraction", c.duplicateFraction());
        fraction("outOfOrderFraction", c.outOfOrderFraction());
        fraction("lateFraction", c.lateFraction());
        fraction("ackFirstFraction", c.ackFirstFraction());
        if (c.outsideWindowFraction() + c.edgeFraction() > 1) {
            throw new IllegalArgumentException("outsideWindowFraction + edgeFraction must be at most 1: "
                    + c.outsideWindowFraction() + " + " + c.edgeFraction());
        }
        if (c.lateWarmupClicks() < 0) {
            throw new IllegalArgumentException("lateWarmupClicks must not be negative: " + c.lateWarmupClicks());
        }
        if (c.lateWarmup().isNegative()) {
            throw new IllegalArgumentException("lateWarmup must not be negative: " + c.lateWarmup());
        }
        if (c.maxAcksPerRequest() < 1) {
            throw new IllegalArgumentException("maxAcksPerRequest must be at least 1: " + c.maxAcksPerRequest());
        }
        if (c.outOfOrderFraction() > 0
                && c.watermarkDelay().compareTo(c.safetyMargin().plusSeconds(1)) <= 0) {
            throw new IllegalArgumentException("out-of-order events need watermarkDelay > safetyMargin + 1s: "
                    + c.watermarkDelay() + " vs " + c.safetyMargin());
        }
        if (c.partnerSendLag().compareTo(c.safetyMargin()) >= 0) {
            throw new IllegalArgumentException("partnerSendLag must be below safetyMargin: " + c.partnerSendLag());
        }
    }

    private static void positive(String name, Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }

    private static void fraction(String name, double v) {
        if (!(v >= 0 && v <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1]: " + v);
        }
    }
}
