package dev.rtmstreams.reliability.internals;

import java.util.ArrayList;
import java.util.List;

/**
 * Probe transactions and join pairs a checker sent, with the output ids they should (or should not) produce.
 *
 * @param ids transaction ids
 * @param impressionIds impression ids of join pairs (straddling matches only)
 * @param impressionTimes their event times
 * @param firstSeenNanos when the transactions were sent ({@link System#nanoTime()}; their timers are due a correlation
 *     window later), 0 for straddling matches
 * @param sentAtMillis the event time of the transactions' requests and first acks (wall clock at sending)
 */
record ProbeSet(
        List<String> ids,
        List<String> impressionIds,
        List<Long> impressionTimes,
        long firstSeenNanos,
        long sentAtMillis) {

    ProbeSet {
        ids = List.copyOf(ids);
        impressionIds = List.copyOf(impressionIds);
        impressionTimes = List.copyOf(impressionTimes);
    }

    /**
     * Sends {@code n} transactions with a request and a first ack ({@code a1}) each.
     *
     * @param run the run
     * @param tag names the transactions: {@code probe-<run>-<tag>-<i>}
     * @param n how many
     * @return the transactions
     */
    static ProbeSet matchedTransactions(RunContext run, String tag, int n) {
        long firstSeen = System.nanoTime();
        long now = System.currentTimeMillis();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String tx = run.probeId(tag + "-" + i);
            ids.add(tx);
            run.probes().request(tx, now);
            run.probes().ack(tx, "a1", now);
        }
        return new ProbeSet(ids, List.of(), List.of(), firstSeen, now);
    }

    /**
     * Sends the first halves of {@code n} transactions and {@code n} join pairs: a request and an impression each.
     *
     * @param run the run
     * @param n how many
     * @return what was sent; {@link #sendSecondHalves(RunContext)} completes it
     */
    static ProbeSet straddleFirstHalves(RunContext run, int n) {
        long now = System.currentTimeMillis();
        List<String> ids = new ArrayList<>();
        List<String> impressions = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String tx = run.probeId("straddle-" + i);
            ids.add(tx);
            run.probes().request(tx, now);
            String imp = run.probeId("simp-" + i);
            impressions.add(imp);
            times.add(now);
            run.probes().impression(imp, now);
        }
        return new ProbeSet(ids, impressions, times, 0, now);
    }

    /**
     * Sends the second halves of what {@link #straddleFirstHalves(RunContext, int)} sent: an ack per transaction and a
     * click per impression.
     *
     * @param run the run
     */
    void sendSecondHalves(RunContext run) {
        for (int i = 0; i < ids.size(); i++) {
            run.probes().ack(ids.get(i), "a1", System.currentTimeMillis());
            run.probes().click(impressionIds.get(i) + "-click", impressionIds.get(i), impressionTimes.get(i) + 1000);
        }
    }

    /** @return the log records of the first acks ({@code log:<tx>:a1}) */
    List<String> firstAckOutputs() {
        return ids.stream().map(tx -> "log:" + tx + ":a1").toList();
    }

    /** @return the log records of second acks ({@code log:<tx>:a2}) */
    List<String> secondAckOutputs() {
        return ids.stream().map(tx -> "log:" + tx + ":a2").toList();
    }

    /** @return the outputs of completed straddling matches: first-ack log records, then attributed clicks */
    List<String> straddleOutputs() {
        List<String> out = new ArrayList<>(firstAckOutputs());
        impressionIds.forEach(imp -> out.add("click:" + imp + "-click"));
        return out;
    }
}
