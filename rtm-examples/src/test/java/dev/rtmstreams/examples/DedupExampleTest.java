package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.topology.Trigger;
import dev.rtmstreams.topology.testing.ContractReport;
import dev.rtmstreams.topology.testing.ModeContractChecker;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DedupExampleTest {

    private static final Duration TTL = Duration.ofMinutes(1);

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldDropRowsWithTheSameTimestampAndValueWhileRememberedWhenRunUnderEitherTrigger(Trigger trigger) {
        try (TopologyTestDriver d = Drivers.driver(DedupExample.topology("in", "out", TTL), trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            in.pipeInput("k1", "a", at(0));
            in.pipeInput("k2", "a", at(0)); // same (timestamp, value), other key: a duplicate
            in.pipeInput("k1", "a", at(5)); // same value, other timestamp: new
            in.pipeInput("k1", "b", at(0)); // same timestamp, other value: new
            in.pipeInput("k1", "a", at(0)); // duplicate
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(Drivers.read(out)).containsExactlyInAnyOrder("k1=a@0", "k1=a@5", "k1=b@0");

            d.advanceWallClockTime(TTL.plusSeconds(1)); // (0, a) is forgotten
            in.pipeInput("k3", "a", at(0));
            in.pipeInput("k3", "b", at(0)); // (0, b) forgotten too
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(Drivers.read(out)).containsExactlyInAnyOrder("k3=a@0", "k3=b@0");
        }
    }

    @Test
    void shouldBehaveTheSameUnderBothContractsWhenCheckedPerRow() {
        TimestampValue a = new TimestampValue(0, "a");
        TimestampValue b = new TimestampValue(0, "b");
        ContractReport<TimestampValue, String> report = ModeContractChecker.forOperator(
                        () -> DedupExample.operator(TTL), TimestampValue.serde(), Serdes.String(), Serdes.String())
                .equivalence(ModeContractChecker.Equivalence.PER_ROW)
                .build()
                .check(List.of(
                        List.of(KeyValue.pair(a, "k1"), KeyValue.pair(b, "k2"), KeyValue.pair(a, "k3")),
                        List.of(KeyValue.pair(a, "k4"), KeyValue.pair(b, "k5"))));

        assertThat(report.differences()).isEmpty();
        assertThat(report.microBatchOutput()).containsExactlyInAnyOrder(KeyValue.pair(a, "k1"), KeyValue.pair(b, "k2"));
    }

    @Test
    void shouldRejectANonPositiveTtl() {
        assertThatThrownBy(() -> DedupExample.topology("in", "out", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0S");
    }
}
