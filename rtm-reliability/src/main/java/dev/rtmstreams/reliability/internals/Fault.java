package dev.rtmstreams.reliability.internals;

import java.util.Optional;

/**
 * What a chaos scenario does to the running system (a nemesis, in Jepsen's words; a fault spec, in Trogdor's): kill -9
 * and restart, broker stop and start, state wipe, one of two instances killed, poison records, a long outage, or
 * nothing. {@link Scenario#plan} picks one per scenario; {@link ScenarioRunner} calls it, in this order:
 *
 * <ol>
 *   <li>{@link #instances()}: how many service instances to create, {@link #startedAtFirst()} of them started (before
 *       anything else);
 *   <li>{@link #beforeLoad(RunContext)}: the instances are RUNNING, the load not started yet;
 *   <li>{@link #strike()}: if present, its {@link Strike#inject} is called once at the scheduled time ({@code
 *       --fault-at} of the load), after the checker's {@link Checker#beforeFault};
 *   <li>{@link #afterLoad(RunContext)}: the load run has ended (outputs drained).
 * </ol>
 */
interface Fault {

    /** No fault: the load runs undisturbed. */
    Fault NONE = Optional::empty;

    /** @return how many service instances the scenario runs; faults hit the first */
    default int instances() {
        return 1;
    }

    /**
     * @return how many of the {@link #instances()} are started before the load (the first ones); the fault starts the
     *     others, e.g. when scaling out
     */
    default int startedAtFirst() {
        return instances();
    }

    /**
     * Prepares the fault before the load starts, e.g. starts sending poison records.
     *
     * @param run the running system
     * @throws Exception when the system cannot be prepared (the run breaks)
     */
    default void beforeLoad(RunContext run) throws Exception {}

    /** @return what is done once at the scheduled time, or empty when the fault does not strike then */
    Optional<Strike> strike();

    /**
     * Ends the fault after the load, e.g. stops sending poison records and waits for them to be dead-lettered.
     *
     * @param run the running system
     * @throws Exception when it cannot be ended (the run breaks)
     */
    default void afterLoad(RunContext run) throws Exception {}

    /** A fault's action at the scheduled time. */
    @FunctionalInterface
    interface Strike {
        /**
         * Injects the fault and returns once the system is back (restarted, taken over or reachable again).
         *
         * @param run the running system
         * @param whileDown to call once while the service is down, for probes sent during the outage
         * @return what was done, with its figures
         * @throws Exception when the system cannot be brought back (the run breaks)
         */
        InjectedFault inject(RunContext run, Runnable whileDown) throws Exception;
    }
}
