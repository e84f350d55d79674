package dev.rtmstreams.reliability.internals;

import java.util.Locale;

/** The chaos scenarios, by their command-line names. */
public enum Scenario {
    /** kill -9 the service under load, restart it with its state directory. */
    SERVICE_CRASH,
    /** kill -9 while request/ack timers are pending; they fire after restart; matches straddling the crash emitted. */
    PENDING_TIMERS,
    /**
     * kill -9 under load, down for twice the correlation window while the load goes on, restart: requests processed
     * before the kill still match their acks produced during the outage (zero missing).
     */
    LONG_OUTAGE,
    /** kill -9, wipe the state directory, restart: restore from changelogs, no expired state, no watermark regress. */
    STATE_WIPE,
    /** stop the broker process under load and start it again. */
    BROKER_RESTART,
    /** 1% undecodable records mixed into the inputs. */
    POISON,
    /** two instances; one is killed; the survivor takes over its tasks. */
    INSTANCE_FAILOVER,
    /** a long steady run, sampling state and memory. */
    SOAK,
    /** one instance, then {@code --instances} - 1 more started under load (same application id, own state dirs). */
    SCALE_OUT,
    /** {@code --instances} instances; all but one stopped gracefully (SIGTERM) under load, one after the other. */
    SCALE_IN,
    /** {@code --instances} instances, each stopped gracefully and started again with its state dir in turn. */
    ROLLING_RESTART,
    /** {@code --instances} instances; {@code kill -9} of one, the others take its tasks over. */
    INSTANCE_KILL,
    /**
     * Three brokers or more: {@code kill -9} of the broker leading most input, output and changelog partitions of an
     * active task, started again after {@code --downtime}.
     */
    BROKER_LEADER_KILL,
    /** Three brokers or more: {@code kill -9} of the active controller, started again after {@code --downtime}. */
    CONTROLLER_KILL,
    /**
     * Three brokers or more: every broker stopped cleanly and started again in turn, the in-sync replicas full again
     * before the next.
     */
    BROKER_ROLLING_RESTART,
    /**
     * Three brokers or more: {@code SIGSTOP} of the broker leading most partitions of an active task for longer than
     * the broker session and the clients' request timeouts, then {@code SIGCONT}.
     */
    BROKER_PAUSE,
    /**
     * Three brokers or more: {@code kill -9} of the coordinator of the service's commits, started again after
     * {@code --downtime}: under exactly-once the transaction coordinator of a stream thread's transactional id, at a
     * moment it commits a transaction of the service; under at-least-once the group coordinator. No transaction may
     * be left open beyond its timeout afterwards.
     */
    TXN_COORDINATOR_KILL,
    /**
     * Three brokers or more, each in a network namespace of its own: the broker leading most partitions of an active
     * task cut off from the network while it keeps running (its link down), connected again after {@code --downtime}.
     */
    BROKER_NETWORK_PARTITION;

    /** @return whether the scenario needs the runner's own cluster of three brokers or more */
    public boolean needsCluster() {
        return brokerFault() != null;
    }

    private BrokerNodeFault.Kind brokerFault() {
        return switch (this) {
            case BROKER_LEADER_KILL -> BrokerNodeFault.Kind.LEADER_KILL;
            case CONTROLLER_KILL -> BrokerNodeFault.Kind.CONTROLLER_KILL;
            case BROKER_ROLLING_RESTART -> BrokerNodeFault.Kind.ROLLING_RESTART;
            case BROKER_PAUSE -> BrokerNodeFault.Kind.PAUSE;
            case TXN_COORDINATOR_KILL -> BrokerNodeFault.Kind.TXN_COORDINATOR_KILL;
            case BROKER_NETWORK_PARTITION -> BrokerNodeFault.Kind.NETWORK_PARTITION;
            default -> null;
        };
    }

    /** @return whether the scenario changes the members of a group of {@code --instances} instances */
    public boolean changesGroup() {
        return groupChange() != null;
    }

    private GroupChangeFault.Kind groupChange() {
        return switch (this) {
            case SCALE_OUT -> GroupChangeFault.Kind.SCALE_OUT;
            case SCALE_IN -> GroupChangeFault.Kind.SCALE_IN;
            case ROLLING_RESTART -> GroupChangeFault.Kind.ROLLING_RESTART;
            case INSTANCE_KILL -> GroupChangeFault.Kind.KILL;
            default -> null;
        };
    }

    /**
     * What a scenario does and checks, for one run.
     *
     * @param fault what it does to the running system
     * @param checker what it asserts beyond the common oracle check
     */
    record Plan(Fault fault, Checker checker) {}

    /**
     * Picks the scenario's fault and checker (new instances: they keep state of one run).
     *
     * @param s the run's settings
     * @return the plan
     */
    Plan plan(ScenarioRunner.Settings s) {
        return switch (this) {
            case SERVICE_CRASH -> new Plan(ServiceKillFault.restartAfter(s.downtime()), Checker.ORACLE_ONLY);
            case PENDING_TIMERS ->
                new Plan(
                        ServiceKillFault.restartAfter(s.downtime()),
                        Checker.allOf(new StraddleChecker(), new PendingTimersChecker()));
            case LONG_OUTAGE ->
                new Plan(ServiceKillFault.restartAfter(s.correlationWindow().multipliedBy(2)), new StraddleChecker());
            case STATE_WIPE -> new Plan(ServiceKillFault.wipeAndRestartAfter(s.downtime()), new StateWipeChecker());
            case BROKER_RESTART -> new Plan(new BrokerRestartFault(s.downtime()), Checker.ORACLE_ONLY);
            case POISON -> {
                PoisonFault poison = new PoisonFault(s.rate() * s.poisonFraction());
                yield new Plan(poison, new PoisonChecker(poison::figures));
            }
            case INSTANCE_FAILOVER -> new Plan(new InstanceKillFault(), new FailoverChecker());
            case SOAK -> new Plan(Fault.NONE, new SoakChecker(s.sampleInterval(), s.duration(), s.reportDir()));
            case SCALE_OUT, SCALE_IN, ROLLING_RESTART, INSTANCE_KILL ->
                new Plan(
                        new GroupChangeFault(groupChange(), s.group()),
                        new GroupChangeChecker(groupChange(), s.group().staticMembership()));
            case BROKER_LEADER_KILL,
                    CONTROLLER_KILL,
                    BROKER_ROLLING_RESTART,
                    BROKER_PAUSE,
                    TXN_COORDINATOR_KILL,
                    BROKER_NETWORK_PARTITION ->
                new Plan(
                        new BrokerNodeFault(brokerFault(), s.downtime()),
                        new BrokerFaultChecker(this == TXN_COORDINATOR_KILL));
        };
    }

    /** @return the command-line name, e.g. {@code service-crash} */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Parses a command-line name.
     *
     * @param name e.g. {@code service-crash}
     * @return the scenario
     * @throws IllegalArgumentException naming the value and the valid names
     */
    public static Scenario parse(String name) {
        for (Scenario s : values()) {
            if (s.cliName().equals(name)) {
                return s;
            }
        }
        StringBuilder valid = new StringBuilder();
        for (Scenario s : values()) {
            valid.append(valid.length() == 0 ? "" : ", ").append(s.cliName());
        }
        throw new IllegalArgumentException("--scenario must be one of " + valid + ": '" + name + "'");
    }
}
