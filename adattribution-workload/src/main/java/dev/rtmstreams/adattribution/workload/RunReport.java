package dev.rtmstreams.adattribution.workload;

import dev.rtmstreams.tools.LatencyRecorder;
import dev.rtmstreams.tools.Pacer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/** The JSON-ready report of a {@link LoadRun}: its keys, their order and the per-second and percentile tables. */
final class RunReport {

    private static final double[] CURVE = {
        0, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.75, 99.9, 99.95, 99.99, 99.999, 100
    };

    /**
     * What the sending side of a run did.
     *
     * @param warm the pacing of the warm-up inputs, null without a warm-up
     * @param paced the pacing of the measured inputs
     * @param errors sends that failed
     * @param firstError the first send failure, null without one
     * @param sendNanos send time of each input ({@link System#nanoTime()}, 0 if never sent)
     * @param endNanos {@link System#nanoTime()} after the producer was flushed
     */
    record Sending(
            Pacer.Result warm,
            Pacer.Result paced,
            long errors,
            Exception firstError,
            AtomicLongArray sendNanos,
            long endNanos) {}

    private RunReport() {}

    /**
     * Builds the report.
     *
     * @param settings the run's settings (mode)
     * @param targetRate the nominal rate in inputs/s
     * @param achieved the achieved rate in inputs/s
     * @param sending what the sending side did
     * @param matcher the run's matcher, done
     * @param outputs the stopped collector (undecodable and foreign outputs)
     * @param oracleReport the oracle's fields ({@link RunSpec#oracleReport()})
     * @param recorder the latencies of the measured matches
     * @param firstMeasured the first input after the warm-up
     * @param windowStartNanos {@link System#nanoTime()} when the first measured input was due
     * @param extra extra report fields, last
     * @return the report; its {@code drain_ms} runs from the end of sending to the call
     */
    static Map<String, Object> build(
            LoadRun.Settings settings,
            double targetRate,
            double achieved,
            Sending sending,
            Matcher matcher,
            OutputCollector outputs,
            Map<String, Object> oracleReport,
            LatencyRecorder recorder,
            int firstMeasured,
            long windowStartNanos,
            Map<String, Object> extra) {
        Pacer.Result paced = sending.paced();
        Pacer.Result warm = sending.warm();
        long undecodable = outputs.undecodable();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("mode", settings.mode());
        report.put("target_rate", targetRate);
        report.put("achieved_rate", LatencyRecorder.round(achieved));
        report.put("events_sent", paced.sent());
        report.put("send_errors", sending.errors());
        report.put("kept_up", !paced.fellBehind());
        report.put("max_send_lag_ms", LatencyRecorder.round(paced.maxLagNanos() / 1e6));
        if (warm != null) {
            report.put("warmup_events_sent", warm.sent());
            report.put("warmup_kept_up", !warm.fellBehind());
            report.put("warmup_max_send_lag_ms", LatencyRecorder.round(warm.maxLagNanos() / 1e6));
        }
        report.put("expected", matcher.expected());
        report.put("observed", matcher.observed() + undecodable);
        report.put("matched", matcher.matched());
        report.put("missing", matcher.missing());
        report.put("duplicates", matcher.duplicates());
        report.put("unexpected", matcher.unexpected() + undecodable);
        report.put("mismatched", matcher.mismatched());
        report.put("undecodable", undecodable);
        report.put("foreign_outputs_ignored", outputs.foreign());
        report.putAll(oracleReport);
        report.put("drain_ms", Math.round((System.nanoTime() - sending.endNanos()) / 1e6));
        report.put("latency_ms", recorder.summary());
        List<Map<String, Object>> curve = new ArrayList<>();
        double[] values = recorder.percentilesMillis(CURVE);
        for (int i = 0; i < CURVE.length; i++) {
            Map<String, Object> pt = new LinkedHashMap<>();
            pt.put("p", CURVE[i]);
            pt.put("ms", values[i]);
            curve.add(pt);
        }
        report.put("latency_percentiles", curve);
        report.put("per_second", perSecond(recorder, sending.sendNanos(), firstMeasured, windowStartNanos));
        Map<String, Object> samples = new LinkedHashMap<>();
        samples.put("missing", matcher.missingSamples(20));
        samples.put("unexpected", matcher.unexpectedSamples());
        samples.put("duplicates", matcher.duplicateSamples());
        report.put("samples", samples);
        if (sending.firstError() != null) {
            report.put("first_send_error", sending.firstError().toString());
        }
        report.putAll(extra);
        return report;
    }

    private static List<Map<String, Object>> perSecond(
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
        List<Map<String, Object>> latency = recorder.perSecondMillis();
        List<Map<String, Object>> out = new ArrayList<>();
        int seconds = Math.max(maxSecond + 1, latency.size());
        for (int s = 0; s < seconds; s++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("t", s);
            m.put("sent", sentBySecond.getOrDefault(s, 0L));
            if (s < latency.size()) {
                Map<String, Object> l = latency.get(s);
                m.put("outputs", l.get("outputs"));
                m.put("p50", l.get("p50"));
                m.put("p99", l.get("p99"));
                m.put("max", l.get("max"));
            } else {
                m.put("outputs", 0L);
                m.put("p50", 0.0);
                m.put("p99", 0.0);
                m.put("max", 0.0);
            }
            out.add(m);
        }
        return out;
    }
}
