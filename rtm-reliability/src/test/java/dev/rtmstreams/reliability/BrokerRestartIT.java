package dev.rtmstreams.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
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
    @SuppressWarnings("unchecked")
    void shouldRecoverWithoutLosingRecordsWhenTheBrokerIsStoppedAndStartedUnderLoad(TestInfo info) throws Exception {
        Path dir = ChaosScenariosIT.reportDirFor(info);
        Map<String, Object> r = ChaosScenariosIT.runChaos(
                dir, ChaosScenariosIT.shortRun("broker-restart", dir, withBrokerJvm("--downtime", "PT2S")));

        Map<String, Object> fault = (Map<String, Object>) r.get("fault");
        assertThat(((Number) fault.get("fault_to_broker_up_ms")).longValue()).isGreaterThanOrEqualTo(2000);
        assertThat(((Number) fault.get("recovery_ms")).longValue()).isPositive();
        assertThat(r.get("service_alive_at_end")).isEqualTo(true);
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldLoseAndDuplicateNothingForAReadCommittedConsumerWhenTheBrokerRestartsUnderExactlyOnce(TestInfo info)
            throws Exception {
        Path dir = ChaosScenariosIT.reportDirFor(info);
        Map<String, Object> r = ChaosScenariosIT.runChaos(
                dir,
                ChaosScenariosIT.shortRun(
                        "broker-restart", dir, withBrokerJvm("--downtime", "PT2S", "--exactly-once")));

        assertThat(r.get("zero_duplicates_required")).isEqualTo(true);
        Map<String, Object> oracle = (Map<String, Object>) r.get("oracle");
        assertThat(((Number) oracle.get("duplicates")).longValue())
                .as("duplicates under exactly-once")
                .isZero();
        assertThat(r.get("service_alive_at_end")).isEqualTo(true);
    }

    private static String[] withBrokerJvm(String... args) {
        return Stream.concat(Arrays.stream(args), Arrays.stream(BROKER_JVM)).toArray(String[]::new);
    }
}
