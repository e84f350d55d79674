package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Timers set before the kill fire after the restart (pending-timers, with {@link StraddleChecker}): after the load,
 * once the probe transactions' correlation window has passed (plus 5 s), a second ack of each must match nothing (its
 * state is gone), while a control transaction's second ack within its window matches.
 */
final class PendingTimersChecker implements Checker {

    /** The section's name, also in the control transaction's id and the failures. */
    static final String KEY = "pending_timers";

    private static final Duration MARGIN = Duration.ofSeconds(5);
    private static final Duration OUTPUT_TIMEOUT = Duration.ofSeconds(60);

    private final TimerProbes timers = new TimerProbes("timer");

    @Override
    public void loadStarted(RunContext run) throws InterruptedException {
        timers.send(run);
    }

    @Override
    public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws InterruptedException {
        timers.check(run, fault, findings);
        ProbeSet p = timers.sent();
        long due = p.firstSeenNanos()
                + run.settings().correlationWindow().plus(MARGIN).toNanos();
        TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
        long now = System.currentTimeMillis();
        String control = run.probeId(KEY + "-control");
        Probes probes = run.probes();
        probes.request(control, now);
        probes.ack(control, "a1", now);
        for (String tx : p.ids()) {
            probes.ack(tx, "a2", now);
        }
        probes.ack(control, "a2", now);
        boolean controlOk =
                run.outputs().awaitProbes(List.of("log:" + control + ":a1", "log:" + control + ":a2"), OUTPUT_TIMEOUT);
        Thread.sleep(3000);
        long revived = run.outputs().countSeen(p.secondAckOutputs());
        judge(new ChaosReport.PendingTimers(p.ids().size(), revived, controlOk), findings);
    }

    /**
     * The verdict on what was observed: records {@code pending_timers}; fails when the control's acks were not matched
     * (the probe is broken) or a transaction matched after its window (its timer did not fire).
     *
     * @param observed what was observed
     * @param findings where the section and failures go
     */
    static void judge(ChaosReport.PendingTimers observed, Findings findings) {
        findings.pendingTimers(observed);
        if (!observed.controlSecondAckMatched()) {
            findings.fail(KEY + ": the control transaction's acks were not matched (probe mechanism broken)");
        }
        if (observed.lateAcksMatchedAfterExpiry() > 0) {
            findings.fail(KEY + ": " + observed.lateAcksMatchedAfterExpiry()
                    + " transactions still had their state after the correlation window "
                    + "(timer did not fire / expired state came back)");
        }
    }
}
