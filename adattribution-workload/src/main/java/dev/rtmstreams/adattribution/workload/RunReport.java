package dev.rtmstreams.adattribution.workload;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rtmstreams.tools.LatencyRecorder;
import dev.rtmstreams.tools.LatencySummary;
import dev.rtmstreams.tools.Pacer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The report of a {@link LoadRun}: what was sent, what the oracle found, and the latency of the matched outputs. Written
 * as JSON by {@code ReportJson} with snake_case keys in component order, the sending and count components flattened
 * into the top level (keys {@code mode}, {@code target_rate}, {@code achieved_rate}, {@code events_sent}, ...,
 * {@code expected}, {@code missing}, ..., the oracle's counters, {@code drain_ms}, {@code latency_ms},
 * {@code latency_percentiles}, {@code per_second}, {@code samples}, {@code first_send_error}).
 *
 * <pre>{@code
 * RunReport r = LoadRun.execute(events, rate, settings);
 * boolean clean = r.counts().clean();
 * double p99 = r.latencyMs().p99();
 * }</pre>
 *
 * @param mode the run's label ({@link LoadRun.Settings#mode()})
 * @param targetRate the nominal rate in inputs/s
 * @param achievedRate the achieved rate in inputs/s, rounded to 0.001
 * @param sending what the sending side did
 * @param counts what the oracle found, warm-up included
 * @param oracleCounters the workload's own oracle counters ({@link RunSpec#oracleCounters()}), written as top-level
 *     keys; empty when the workload has none
 * @param drainMs from the end of sending to the end of the drain
 * @param latencyMs the latency of the measured matched outputs
 * @param latencyPercentiles the latency distribution at fixed percentiles (0 to 100)
 * @param perSecond inputs sent and output latency per second of the measured window
 * @param samples a few identities of missing, unexpected and duplicated outputs
 * @param firstSendError the first send failure, null without one (then absent from the JSON)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RunReport(
        String mode,
        double targetRate,
        double achievedRate,
        @JsonUnwrapped Sending sending,
        @JsonUnwrapped Counts counts,
        @JsonAnyGetter Map<String, Long> oracleCounters,
        long drainMs,
        LatencySummary latencyMs,
        List<Point> latencyPercentiles,
        List<Second> perSecond,
        Samples samples,
        @JsonInclude(JsonInclude.Include.NON_NULL) String firstSendError) {

    private static final double[] CURVE = {
        0, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.75, 99.9, 99.95, 99.99, 99.999, 100
    };

    /** Copies the lists and map; checks for nulls. */
    public RunReport {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(sending, "sending");
        Objects.requireNonNull(counts, "counts");
        oracleCounters = Collections.unmodifiableMap(new LinkedHashMap<>(oracleCounters));
        Objects.requireNonNull(latencyMs, "latencyMs");
        latencyPercentiles = List.copyOf(latencyPercentiles);
        perSecond = List.copyOf(perSecond);
        Objects.requireNonNull(samples, "samples");
    }

    /**
     * What the sending side did over the measured inputs, and over the warm-up when there was one.
     *
     * @param eventsSent measured inputs sent
     * @param sendErrors sends that failed (warm-up included)
     * @param keptUp whether the measured sends stayed within the tolerance of their schedule
     * @param maxSendLagMs the largest lag of a measured send behind its schedule
     * @param warmupEventsSent warm-up inputs sent; null without a warm-up (then absent from the JSON, like the next two)
     * @param warmupKeptUp whether the warm-up kept up; null without a warm-up
     * @param warmupMaxSendLagMs the warm-up's largest lag; null without a warm-up
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Sending(
            long eventsSent,
            long sendErrors,
            boolean keptUp,
            double maxSendLagMs,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long warmupEventsSent,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean warmupKeptUp,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double warmupMaxSendLagMs) {}

    /**
     * What the oracle found over the whole run (warm-up included).
     *
     * @param expected outputs the oracle expects
     * @param observed outputs received (undecodable ones included)
     * @param matched expected outputs received
     * @param missing expected outputs not received
     * @param duplicates outputs received more than once
     * @param unexpected outputs the oracle did not expect (undecodable ones included)
     * @param mismatched outputs whose identity was expected but whose content differs
     * @param undecodable outputs that could not be decoded
     * @param foreignOutputsIgnored outputs of another run, ignored
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Counts(
            long expected,
            long observed,
            long matched,
            long missing,
            long duplicates,
            long unexpected,
            long mismatched,
            long undecodable,
            long foreignOutputsIgnored) {

        /** @return whether nothing is missing, duplicated or unexpected */
        public boolean clean() {
            return missing == 0 && duplicates == 0 && unexpected == 0;
        }
    }

    /**
     * One point of the latency distribution.
     *
     * @param p the percentile, 0 to 100
     * @param ms the latency at it
     */
    public record Point(double p, double ms) {}

    /**
     * One second of the measured window.
     *
     * @param t the second, from the first measured input's due time
     * @param sent inputs sent in it
     * @param outputs outputs received in it
     * @param p50 their median latency, ms; 0 without outputs
     * @param p99 their 99th percentile, ms; 0 without outputs
     * @param max their highest latency, ms; 0 without outputs
     */
    public record Second(int t, long sent, long outputs, double p50, double p99, double max) {}

    /**
     * A few identities of the outputs that went wrong.
     *
     * @param missing up to 20 missing outputs
     * @param unexpected unexpected outputs (as many as the matcher keeps)
     * @param duplicates duplicated outputs (as many as the matcher keeps)
     */
    public record Samples(List<String> missing, List<String> unexpected, List<String> duplicates) {
        /** Copies the lists. */
        public Samples {
            missing = List.copyOf(missing);
            unexpected = List.copyOf(unexpected);
            duplicates = List.copyOf(duplicates);
        }
    }

    /**
     * Returns this report under another label (a bench at several rates labels each run {@code mode@rate}).
     *
     * @param label the new mode label; not null
     * @return a copy with {@link #mode()} replaced
     */
    public RunReport withMode(String label) {
        return new RunReport(
                label,
                targetRate,
                achievedRate,
                sending,
                counts,
                oracleCounters,
                drainMs,
                latencyMs,
                latencyPercentiles,
                perSecond,
                samples,
                firstSendError);
    }

    /**
     * What the sending side of a run did, as {@link LoadRun} saw it.
     *
     * @param warm the pacing of the warm-up inputs, null without a warm-up
     * @param paced the pacing of the measured inputs
     * @param errors sends that failed
     * @param firstError the first send failure, null without one
     * @param sendNanos send time of each input ({@link System#nanoTime()}, 0 if never sent)
     * @param endNanos {@link System#nanoTime()} after the producer was flushed
     */
    record SendLog(
            Pacer.Result warm,
            Pacer.Result paced,
            long errors,
            Exception firstError,
            AtomicLongArray sendNanos,
            long endNanos) {}

    /**
     * Builds the report.
     *
     * @param settings the run's settings (mode)
     * @param targetRate the nominal rate in inputs/s
     * @param achieved the achieved rate in inputs/s
     * @param log what the sending side did
     * @param matcher the run's matcher, done
     * @param outputs the stopped collector (undecodable and foreign outputs)
     * @param oracleCounters the oracle's counters ({@link RunSpec#oracleCounters()})
     * @param recorder the latencies of the measured matches
     * @param firstMeasured the first input after the warm-up
     * @param windowStartNanos {@link System#nanoTime()} when the first measured input was due
     * @return the report; its {@code drainMs} runs from the end of sending to the call
     */
    static RunReport build(
            LoadRun.Settings settings,
            double targetRate,
            double achieved,
            SendLog log,
            Matcher matcher,
            OutputCollector outputs,
            Map<String, Long> oracleCounters,
            LatencyRecorder recorder,
            int firstMeasured,
            long windowStartNanos) {
        Pacer.Result paced = log.paced();
        Pacer.Result warm = log.warm();
        long undecodable = outputs.undecodable();
        Sending sending = new Sending(
                paced.sent(),
                log.errors(),
                !paced.fellBehind(),
                LatencyRecorder.round(paced.maxLagNanos() / 1e6),
                warm == null ? null : warm.sent(),
                warm == null ? null : !warm.fellBehind(),
                warm == null ? null : LatencyRecorder.round(warm.maxLagNanos() / 1e6));
        Counts counts = new Counts(
                matcher.expected(),
                matcher.observed() + undecodable,
                matcher.matched(),
                matcher.missing(),
                matcher.duplicates(),
                matcher.unexpected() + undecodable,
                matcher.mismatched(),
                undecodable,
                outputs.foreign());
        long drainMs = Math.round((System.nanoTime() - log.endNanos()) / 1e6);
        List<Point> curve = new ArrayList<>();
        double[] values = recorder.percentilesMillis(CURVE);
        for (int i = 0; i < CURVE.length; i++) {
            curve.add(new Point(CURVE[i], values[i]));
        }
        Samples samples =
                new Samples(matcher.missingSamples(20), matcher.unexpectedSamples(), matcher.duplicateSamples());
        return new RunReport(
                settings.mode(),
                targetRate,
                LatencyRecorder.round(achieved),
                sending,
                counts,
                oracleCounters,
                drainMs,
                recorder.summary(),
                curve,
                perSecond(recorder, log.sendNanos(), firstMeasured, windowStartNanos),
                samples,
                log.firstError() == null ? null : log.firstError().toString());
    }

    private static List<Second> perSecond(
            LatencyRecorder recorder, AtomicLongArray sendNanos, int firstMeasured, long startNanos) {
        Map<Integer, Long> sentBySecond = new HashMap<>();
        int maxSecond = 0;
        for (int i = firstMeasured; i < sendNanos.length(); i++) {
            long t = sendNanos.get(i);
            if (t == 0) {
                continue;
            }
            int s = (int) Math.max(0, (t - startNanos) / 1_000_000_000L);
            sentBySecond.merge(s, 1L, Long::sum);
            maxSecond = Math.max(maxSecond, s);
        }
        List<LatencyRecorder.Second> latency = recorder.perSecondMillis();
        List<Second> out = new ArrayList<>();
        int seconds = Math.max(maxSecond + 1, latency.size());
        for (int s = 0; s < seconds; s++) {
            long sent = sentBySecond.getOrDefault(s, 0L);
            if (s < latency.size()) {
                LatencyRecorder.Second l = latency.get(s);
                out.add(new Second(s, sent, l.outputs(), l.p50(), l.p99(), l.max()));
            } else {
                out.add(new Second(s, sent, 0L, 0.0, 0.0, 0.0));
            }
        }
        return out;
    }
}
