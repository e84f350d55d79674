package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.topology.Trigger;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class StatelessExampleTest {

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldCopyEveryRecordWithItsKeyValueAndTimestampWhenRunUnderEitherTrigger(Trigger trigger) {
        try (TopologyTestDriver d = Drivers.driver(StatelessExample.topology("in", "out"), trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            in.pipeInput("k1", "a", at(0));
            in.pipeInput("k2", "b", at(5));
            in.pipeInput("k1", "a", at(7));
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(Drivers.read(out)).containsExactly("k1=a@0", "k2=b@5", "k1=a@7");
        }
    }
}
