package dev.rtmstreams.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.reliability.internals.ChaosReport;
import dev.rtmstreams.reliability.internals.InjectedFault;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The service on the chaos runner's own three-broker cluster ({@code --brokers 3}) under exactly-once: every topic of
 * the run and every internal topic of the service with three replicas (the runner fails the run otherwise), and the
 * attribution outputs exact through a kill -9 of the service and through a kill -9 of the broker leading most
 * partitions of a task.
 */
class ReplicatedClusterIT {

    @Test
    void shouldKeepOutputsExactOnThreeBrokersWithReplicatedInternalTopicsUnderExactlyOnce(TestInfo info)
            throws Exception {
        ChaosReport r = runOnThreeBrokers("service-crash", info);

        assertThat(r.broker()).contains("3 child JVMs", "replication factor 3", "min.insync.replicas 2");
    }

    @Test
    void shouldKeepOutputsExactAndFlowingOnEveryPartitionWhenThePartitionLeaderIsKilledUnderExactlyOnce(TestInfo info)
            throws Exception {
        ChaosReport r = runOnThreeBrokers("broker-leader-kill", info, "--downtime", "PT3S");

        assertThat(r.fault().injected()).isInstanceOfSatisfying(InjectedFault.BrokerFault.class, kill -> {
            assertThat(kill.kind()).startsWith("kill -9 of partition leader broker");
            assertThat(kill.faultToFailoverMs())
                    .as("new leaders of its partitions")
                    .isNotNull()
                    .isPositive();
            assertThat(kill.faultToIsrFullMs())
                    .as("in-sync replicas full again")
                    .isPositive();
        });
        assertThat(r.fault().recoveryMs())
                .as("outputs flow again on every partition after the kill")
                .isNotNull()
                .isPositive();
    }

    /** A short run on three brokers under exactly-once: nothing missing (runChaos) and nothing duplicated. */
    private static ChaosReport runOnThreeBrokers(String scenario, TestInfo info, String... extra) throws Exception {
        Path dir = ChaosScenariosIT.reportDirFor(info);
        List<String> options =
                new ArrayList<>(List.of("--exactly-once", "--brokers", "3", "--broker-jvm-option", "-Xmx384m"));
        options.addAll(List.of(extra));

        ChaosReport r = ChaosScenariosIT.runChaos(
                dir, ChaosScenariosIT.shortRun(scenario, dir, options.toArray(String[]::new)));

        assertThat(r.oracle().duplicates()).as("duplicates under exactly-once").isZero();
        assertThat(r.zeroDuplicatesRequired()).isTrue();
        return r;
    }
}
