package dev.rtmstreams.reliability.internals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Utils;

/**
 * State restored from the changelogs after a wipe (state-wipe). After the load, a second, quiesced wipe: wait until
 * the live service holds no state of the probe transactions sent early (their expiry timers fired: {@code GET
 * /state/request-ack-correlation/<tx>} answers 404) and that was checkpointed, kill the service, wipe its state
 * directory, queue a late join pair (far behind the watermark) and a second ack of each expired transaction as the
 * first records it will read, restart, and check that neither produces output (expired state stays gone, watermarks
 * do not regress) while a fresh pair still joins.
 *
 * <p>The second acks carry an event time inside their transaction's correlation window: the service finds a key's
 * state expired on arrival of a record later than the window whether its timer fired or not, so a later ack would
 * pass without exercising the expiry path. With an in-window ack only the timer's delete, restored from the
 * changelog, keeps it from matching. The timer deletes a key only once its task's inputs have passed the key's
 * window, so after the load a request and an ack per partition move them past it.
 */
final class StateWipeChecker implements Checker {

    private static final Duration OUTPUT_TIMEOUT = Duration.ofSeconds(60);
    /** The correlation operator's name in the service (its state is read live). */
    static final String CORRELATION_OPERATOR = "request-ack-correlation";
    /** Second acks' event time after their request's: well inside any correlation window. */
    static final long SECOND_ACK_AFTER_REQUEST_MS = 100;
    /** Beyond twice the window, the longest wait for the timers to delete the probes. */
    private static final Duration CLEAR_GRACE = Duration.ofSeconds(30);

    private final TimerProbes expired = new TimerProbes("expired");

    @Override
    public void loadStarted(RunContext run) throws InterruptedException {
        expired.send(run);
    }

    @Override
    public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws Exception {
        expired.check(run, fault, findings);
        ScenarioRunner.Settings s = run.settings();
        ServiceInstance service = run.primary();
        Probes probes = run.probes();
        ProbeSet p = expired.sent();
        advanceStreamTime(run, p, s.correlationWindow(), s.partitions());
        // a timer that found the input behind looks again a window later: it has seen the requests above by then
        long deadline = System.nanoTime()
                + s.correlationWindow().multipliedBy(2).plus(CLEAR_GRACE).toNanos();
        long clearedMs = awaitNoState(service, p, deadline);
        long until = System.nanoTime() + s.checkpointInterval().multipliedBy(2).toNanos();
        TimeUnit.NANOSECONDS.sleep(Math.max(0, until - System.nanoTime()));
        long waited = RunContext.millis(System.nanoTime() - p.firstSeenNanos());
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
            probes.ack(tx, "a2", p.sentAtMillis() + SECOND_ACK_AFTER_REQUEST_MS);
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
                        clearedMs,
                        SECOND_ACK_AFTER_REQUEST_MS,
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
     * Moves every correlation task's inputs past the probe transactions' window: per partition, a request and an ack of
     * two fresh transactions (keys chosen by Kafka's default partitioner), with an event time a second after the
     * window. A timer deletes a key only once its task's inputs have passed the key's window; once the load has ended,
     * nothing else would move them. Neither record has a partner: they produce no output.
     */
    private static void advanceStreamTime(RunContext run, ProbeSet p, Duration window, int partitions) {
        long time = p.sentAtMillis() + window.toMillis() + 1000;
        Set<Integer> requested = new HashSet<>();
        Set<Integer> acked = new HashSet<>();
        for (int i = 0; requested.size() < partitions || acked.size() < partitions; i++) {
            String tx = run.probeId("tick-" + i);
            int partition = Utils.toPositive(Utils.murmur2(tx.getBytes(StandardCharsets.UTF_8))) % partitions;
            if (requested.add(partition)) {
                run.probes().request(tx, time);
            } else if (acked.add(partition)) {
                run.probes().ack(tx, "tick", time);
            }
        }
    }

    /**
     * Polls the live state of the probe transactions until none is held.
     *
     * @return milliseconds from sending the probes until no state was held, -1 when some was still held at the deadline
     */
    private static long awaitNoState(ServiceInstance service, ProbeSet p, long deadlineNanos)
            throws InterruptedException {
        while (true) {
            boolean anyHeld = false;
            for (String tx : p.ids()) {
                if (service.stateStatus(CORRELATION_OPERATOR, tx) != 404) {
                    anyHeld = true;
                    break;
                }
            }
            long now = System.nanoTime();
            if (!anyHeld) {
                return RunContext.millis(now - p.firstSeenNanos());
            }
            if (now > deadlineNanos) {
                return -1;
            }
            Thread.sleep(250);
        }
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
        if (observed.expiryClearedBeforeWipeMs() < 0) {
            findings.fail("the probe transactions' expiry timers had not deleted their state before the wipe (the live"
                    + " state endpoint still held it): the check of expired state would not exercise the expiry path");
        }
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
