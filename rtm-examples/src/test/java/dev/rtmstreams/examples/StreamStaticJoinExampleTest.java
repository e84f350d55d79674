package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.topology.Trigger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class StreamStaticJoinExampleTest {

    @TempDir
    Path dir;

    private Map<String, String> table() throws Exception {
        Path csv = dir.resolve("table.csv");
        Files.writeString(csv, "lookupKey,label\n1,one\n\n2,two, with a comma\n");
        return StreamStaticJoinExample.readCsv(csv);
    }

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldJoinOnTheValueWithTheCsvTableWhenRunUnderEitherTrigger(Trigger trigger) throws Exception {
        try (TopologyTestDriver d = Drivers.driver(StreamStaticJoinExample.topology("in", "out", table()), trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            in.pipeInput("k1", "1", at(0));
            in.pipeInput("k2", "3", at(1)); // no match: inner join drops it
            in.pipeInput("k3", "2", at(2));
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(Drivers.read(out)).containsExactly("1=1,one@0", "2=2,two, with a comma@2");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldJoinOnTheValueWithTheGlobalTableWhenRunUnderEitherTrigger(Trigger trigger) {
        try (TopologyTestDriver d =
                Drivers.driver(StreamStaticJoinExample.topologyWithGlobalTable("in", "out", "table"), trigger)) {
            TestInputTopic<String, String> table = Drivers.input(d, "table");
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");
            table.pipeInput("1", "one", at(0));
            table.pipeInput("2", "two", at(0));

            in.pipeInput("k1", "1", at(0));
            in.pipeInput("k2", "3", at(1));
            in.pipeInput("k3", "2", at(2));
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(Drivers.read(out)).containsExactly("1=1,one@0", "2=2,two@2");
        }
    }

    @Test
    void shouldNameTheFileAndLineWhenTheCsvIsMalformed() throws Exception {
        Path noHeader = dir.resolve("no-header.csv");
        Files.writeString(noHeader, "key,label\n1,one\n");
        Path badLine = dir.resolve("bad-line.csv");
        Files.writeString(badLine, "lookupKey,label\n1,one\nlonely\n");

        assertThatThrownBy(() -> StreamStaticJoinExample.readCsv(noHeader))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-header.csv:1");
        assertThatThrownBy(() -> StreamStaticJoinExample.readCsv(badLine))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad-line.csv:3")
                .hasMessageContaining("lonely");
    }
}
