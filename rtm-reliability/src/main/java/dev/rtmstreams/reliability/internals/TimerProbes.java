package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.Optional;

/**
 * Matched request/ack transactions sent 1 s into the load, so they are checkpointed before the kill, whose
 * correlation timers a checker follows (pending-timers: they fire after the restart; state-wipe: they have fired
 * before the second wipe). Records when the timers were due relative to the kill, and fails unless the first acks
 * were matched.
 */
final class TimerProbes {

    private static final int TRANSACTIONS = 3;
    private static final Duration OUTPUT_TIMEOUT = Duration.ofSeconds(60);

    private final String tag;
    private ProbeSet sent;

    /** @param tag names the transactions: {@code probe-<run>-<tag>-<i>} */
    TimerProbes(String tag) {
        this.tag = tag;
    }

    /**
     * Sends the transactions, 1 s after the load started.
     *
     * @param run the run
     * @throws InterruptedException when interrupted
     */
    void send(RunContext run) throws InterruptedException {
        Thread.sleep(1000);
        sent = ProbeSet.matchedTransactions(run, tag, TRANSACTIONS);
    }

    /**
     * @return the transactions sent
     * @throws IllegalStateException before {@link #send(RunContext)}
     */
    ProbeSet sent() {
        if (sent == null) {
            throw new IllegalStateException("no timer probes were sent");
        }
        return sent;
    }

    /**
     * Records when the timers were due relative to a kill of the service, and waits (up to 60 s) for the first acks'
     * log records, failing without them.
     *
     * @param run the run
     * @param fault what the fault did
     * @param findings where the due times and the failure go
     * @throws InterruptedException when interrupted
     */
    void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws InterruptedException {
        if (fault.orElse(null) instanceof InjectedFault.ServiceKill kill) {
            findings.timersDue(due(sent().firstSeenNanos(), run.settings().correlationWindow(), kill));
        }
        if (!run.outputs().awaitProbes(sent().firstAckOutputs(), OUTPUT_TIMEOUT)) {
            findings.fail("timer probes: request+ack did not produce their log records");
        }
    }

    /**
     * When timers set at {@code firstSeenNanos} were due relative to a kill.
     *
     * @param firstSeenNanos when the transactions were sent
     * @param correlationWindow the service's correlation window
     * @param kill the kill and restart
     * @return whether they were due only after the service was RUNNING again, and how long after the kill
     */
    static ChaosReport.TimersDue due(long firstSeenNanos, Duration correlationWindow, InjectedFault.ServiceKill kill) {
        long due = firstSeenNanos + correlationWindow.toNanos();
        return new ChaosReport.TimersDue(due > kill.runningNanos(), RunContext.round3((due - kill.faultNanos()) / 1e9));
    }
}
