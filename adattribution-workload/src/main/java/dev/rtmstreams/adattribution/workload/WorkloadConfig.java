package dev.rtmstreams.adattribution.workload;

import java.time.Duration;
import java.util.Objects;

/**
 * What the load generator produces: the mix of impressions, clicks, requests and acks, the
 * fractions of special events, the rate and the length of the run, and the service semantics
 * (attribution window, watermark delay) the generator keeps its special events clear of.
 * Immutable; built by {@link #builder()} and validated in {@link Builder#build()} (the checks are
 * {@code WorkloadConfigCheck}'s).
 *
 * <p>Unambiguity margins: out-of-order impressions lie at most
 * {@code watermarkDelay - safetyMargin} behind the stream; late events lie at least
 * {@code watermarkDelay + attributionWindow + safetyMargin} behind it; partners (click after its
 * impression, acks and their request, duplicates) are sent within {@code partnerSendLag} of each
 * other. So neither the exact watermark position nor processing-time effects can change the
 * expected output.
 *
 * <pre>{@code
 * WorkloadConfig config = WorkloadConfig.builder().seed(7).rate(30_000).duration(Duration.ofSeconds(60)).build();
 * }</pre>
 */
public final class WorkloadConfig {

    private final long seed;
    private final double rate;
    private final Duration duration;
    private final String idPrefix;
    private final double clicksPerImpression;
    private final double requestShare;
    private final DelayDistribution clickDelay;
    private final double outsideWindowFraction;
    private final double edgeFraction;
    private final double orphanFraction;
    private final double duplicateFraction;
    private final double outOfOrderFraction;
    private final double lateFraction;
    private final int lateWarmupClicks;
    private final Duration lateWarmup;
    private final double ackFirstFraction;
    private final int maxAcksPerRequest;
    private final Duration attributionWindow;
    private final Duration watermarkDelay;
    private final Duration safetyMargin;
    private final Duration partnerSendLag;

    private WorkloadConfig(Builder b) {
        this.seed = b.seed;
        this.rate = b.rate;
        this.duration = b.duration;
        this.idPrefix = b.idPrefix != null ? b.idPrefix : "s" + b.seed + "-";
        this.clicksPerImpression = b.clicksPerImpression;
        this.requestShare = b.requestShare;
        this.clickDelay = b.clickDelay;
        this.outsideWindowFraction = b.outsideWindowFraction;
        this.edgeFraction = b.edgeFraction;
        this.orphanFraction = b.orphanFraction;
        this.duplicateFraction = b.duplicateFraction;
        this.outOfOrderFraction = b.outOfOrderFraction;
        this.lateFraction = b.lateFraction;
        this.lateWarmupClicks = b.lateWarmupClicks;
        this.lateWarmup = b.lateWarmup;
        this.ackFirstFraction = b.ackFirstFraction;
        this.maxAcksPerRequest = b.maxAcksPerRequest;
        this.attributionWindow = b.attributionWindow;
        this.watermarkDelay = b.watermarkDelay;
        this.safetyMargin = b.safetyMargin;
        this.partnerSendLag = b.partnerSendLag;
    }

    /**
     * Returns a builder with the defaults: seed 42, 1000 events/s for 60 s, 0.1 clicks per
     * impression, 10% request/ack traffic, click delay exp:PT10S, 5% clicks outside the window, 2% at
     * an exact window edge, 2% orphans, 1% duplicates, 5% out-of-order impressions, 0.5% late pairs
     * (none in the first 100 clicks or the first PT5S of sends), 30% of transactions ack-first, up to
     * 2 acks per request, window PT2M, watermark delay PT5M, safety margin PT2M, partner send lag
     * PT0.5S.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the random seed; the same seed with the same options yields the same events */
    public long seed() {
        return seed;
    }

    /** @return the target rate in events per second (all four kinds together) */
    public double rate() {
        return rate;
    }

    /** @return the length of the run; the event count is {@code round(rate * duration)} */
    public Duration duration() {
        return duration;
    }

    /** @return the total number of events of a run */
    public long eventCount() {
        return Math.round(rate * duration.toNanos() / 1e9);
    }

    /** @return the prefix of every generated id (default {@code s<seed>-}) */
    public String idPrefix() {
        return idPrefix;
    }

    /** @return expected clicks per impression */
    public double clicksPerImpression() {
        return clicksPerImpression;
    }

    /** @return share of base events that start a request/ack transaction instead of an impression */
    public double requestShare() {
        return requestShare;
    }

    /** @return the delay distribution of attributable clicks (truncated to the window) */
    public DelayDistribution clickDelay() {
        return clickDelay;
    }

