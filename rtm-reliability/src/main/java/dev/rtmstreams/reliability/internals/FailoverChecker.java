package dev.rtmstreams.reliability.internals;

import java.util.Optional;

/** The survivor of two instances reports every task active within 120 s of the other's kill (instance-failover). */
final class FailoverChecker implements Checker {

    @Override
    public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) {
        if (!(fault.orElse(null) instanceof InjectedFault.InstanceKill kill)) {
            throw new IllegalStateException("instance-failover needs a kill of one of two instances: " + fault);
        }
        judge(kill, findings);
    }

    /**
     * The verdict on what was observed: fails when the survivor did not take every task over.
     *
     * @param kill the kill and the takeover
     * @param findings where the failure goes
     */
    static void judge(InjectedFault.InstanceKill kill, Findings findings) {
        if (kill.faultToTakeoverMs() < 0) {
            findings.fail("the survivor did not report all " + kill.tasksTotal() + " tasks within 120 s of the kill");
        }
    }
}
