package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.topology.testing.ContractReport;
import dev.rtmstreams.topology.testing.ModeContractChecker;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

class AggregationExampleTest {

    private static void pipeFirstBatch(TestInputTopic<String, String> in) {
        in.pipeInput("k1", "a", at(0));
        in.pipeInput("k2", "a", at(0));
        in.pipeInput("k3", "b", at(0));
        in.pipeInput("k4", "a", at(0));
        in.pipeInput("k5", "a", at(9)); // other timestamp: its own group
    }

    @Test
    void shouldEmitTheUpdatedCountOfEveryRowWhenRealTime() {
        try (TopologyTestDriver d = Drivers.driver(AggregationExample.topology("in", "out"), Drivers.REAL_TIME)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            pipeFirstBatch(in);
            assertThat(Drivers.read(out)).containsExactly("a=1@0", "a=2@0", "b=1@0", "a=3@0", "a=1@9");

            in.pipeInput("k6", "a", at(0));
            assertThat(Drivers.read(out)).containsExactly("a=4@0");
        }
    }

    @Test
    void shouldEmitOneCountPerGroupAndBatchWhenMicroBatch() {
        try (TopologyTestDriver d = Drivers.driver(AggregationExample.topology("in", "out"), Drivers.MICRO_BATCH)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            pipeFirstBatch(in);
            assertThat(Drivers.read(out)).isEmpty(); // nothing before the batch ends
            d.advanceWallClockTime(Drivers.BATCH);
            assertThat(Drivers.read(out)).containsExactlyInAnyOrder("a=3@0", "b=1@0", "a=1@9");

            in.pipeInput("k6", "a", at(0));
            d.advanceWallClockTime(Drivers.BATCH);
            assertThat(Drivers.read(out)).containsExactly("a=4@0");
        }
    }

    @Test
    void shouldAgreeOnTheLatestCountPerBatchUnderBothContracts() {
        TimestampValue a = new TimestampValue(0, "a");
        TimestampValue b = new TimestampValue(0, "b");
        List<List<KeyValue<TimestampValue, String>>> batches = List.of(
                List.of(KeyValue.pair(a, "k1"), KeyValue.pair(b, "k2"), KeyValue.pair(a, "k3")),
                List.of(KeyValue.pair(a, "k4")));

        // the example's own operator; union-aggregation runs the same one after its merge
        ContractReport<TimestampValue, Long> latest = ModeContractChecker.forOperator(
                        AggregationExample::counter, TimestampValue.serde(), Serdes.String(), Serdes.Long())
                .equivalence(ModeContractChecker.Equivalence.LATEST_PER_BATCH)
                .build()
                .check(batches);
        // update output mode: micro-batch emits one count per key and batch, real-time one per row
        ContractReport<TimestampValue, Long> perRow = ModeContractChecker.builder(
                        CountProcessor<TimestampValue, String>::new,
                        TimeMode.NONE,
                        TimestampValue.serde(),
                        Serdes.String(),
                        Serdes.Long())
                .equivalence(ModeContractChecker.Equivalence.PER_ROW)
                .build()
                .check(batches);

        assertThat(latest.differences()).isEmpty();
        assertThat(perRow.differences()).singleElement().satisfies(diff -> {
            assertThat(diff.key()).isEqualTo(a);
            assertThat(diff.realTimeOutput()).containsExactly(1L, 2L);
            assertThat(diff.microBatchOutput()).containsExactly(2L);
        });
    }
}
