package dev.rtmstreams.reliability.internals;

import java.util.List;
import java.util.Optional;

/**
 * What a chaos scenario asserts beyond the check every scenario makes (the oracle's zero missing and zero unexpected
 * outputs, every input sent, the service RUNNING at the end): probes of timers, straddling matches, expired state and
 * watermarks, the dead-letter topic, the failover, the soak's series, and whether zero duplicates are promised.
 * {@link Scenario#plan} picks one per scenario; {@link ScenarioRunner} calls its hooks along the run's timeline, then
 * {@link #check}, which records report sections and failures in {@link Findings}.
 *
 * <p>A checker that sends probes keeps what it sent between the hooks, so one instance serves one run.
 */
@FunctionalInterface
interface Checker {

    /** Checks nothing beyond the common check (service-crash, broker-restart). */
    Checker ORACLE_ONLY = (run, fault, findings) -> {};

    /** @return whether the scenario promises zero duplicates even at least once (then duplicates fail it) */
    default boolean requiresZeroDuplicates() {
        return false;
    }

    /**
     * Called before the load starts (after {@link Fault#beforeLoad}).
     *
     * @param run the running system
     * @throws Exception when it cannot be prepared (the run breaks)
     */
    default void beforeLoad(RunContext run) throws Exception {}

    /**
     * Called right after the load started.
     *
     * @param run the running system
     * @throws Exception when probes cannot be sent (the run breaks)
     */
    default void loadStarted(RunContext run) throws Exception {}

    /**
     * Called at the scheduled time, just before a fault that strikes.
     *
     * @param run the running system
     * @throws Exception when probes cannot be sent (the run breaks)
     */
    default void beforeFault(RunContext run) throws Exception {}

    /**
     * Called once while the service is down (only by faults that take it down).
     *
     * @param run the running system
     */
    default void whileDown(RunContext run) {}

    /**
     * Checks after the load ended (and after {@link Fault#afterLoad}).
     *
     * @param run the running system
     * @param fault what the fault did, empty when it did not strike
     * @param findings where sections and failures go
     * @throws Exception when the check cannot be carried out (the run breaks; not a failure)
     */
    void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws Exception;

    /**
     * Runs checkers one after the other, each hook in the order given.
     *
     * @param checkers the checkers
     * @return one checker doing what they all do; zero duplicates required if any requires them
     */
    static Checker allOf(Checker... checkers) {
        List<Checker> all = List.of(checkers);
        return new Checker() {
            @Override
            public boolean requiresZeroDuplicates() {
                return all.stream().anyMatch(Checker::requiresZeroDuplicates);
            }

            @Override
            public void beforeLoad(RunContext run) throws Exception {
                for (Checker c : all) {
                    c.beforeLoad(run);
                }
            }

            @Override
            public void loadStarted(RunContext run) throws Exception {
                for (Checker c : all) {
                    c.loadStarted(run);
                }
            }

            @Override
            public void beforeFault(RunContext run) throws Exception {
                for (Checker c : all) {
                    c.beforeFault(run);
                }
            }

            @Override
            public void whileDown(RunContext run) {
                for (Checker c : all) {
                    c.whileDown(run);
                }
            }

            @Override
            public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws Exception {
                for (Checker c : all) {
                    c.check(run, fault, findings);
                }
            }
        };
    }
}