    /** @return fraction of clicks placed outside the window (before the impression or after it) */
    public double outsideWindowFraction() {
        return outsideWindowFraction;
    }

    /** @return fraction of clicks placed exactly at a window edge (delay 0 or exactly the window) */
    public double edgeFraction() {
        return edgeFraction;
    }

    /** @return fraction of clicks and transactions without a partner */
    public double orphanFraction() {
        return orphanFraction;
    }

    /** @return fraction of impressions and clicks sent twice */
    public double duplicateFraction() {
        return duplicateFraction;
    }

    /** @return fraction of impressions whose event time lies behind the stream (not late) */
    public double outOfOrderFraction() {
        return outOfOrderFraction;
    }

    /** @return probability per impression slot of a late impression+click pair (after the warm-up) */
    public double lateFraction() {
        return lateFraction;
    }

    /** @return clicks that must have been sent before the first late event */
    public int lateWarmupClicks() {
        return lateWarmupClicks;
    }

    /**
     * Send time before the first late event. A micro-batch engine runs its first batch without a watermark (Spark's
     * rule: the watermark is computed at the end of a batch and applies from the next one), so a late event sent
     * before the first batch boundary is joined there and would break the promise that the watermark's position cannot
     * change the expected output. The default (5 s) lies beyond the first batch of any interval up to a few seconds.
     *
     * @return send time, from the first event, before which no late event is sent
     */
    public Duration lateWarmup() {
        return lateWarmup;
    }

    /** @return fraction of transactions whose first ack is sent before the request */
    public double ackFirstFraction() {
        return ackFirstFraction;
    }

    /** @return maximum acks per request (at least 1) */
    public int maxAcksPerRequest() {
        return maxAcksPerRequest;
    }

    /** @return the attribution window: a click matches when imp_time <= click_time <= imp_time + window */
    public Duration attributionWindow() {
        return attributionWindow;
    }

    /** @return the watermark delay of both join sides */
    public Duration watermarkDelay() {
        return watermarkDelay;
    }

    /** @return the distance special events keep from the watermark */
    public Duration safetyMargin() {
        return safetyMargin;
    }

    /** @return the maximum send distance between partners */
    public Duration partnerSendLag() {
        return partnerSendLag;
    }

    /**
     * Returns the warm-up before a measured run of this workload (the bench's and the demo's): the same mix at the same
     * rate for {@code duration}, without late events, its ids starting with {@code idPrefix} so that the measured run
     * (another prefix) counts its outputs as foreign.
     *
     * @param duration the warm-up's length; positive
     * @param idPrefix the warm-up's id prefix; not null
     * @return the warm-up's configuration
     * @throws IllegalArgumentException if the duration is not positive
     */
    public WorkloadConfig warmup(Duration duration, String idPrefix) {
        return toBuilder().duration(duration).idPrefix(idPrefix).lateFraction(0).build();
    }

    /**
     * Returns a builder initialised with this configuration.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.seed = seed;
        b.rate = rate;
        b.duration = duration;
        b.idPrefix = idPrefix;
        b.clicksPerImpression = clicksPerImpression;
        b.requestShare = requestShare;
        b.clickDelay = clickDelay;
        b.outsideWindowFraction = outsideWindowFraction;
        b.edgeFraction = edgeFraction;
        b.orphanFraction = orphanFraction;
        b.duplicateFraction = duplicateFraction;
        b.outOfOrderFraction = outOfOrderFraction;
        b.lateFraction = lateFraction;
        b.lateWarmupClicks = lateWarmupClicks;
        b.lateWarmup = lateWarmup;
        b.ackFirstFraction = ackFirstFraction;
        b.maxAcksPerRequest = maxAcksPerRequest;
        b.attributionWindow = attributionWindow;
        b.watermarkDelay = watermarkDelay;
        b.safetyMargin = safetyMargin;
        b.partnerSendLag = partnerSendLag;
        return b;
    }

    @Override
    public String toString() {
        return "WorkloadConfig[seed=" + seed + ", rate=" + rate + ", duration=" + duration + ", idPrefix=" + idPrefix
                + ", clicksPerImpression=" + clicksPerImpression + ", requestShare=" + requestShare
                + ", clickDelay=" + clickDelay + ", outsideWindow=" + outsideWindowFraction + ", edge=" + edgeFraction
                + ", orphan=" + orphanFraction + ", duplicate=" + duplicateFraction + ", outOfOrder="
                + outOfOrderFraction
                + ", late=" + lateFraction + ", ackFirst=" + ackFirstFraction + ", window=" + attributionWindow
                + ", watermarkDelay=" + watermarkDelay + "]";
    }

    /** Builds a {@link WorkloadConfig}; not thread-safe. */
    public static final class Builder {
        private long seed = 42;
        private double rate = 1000;
        private Duration duration = Duration.ofSeconds(60);
        private String idPrefix;
        private double clicksPerImpression = 0.1;
        private double requestShare = 0.1;
        private DelayDistribution clickDelay = DelayDistribution.exponential(Duration.ofSeconds(10));
        private double outsideWindowFraction = 0.05;
        private double edgeFraction = 0.02;
        private double orphanFraction = 0.02;
        private double duplicateFraction = 0.01;
        private double outOfOrderFraction = 0.05;
        private double lateFraction = 0.005;
        private int lateWarmupClicks = 100;
        private Duration lateWarmup = Duration.ofSeconds(5);
        private double ackFirstFraction = 0.3;
        private int maxAcksPerRequest = 2;
        private Duration attributionWindow = Duration.ofMinutes(2);
        private Duration watermarkDelay = Duration.ofMinutes(5);
        private Duration safetyMargin = Duration.ofMinutes(2);
        private Duration partnerSendLag = Duration.ofMillis(500);

