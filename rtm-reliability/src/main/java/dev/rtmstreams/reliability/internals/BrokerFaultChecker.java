package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.workload.RunReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A broker fault (broker-leader-kill, controller-kill, broker-pause, broker-rolling-restart, txn-coordinator-kill) got
 * the cluster back: the partitions the hit broker led got other leaders (or another controller or coordinator became
 * active) and the in-sync replicas were full again, each within 120 s; after txn-coordinator-kill no transaction is
 * left open for longer than its timeout. Records the latency before and during the fault and the changelog records the
 * service restored ({@link ChaosReport.BrokerFaultFigures}); the common oracle check does the rest (nothing missing;
 * under exactly-once nothing duplicated).
 */
final class BrokerFaultChecker implements Checker {

    /** The first seconds of the load are left out of "before" (the service's first outputs). */
    static final long WARM_UP_S = 5;

    /** "During" lasts until this long after the in-sync replicas were full again. */
    static final long AFTER_ISR_FULL_S = 5;

    private static final String RESTORED = "kafka_streams_consumer_fetch_manager_metrics_records_consumed_total";

    /** How long the transactions left open after the fault may take to be completed or aborted. */
    static final Duration HANGING_WAIT = Duration.ofSeconds(60);

    private final boolean checkTransactions;
    private long restoredBefore = -1;

    /**
     * @param checkTransactions whether no transaction may be left open for longer than its timeout after the fault
     *     (txn-coordinator-kill)
     */
    BrokerFaultChecker(boolean checkTransactions) {
        this.checkTransactions = checkTransactions;
    }

    @Override
    public void beforeFault(RunContext run) {
        restoredBefore = restoredRecords(run.primary().metrics());
    }

    @Override
    public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws Exception {
        if (!(fault.orElse(null) instanceof InjectedFault.BrokerFault brokerFault)) {
            throw new IllegalStateException("a broker fault scenario needs a fault of the brokers: " + fault);
        }
        long restoredAfter = restoredRecords(run.primary().metrics());
        List<RunReport.Second> perSecond = run.oracle() == null || run.oracle().reportFile() == null
                ? null
                : LatencyWindows.read(Path.of(run.oracle().reportFile()));
        long restored = restoredBefore < 0 || restoredAfter < 0 ? -1 : restoredAfter - restoredBefore;
        Integer hanging = null;
        if (checkTransactions) {
            List<String> left = hangingTransactions(run);
            hanging = left.size();
            if (!left.isEmpty()) {
                findings.fail("transactions open for longer than their timeout " + HANGING_WAIT.toSeconds()
                        + " s after the end of the load: " + left);
            }
        }
        findings.brokerFault(figures(brokerFault, perSecond, restored, hanging));
        judge(brokerFault, findings);
    }

    /**
     * Waits up to {@link #HANGING_WAIT} (the coordinators abort transactions that outlived their timeout every 10 s)
     * until no transaction of the cluster is open for longer than its timeout.
     *
     * @return those still open, empty when none is
     */
    private static List<String> hangingTransactions(RunContext run) {
        try (ServiceTransactions txns = new ServiceTransactions(run.kafka().config(Map.of()), run.applicationId())) {
            try {
                run.cluster()
                        .await(
                                "no transaction open beyond its timeout",
                                HANGING_WAIT,
                                () -> txns.hanging().isEmpty());
                return List.of();
            } catch (IllegalStateException e) {
                return txns.hanging();
            }
        }
    }

    /**
     * The figures of the report's {@code broker_fault} section.
     *
     * @param fault what was done
     * @param perSecond the load run's per-second series, or null
     * @param restored changelog records restored from the fault to the end, -1 if unknown
     * @param hangingTransactions transactions open beyond their timeout after the fault, null when not checked
     * @return the section
     */
    static ChaosReport.BrokerFaultFigures figures(
            InjectedFault.BrokerFault fault,
            List<RunReport.Second> perSecond,
            long restored,
            Integer hangingTransactions) {
        long faultS = (long) Math.floor(fault.atS());
        long endS = fault.faultToIsrFullMs() < 0
                ? Long.MAX_VALUE
                : (long) Math.ceil(fault.atS() + fault.faultToIsrFullMs() / 1000.0) + AFTER_ISR_FULL_S;
        return new ChaosReport.BrokerFaultFigures(
                LatencyWindows.max(perSecond, RunReport.Second::p99, WARM_UP_S, faultS),
                LatencyWindows.max(perSecond, RunReport.Second::p99, faultS, endS),
                LatencyWindows.max(perSecond, RunReport.Second::max, WARM_UP_S, faultS),
                LatencyWindows.max(perSecond, RunReport.Second::max, faultS, endS),
                String.format(
                        Locale.ROOT,
                        "before %d-%d, during %d-%s",
                        WARM_UP_S,
                        faultS,
                        faultS,
                        endS == Long.MAX_VALUE ? "end" : Long.toString(endS)),
                restored,
                hangingTransactions);
    }

    /**
     * The verdict: fails when the cluster did not fail over or did not get its replicas back in sync.
     *
     * @param fault what was done and how the cluster got back
     * @param findings where failures go
     */
    static void judge(InjectedFault.BrokerFault fault, Findings findings) {
        if (fault.faultToFailoverMs() != null && fault.faultToFailoverMs() < 0) {
            findings.fail("no failover within 120 s of the fault (" + fault.role() + ", broker " + fault.brokerNodes()
                    + "): " + fault.steps());
        }
        if (fault.faultToIsrFullMs() < 0) {
            findings.fail("the in-sync replicas were not full again within 120 s: " + fault.steps());
        }
    }

    /**
     * The records the service's restore consumers read so far (client-level samples only).
     *
     * @param metrics the instance's {@code /metrics}, or null when it did not answer
     * @return the sum, or -1 when it did not answer
     */
    static long restoredRecords(String metrics) {
        if (metrics == null) {
            return -1;
        }
        Map<String, Double> byClient = PrometheusSamples.byLabels(
                metrics,
                RESTORED,
                List.of("client_id"),
                labels -> String.valueOf(labels.get("client_id")).contains("restore-consumer")
                        && !labels.containsKey("topic"));
        return Math.round(
                byClient.values().stream().mapToDouble(Double::doubleValue).sum());
    }
}
