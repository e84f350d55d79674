package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

class UnionAggregationExampleTest {

    @Test
    void shouldCountRowsOfBothTopicsTogetherWhenRealTime() {
        try (TopologyTestDriver d =
                Drivers.driver(UnionAggregationExample.topology("in1", "in2", "out"), Drivers.REAL_TIME)) {
            TestInputTopic<String, String> in1 = Drivers.input(d, "in1");
            TestInputTopic<String, String> in2 = Drivers.input(d, "in2");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            in1.pipeInput("k1", "a", at(0));
            in2.pipeInput("k2", "a", at(0));
            in2.pipeInput("k3", "b", at(0));
            in1.pipeInput("k4", "a", at(0));

            assertThat(Drivers.read(out)).containsExactly("a=1@0", "a=2@0", "b=1@0", "a=3@0");
        }
    }

    @Test
    void shouldEmitOneCountPerGroupAndBatchWhenMicroBatch() {
        try (TopologyTestDriver d =
                Drivers.driver(UnionAggregationExample.topology("in1", "in2", "out"), Drivers.MICRO_BATCH)) {
            TestInputTopic<String, String> in1 = Drivers.input(d, "in1");
            TestInputTopic<String, String> in2 = Drivers.input(d, "in2");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            in1.pipeInput("k1", "a", at(0));
            in2.pipeInput("k2", "a", at(0));
            in2.pipeInput("k3", "b", at(0));
            in1.pipeInput("k4", "a", at(0));
            assertThat(Drivers.read(out)).isEmpty();
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(Drivers.read(out)).containsExactlyInAnyOrder("a=3@0", "b=1@0");
        }
    }
}
