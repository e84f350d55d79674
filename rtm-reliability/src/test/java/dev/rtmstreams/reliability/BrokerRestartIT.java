package dev.rtmstreams.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The broker-restart scenario, short: the chaos command starts its own child-JVM broker
 * (KafkaBrokerProcess), stops it under load and starts it again on the same port and log dir.
 */
class BrokerRestartIT {

    @Test
    @SuppressWarnings("unchecked")
    void shouldRecoverWithoutLosingRecordsWhenTheBrokerIsStoppedAndStartedUnderLoad(TestInfo info) throws Exception {
        Path dir = ChaosScenariosIT.reportDirFor(info);
        Map<String, Object> r =
                ChaosScenariosIT.runChaos(dir, ChaosScenariosIT.shortRun("broker-restart", dir, "--downtime", "PT2S"));

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
                dir, ChaosScenariosIT.shortRun("broker-restart", dir, "--downtime", "PT2S", "--exactly-once"));

        assertThat(r.get("zero_duplicates_required")).isEqualTo(true);
        Map<String, Object> oracle = (Map<String, Object>) r.get("oracle");
        assertThat(((Number) oracle.get("duplicates")).longValue())
                .as("duplicates under exactly-once")
                .isZero();
        assertThat(r.get("service_alive_at_end")).isEqualTo(true);
    }
}
