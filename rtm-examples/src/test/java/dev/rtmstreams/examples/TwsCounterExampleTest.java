package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.TimeMode;
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
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TwsCounterExampleTest {

    private static List<String> values(TestOutputTopic<String, String> out) {
        return out.readRecordsToList().stream()
                .map(r -> r.key() + "=" + r.value())
                .toList();
    }

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldCountPerKeyAndPassTheSourceTimestampThroughWhenRunUnderEitherTrigger(Trigger trigger) {
        try (TopologyTestDriver d = Drivers.driver(TwsCounterExample.topology("in", "out"), trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");
            long t0 = Drivers.START.toEpochMilli();

            in.pipeInput("k1", "x", at(100));
            in.pipeInput("k1", "y", at(200));
            in.pipeInput("k2", "z", at(300));
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(values(out))
                    .containsExactlyInAnyOrder(
                            "k1=1," + (t0 + 100) + ",k1", "k1=2," + (t0 + 200) + ",k1", "k2=1," + (t0 + 300) + ",k2");

            in.pipeInput("k1", "w", at(400));
            d.advanceWallClockTime(Drivers.BATCH);
            assertThat(values(out)).containsExactly("k1=3," + (t0 + 400) + ",k1");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldStartCountingAgainWhenTheStateExpiredAfterItsTtl(Trigger trigger) {
        try (TopologyTestDriver d = Drivers.driver(TwsCounterExample.topology("in", "out"), trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");
            long t0 = Drivers.START.toEpochMilli();

            in.pipeInput(new TestRecord<>("k1", "x", at(0)));
            in.pipeInput(new TestRecord<>("k1", "y", at(1)));
            d.advanceWallClockTime(Drivers.BATCH);
            assertThat(values(out)).hasSize(2);

            d.advanceWallClockTime(RtmStatefulProcessor.TTL.plus(Duration.ofSeconds(1)));
            in.pipeInput("k1", "z", at(2));
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(values(out)).containsExactly("k1=1," + (t0 + 2) + ",k1");
        }
    }

    @Test
    void shouldHonourBothContractsRowByRow() {
        ContractReport<String, KeyCount> report = ModeContractChecker.builder(
                        RtmStatefulProcessor::new,
                        TimeMode.PROCESSING_TIME,
                        Serdes.String(),
                        Serdes.Long(),
                        KeyCount.serde())
                .equivalence(ModeContractChecker.Equivalence.PER_ROW)
                .build()
                .check(List.of(
                        List.of(KeyValue.pair("k1", 10L), KeyValue.pair("k2", 11L), KeyValue.pair("k1", 12L)),
                        List.of(KeyValue.pair("k1", 13L))));

        assertThat(report.differences()).isEmpty();
        assertThat(report.microBatchOutput())
                .extracting(kv -> kv.value)
                .containsExactlyInAnyOrder(
                        new KeyCount("k1", 1, 10),
                        new KeyCount("k2", 1, 11),
                        new KeyCount("k1", 2, 12),
                        new KeyCount("k1", 3, 13));
    }
}