        private Builder() {}

        /** @param v the seed @return this builder */
        public Builder seed(long v) {
            seed = v;
            return this;
        }

        /** @param v events per second, positive @return this builder */
        public Builder rate(double v) {
            rate = v;
            return this;
        }

        /** @param v run length, positive @return this builder */
        public Builder duration(Duration v) {
            duration = v;
            return this;
        }

        /** @param v id prefix, not null (default {@code s<seed>-}) @return this builder */
        public Builder idPrefix(String v) {
            idPrefix = Objects.requireNonNull(v, "idPrefix");
            return this;
        }

        /** @param v clicks per impression in [0, 1] @return this builder */
        public Builder clicksPerImpression(double v) {
            clicksPerImpression = v;
            return this;
        }

        /** @param v request/ack share in [0, 1] @return this builder */
        public Builder requestShare(double v) {
            requestShare = v;
            return this;
        }

        /** @param v click delay distribution, not null @return this builder */
        public Builder clickDelay(DelayDistribution v) {
            clickDelay = Objects.requireNonNull(v, "clickDelay");
            return this;
        }

        /** @param v fraction in [0, 1] @return this builder */
        public Builder outsideWindowFraction(double v) {
            outsideWindowFraction = v;
            return this;
        }

        /** @param v fraction in [0, 1] @return this builder */
        public Builder edgeFraction(double v) {
            edgeFraction = v;
            return this;
        }

        /** @param v fraction in [0, 1] @return this builder */
        public Builder orphanFraction(double v) {
            orphanFraction = v;
            return this;
        }

        /** @param v fraction in [0, 1] @return this builder */
        public Builder duplicateFraction(double v) {
            duplicateFraction = v;
            return this;
        }

        /** @param v fraction in [0, 1] @return this builder */
        public Builder outOfOrderFraction(double v) {
            outOfOrderFraction = v;
            return this;
        }

        /** @param v fraction in [0, 1] @return this builder */
        public Builder lateFraction(double v) {
            lateFraction = v;
            return this;
        }

        /** @param v clicks before the first late event, not negative @return this builder */
        public Builder lateWarmupClicks(int v) {
            lateWarmupClicks = v;
            return this;
        }

        /**
         * @param v send time before the first late event, not negative (see {@link WorkloadConfig#lateWarmup()})
         * @return this builder
         */
        public Builder lateWarmup(Duration v) {
            lateWarmup = Objects.requireNonNull(v, "lateWarmup");
            return this;
        }

        /** @param v fraction in [0, 1] @return this builder */
        public Builder ackFirstFraction(double v) {
            ackFirstFraction = v;
            return this;
        }

        /** @param v at least 1 @return this builder */
        public Builder maxAcksPerRequest(int v) {
            maxAcksPerRequest = v;
            return this;
        }

        /** @param v positive @return this builder */
        public Builder attributionWindow(Duration v) {
            attributionWindow = v;
            return this;
        }

        /** @param v positive @return this builder */
        public Builder watermarkDelay(Duration v) {
            watermarkDelay = v;
            return this;
        }

        /** @param v positive @return this builder */
        public Builder safetyMargin(Duration v) {
            safetyMargin = v;
            return this;
        }

        /** @param v positive @return this builder */
        public Builder partnerSendLag(Duration v) {
            partnerSendLag = v;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the configuration
         * @throws IllegalArgumentException naming the first bad option and value
         */
        public WorkloadConfig build() {
            WorkloadConfig config = new WorkloadConfig(this);
            WorkloadConfigCheck.check(config);
            return config;
        }
    }
}
