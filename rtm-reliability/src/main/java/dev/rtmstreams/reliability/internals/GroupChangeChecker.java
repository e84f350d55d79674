package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.workload.RunReport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The checks of a group change (scale-out, scale-in, rolling-restart, instance-kill) beyond the oracle's: the group
 * settled with every task held once, every moved task processes again on its new owner, a scale-out or scale-in moved
 * tasks at all, a rolling restart with static membership caused no rebalance, and every instance still running is
 * RUNNING at the end. Records the rebalances per instance (from the service logs), the latency before and during the
 * change (from the load run's per-second series) and the slot checks of the instances at the end.
 */
final class GroupChangeChecker implements Checker {

    /** The first seconds of the load (JIT, first fetches) are left out of the latency before the change. */
    static final long WARM_UP_S = 5;
    /** The latency during the change counts until this long after the group settled. */
    static final Duration AFTER_SETTLED = Duration.ofSeconds(5);

    private final GroupChangeFault.Kind kind;
    private final boolean staticMembership;

    GroupChangeChecker(GroupChangeFault.Kind kind, boolean staticMembership) {
        this.kind = kind;
        this.staticMembership = staticMembership;
    }

    @Override
    public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws IOException {
        if (!(fault.orElse(null) instanceof InjectedFault.GroupChange change)) {
            throw new IllegalStateException("a group change scenario needs its group change: " + fault);
        }
        Instant faultAt = Instant.now().minusNanos(System.nanoTime() - change.faultNanos());
        Map<String, Integer> rebalances = new LinkedHashMap<>();
        Map<String, Long> violations = new LinkedHashMap<>();
        for (ServiceInstance i : run.instances()) {
            rebalances.put(i.name(), RebalanceCount.countInLogs(i.logFiles(), faultAt));
            if (change.assignmentAfter().containsKey(i.name())) {
                String metrics = i.metrics();
                violations.put(
                        i.name(),
                        metrics == null ? -1 : (long) PrometheusSamples.sum(metrics, "adattribution_slot_violations"));
                String health = i.health();
                if (!i.isAlive() || health == null || !health.contains("RUNNING")) {
                    findings.fail(i.name() + " is not RUNNING at the end: " + health);
                }
            }
        }
        List<RunReport.Second> perSecond = run.oracle() == null || run.oracle().reportFile() == null
                ? null
                : LatencyWindows.read(Path.of(run.oracle().reportFile()));
        findings.groupChange(figures(change, rebalances, perSecond, violations));
        judge(kind, staticMembership, change, findings.sections().groupChange(), findings);
    }

    /**
     * The figures of the report's {@code group_change} section.
     *
     * @param change what the fault did
     * @param rebalances per instance its rebalances since the fault
     * @param perSecond the load run's per-second series, or null
     * @param violations per running instance its slot violations at the end
     * @return the section
     */
    static ChaosReport.GroupChangeFigures figures(
            InjectedFault.GroupChange change,
            Map<String, Integer> rebalances,
            List<RunReport.Second> perSecond,
            Map<String, Long> violations) {
        double at = change.atSFromFirstInput() >= 0 ? change.atSFromFirstInput() : change.atS();
        long faultS = (long) Math.floor(at);
        long settledMs = change.faultToSettledMs() < 0 ? 0 : change.faultToSettledMs();
        long endS = (long) Math.ceil(at + (settledMs + AFTER_SETTLED.toMillis()) / 1000.0);
        return new ChaosReport.GroupChangeFigures(
                rebalances,
                rebalances.values().stream().mapToInt(Integer::intValue).max().orElse(0),
                RebalanceCount.SOURCE,
                LatencyWindows.max(perSecond, RunReport.Second::p99, WARM_UP_S, faultS),
                LatencyWindows.max(perSecond, RunReport.Second::p99, faultS, endS),
                LatencyWindows.max(perSecond, RunReport.Second::max, WARM_UP_S, faultS),
                LatencyWindows.max(perSecond, RunReport.Second::max, faultS, endS),
                String.format(Locale.ROOT, "before %d-%d, during %d-%d", WARM_UP_S, faultS, faultS, endS),
                violations);
    }

    /**
     * The verdict on what was observed.
     *
     * @param kind what was done
     * @param staticMembership whether the instances were static members
     * @param change the change and the assignments
     * @param figures the rebalances and latencies
     * @param findings where failures go
     */
    static void judge(
            GroupChangeFault.Kind kind,
            boolean staticMembership,
            InjectedFault.GroupChange change,
            ChaosReport.GroupChangeFigures figures,
            Findings findings) {
        if (change.faultToSettledMs() < 0) {
            findings.fail("the group did not settle within 120 s: the running instances held "
                    + change.assignmentAfter() + " of " + change.tasksTotal() + " tasks");
        }
        if (change.tasksMoved() > 0 && change.movedTasksProcessingAgainMs() < 0) {
            findings.fail("moved tasks " + change.movedTasks() + ": not all processed records on their new owner"
                    + " within 60 s of settling");
        }
        if ((kind == GroupChangeFault.Kind.SCALE_OUT || kind == GroupChangeFault.Kind.SCALE_IN)
                && change.tasksMoved() == 0) {
            findings.fail("no task moved: " + change.assignmentBefore() + " -> " + change.assignmentAfter());
        }
        if (kind == GroupChangeFault.Kind.ROLLING_RESTART && staticMembership && figures.rebalancesMax() > 0) {
            findings.fail("static membership: an instance took part in " + figures.rebalancesMax()
                    + " rebalances during the rolling restart, none expected " + figures.rebalances());
        }
    }
}
