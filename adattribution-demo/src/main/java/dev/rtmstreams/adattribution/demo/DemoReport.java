package dev.rtmstreams.adattribution.demo;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.rtmstreams.tools.LatencySummary;
import dev.rtmstreams.tools.ReportJson;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The demo's {@code demo-report.json}: the settings and, per mode, the counts and the two latency distributions in
 * milliseconds. Written by Jackson from these records, so the field names are the record components.
 *
 * @param settings what the demo ran
 * @param modes one entry per mode, in run order
 */
record DemoReport(Settings settings, List<Mode> modes) {

    /**
     * The demo's parameters.
     *
     * @param durationPerModeSeconds load duration per mode
     * @param targetRate events per second asked for
     * @param warmupSeconds the unmeasured start of each mode
     * @param partitions partitions per topic
     * @param microBatchIntervalMs the micro-batch trigger interval
     * @param availableProcessors cores of this machine
     */
    record Settings(
            long durationPerModeSeconds,
            double targetRate,
            long warmupSeconds,
            int partitions,
            long microBatchIntervalMs,
            int availableProcessors) {}

    /**
     * One mode's figures; rates rounded to 0.1.
     *
     * @param mode the execution mode's config value
     * @param sentEvents inputs sent (warm-up included)
     * @param sentPerSecond inputs per second achieved
     * @param outputsPerSecond outputs per second received
     * @param expectedAttributedClicks attributed clicks the load generator's oracle expects
     * @param receivedAttributedClicks expected attributed clicks received
     * @param duplicateAttributedClicks attributed clicks received more often than expected
     * @param expectedLogRecords log records the oracle expects
     * @param receivedLogRecords expected log records received
     * @param clickAttributionLatencyMs send of the input that completed the match (click or impression) to
     *     attributed-click receipt
     * @param requestAckLatencyMs send of the input that completed the match (ack or request) to log-record receipt
     */
    record Mode(
            String mode,
            long sentEvents,
            double sentPerSecond,
            double outputsPerSecond,
            long expectedAttributedClicks,
            long receivedAttributedClicks,
            long duplicateAttributedClicks,
            long expectedLogRecords,
            long receivedLogRecords,
            Latency clickAttributionLatencyMs,
            Latency requestAckLatencyMs) {}

    /**
     * A latency distribution in milliseconds, rounded to a microsecond; only {@code count} when it is empty.
     *
     * @param count samples
     * @param p50 median; null when empty
     * @param p90 90th percentile; null when empty
     * @param p95 95th percentile; null when empty
     * @param p99 99th percentile; null when empty
     * @param p999 99.9th percentile; null when empty
     * @param max maximum; null when empty
     * @param mean mean; null when empty
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Latency(long count, Double p50, Double p90, Double p95, Double p99, Double p999, Double max, Double mean) {

        /**
         * @param microseconds a histogram of microseconds
         * @return its summary in milliseconds
         */
        static Latency of(Histogram microseconds) {
            Histogram h = microseconds;
            if (h.getTotalCount() == 0) {
                return new Latency(0, null, null, null, null, null, null, null);
            }
            // the one latency summary of the tools (milliseconds rounded to a microsecond)
            LatencySummary ms = LatencySummary.of(h);
            return new Latency(ms.count(), ms.p50(), ms.p90(), ms.p95(), ms.p99(), ms.p999(), ms.max(), ms.mean());
        }
    }

    /**
     * @param settings the demo's settings
     * @param results the modes' results
     * @return the report
     */
    static DemoReport of(DemoRunner.Settings settings, List<DemoRunner.ModeResult> results) {
        return new DemoReport(
                new Settings(
                        settings.duration().toSeconds(),
                        settings.rate(),
                        settings.warmup().toSeconds(),
                        settings.partitions(),
                        settings.microBatchInterval().toMillis(),
                        Runtime.getRuntime().availableProcessors()),
                results.stream()
                        .map(r -> new Mode(
                                r.mode().configValue(),
                                r.sentEvents(),
                                tenth(r.sentPerSecond()),
                                tenth(r.outputsPerSecond()),
                                r.expectedAttributed(),
                                r.receivedAttributed(),
                                r.duplicateAttributed(),
                                r.expectedLogRecords(),
                                r.receivedLogRecords(),
                                Latency.of(r.attribution()),
                                Latency.of(r.correlation())))
                        .toList());
    }

    private static double tenth(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** @return the report as indented JSON with a final line break */
    String toJson() {
        return ReportJson.toJson(this) + "\n";
    }
}
