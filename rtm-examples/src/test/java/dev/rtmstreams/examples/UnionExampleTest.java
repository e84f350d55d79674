package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.topology.Trigger;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class UnionExampleTest {

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldWriteTheRecordsOfBothTopicsInArrivalOrderWhenRunUnderEitherTrigger(Trigger trigger) {
        try (TopologyTestDriver d = Drivers.driver(UnionExample.topology("in1", "in2", "out"), trigger)) {
            TestInputTopic<String, String> in1 = Drivers.input(d, "in1");
            TestInputTopic<String, String> in2 = Drivers.input(d, "in2");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            in1.pipeInput("k1", "a", at(0));
            in2.pipeInput("k2", "b", at(1));
            in1.pipeInput("k3", "c", at(2));
            in2.pipeInput("k1", "a", at(3));
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(Drivers.read(out)).containsExactly("k1=a@0", "k2=b@1", "k3=c@2", "k1=a@3");
        }
    }
}
