package dev.rtmstreams.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.reliability.internals.ChaosReport;
import dev.rtmstreams.reliability.internals.InjectedFault;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The broker-restart scenario, short: the chaos command starts its own child-JVM broker
 * (KafkaBrokerProcess), stops it under load and starts it again on the same port and log dir.
 */
class BrokerRestartIT {

    /**
     * The broker is started twice per run and its speed is not what is checked: C1 only (like the service in these
     * runs) starts it sooner on a busy machine; the heap is the runner's default.
     */
    private static final String[] BROKER_JVM = {
        "--broker-jvm-option", "-Xmx768m", "--broker-jvm-option", "-XX:TieredStopAtLevel=1"
    };

    @Test
    void shouldRecoverWithoutLosingRecordsWhenTheBrokerIsStoppedAndStartedUnderLoad(TestInfo info) throws Exception {
        Path dir = ChaosScenariosIT.reportDirFor(info);
        ChaosReport r = ChaosScenariosIT.runChaos(
                dir, ChaosScenariosIT.shortRun("broker-restart", dir, withBrokerJvm("--downtime", "PT2S")));

        assertThat(r.fault().injected())
                .isInstanceOfSatisfying(
                        InjectedFault.BrokerRestart.class,
                        restart -> assertThat(restart.faultToBrokerUpMs()).isGreaterThanOrEqualTo(2000));
        assertThat(r.fault().recoveryMs()).isPositive();
        assertThat(r.serviceAliveAtEnd()).isTrue();
    }

    @Test
    void shouldLoseAndDuplicateNothingForAReadCommittedConsumerWhenTheBrokerRestartsUnderExactlyOnce(TestInfo info)
            throws Exception {
        Path dir = ChaosScenariosIT.reportDirFor(info);
        ChaosReport r = ChaosScenariosIT.runChaos(
                dir,
                ChaosScenariosIT.shortRun(
                        "broker-restart", dir, withBrokerJvm("--downtime", "PT2S", "--exactly-once")));

        assertThat(r.zeroDuplicatesRequired()).isTrue();
        assertThat(r.oracle().duplicates()).as("duplicates under exactly-once").isZero();
        assertThat(r.serviceAliveAtEnd()).isTrue();
    }

    private static String[] withBrokerJvm(String... args) {
        return Stream.concat(Arrays.stream(args), Arrays.stream(BROKER_JVM)).toArray(String[]::new);
    }
}
