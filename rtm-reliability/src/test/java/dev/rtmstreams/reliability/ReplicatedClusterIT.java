package dev.rtmstreams.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.reliability.internals.ChaosReport;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The service on the chaos runner's own three-broker cluster ({@code --brokers 3}): every topic of the run and every
 * internal topic of the service with three replicas (the runner fails the run otherwise), and the attribution outputs
 * exact under exactly-once through a kill -9 of the service.
 */
class ReplicatedClusterIT {

    @Test
    void shouldKeepOutputsExactOnThreeBrokersWithReplicatedInternalTopicsUnderExactlyOnce(TestInfo info)
            throws Exception {
        Path dir = ChaosScenariosIT.reportDirFor(info);

        ChaosReport r = ChaosScenariosIT.runChaos(
                dir,
                ChaosScenariosIT.shortRun(
                        "service-crash", dir, "--exactly-once", "--brokers", "3", "--broker-jvm-option", "-Xmx384m"));

        assertThat(r.broker()).contains("3 child JVMs", "replication factor 3", "min.insync.replicas 2");
        assertThat(r.oracle().duplicates()).as("duplicates under exactly-once").isZero();
        assertThat(r.zeroDuplicatesRequired()).isTrue();
    }
}
