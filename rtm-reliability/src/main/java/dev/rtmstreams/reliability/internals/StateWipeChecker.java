package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * State restored from the changelogs after a wipe (state-wipe). After the load, a second, quiesced wipe: wait until
 * the probe transactions sent early have expired and been checkpointed, kill the service, wipe its state directory,
 * queue a late join pair (far behind the watermark) and a second ack of each expired transaction as the first records
 * it will read, restart, and check that neither produces output (expired state stays gone, watermarks do not regress)
 * while a fresh pair still joins.
 */
final class StateWipeChecker implements Checker {

    private static final Duration OUTPUT_TIMEOUT = Duration.ofSeconds(60);

    private final TimerProbes expired = new TimerProbes("expired");

    @Override
    public void loadStarted(RunContext run) throws InterruptedException {
        expired.send(run);
    }

    @Override
    public void check(RunContext run, Optional<ChaosReport.InjectedFault> fault, Findings findings) throws Exception {
        expired.check(run, fault, findings);
        ScenarioRunner.Settings s = run.settings();
        ServiceInstance service = run.primary();
        Probes probes = run.probes();
        ProbeSet p = expired.sent();
        long until = p.firstSeenNanos()
                + s.correlationWindow()
                        .plusSeconds(3)
                        .plus(s.checkpointInterval().multipliedBy(2))
                        .toNanos();
        long waited = Math.max(0, RunContext.millis(until - System.nanoTime()));
        TimeUnit.NANOSECONDS.sleep(Math.max(0, until - System.nanoTime()));
        service.kill9();
        service.deleteStateDir();
        long now = System.currentTimeMillis();
        long lateTime = now
                - RunContext.WATERMARK_DELAY
                        .plus(RunContext.ATTRIBUTION_WINDOW)
                        .plusMinutes(3)
                        .toMillis();
        String lateImp = run.probeId("late");
        probes.impression(lateImp, lateTime);
        probes.click(lateImp + "-click", lateImp, lateTime + 1000);
        for (String tx : p.ids()) {
            probes.ack(tx, "a2", now);
        }
        long restart = System.nanoTime();
        service.start();
        long toRunning = service.awaitRunning(s.readyTimeout()).toMillis();
        String freshImp = run.probeId("fresh");
        long t = System.currentTimeMillis();
        probes.impression(freshImp, t);
        probes.click(freshImp + "-click", freshImp, t + 1000);
        boolean joins = run.outputs().awaitProbes(List.of("click:" + freshImp + "-click"), OUTPUT_TIMEOUT);
        long toFirstJoin = RunContext.millis(System.nanoTime() - restart);
        Thread.sleep(3000);
        judge(
                new ChaosReport.WipeProbes(
                        waited,
                        toRunning,
                        toFirstJoin,
                        (now - lateTime) / 1000,
                        run.outputs().probeCount("click:" + lateImp + "-click"),
                        p.ids().size(),
                        run.outputs().countSeen(p.secondAckOutputs()),
                        joins),
                findings);
    }

    /**
     * The verdict on what was observed: records {@code wipe_probes}; fails when the late pair was joined (watermarks
     * regressed), an expired transaction matched (expired state came back) or the fresh pair was not joined.
     *
     * @param observed what was observed
     * @param findings where the section and failures go
     */
    static void judge(ChaosReport.WipeProbes observed, Findings findings) {
        findings.wipeProbes(observed);
        if (observed.latePairJoinedAfterWipe() > 0) {
            findings.fail("watermark regressed after wipe+restore: a pair " + observed.latePairEventTimeBehindNowS()
                    + " s behind the stream was joined");
        }
        if (observed.expiredStateMatchedAfterWipe() > 0) {
            findings.fail("expired state came back after wipe+restore: " + observed.expiredStateMatchedAfterWipe()
                    + " expired transactions matched");
        }
        if (!observed.freshPairJoinedAfterWipe()) {
            findings.fail("joins did not continue after wipe+restore: a fresh pair was not joined within 60 s");
        }
    }
}
