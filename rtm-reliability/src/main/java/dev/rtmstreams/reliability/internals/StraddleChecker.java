package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Matches that straddle the kill (long-outage, and with {@link PendingTimersChecker} pending-timers): just before the
 * fault, requests and impressions; while the service is down, their acks and clicks. After the load every match must
 * have been emitted within 60 s.
 */
final class StraddleChecker implements Checker {

    private static final int PAIRS = 3;
    private static final Duration OUTPUT_TIMEOUT = Duration.ofSeconds(60);

    private ProbeSet sent;

    @Override
    public void beforeFault(RunContext run) throws InterruptedException {
        sent = ProbeSet.straddleFirstHalves(run, PAIRS);
        Thread.sleep(1000);
    }

    @Override
    public void whileDown(RunContext run) {
        sent.sendSecondHalves(run);
    }

    @Override
    public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws InterruptedException {
        if (sent == null) {
            throw new IllegalStateException("no straddling matches were sent: the fault did not strike");
        }
        boolean allSeen = run.outputs().awaitProbes(sent.straddleOutputs(), OUTPUT_TIMEOUT);
        judge(sent, allSeen, run.outputs(), findings);
    }

    /**
     * The verdict on what was observed: records {@code straddling_matches}; fails unless every output was seen.
     *
     * @param sent the straddling matches
     * @param allSeen whether every output was seen within the wait
     * @param outputs the probe outputs
     * @param findings where the section and failure go
     */
    static void judge(ProbeSet sent, boolean allSeen, ProbeOutputs outputs, Findings findings) {
        List<String> expect = sent.straddleOutputs();
        findings.straddlingMatches(new ChaosReport.StraddlingMatches(
                "requests " + sent.ids().size() + ", impressions "
                        + sent.impressionIds().size(),
                "acks " + sent.ids().size() + ", clicks " + sent.impressionIds().size(),
                expect.size(),
                outputs.countSeen(expect)));
        if (!allSeen) {
            findings.fail("matches straddling the crash not emitted: "
                    + expect.stream().filter(id -> outputs.probeCount(id) == 0).toList());
        }
    }
}
