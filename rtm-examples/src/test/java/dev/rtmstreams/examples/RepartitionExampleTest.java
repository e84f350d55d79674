package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.SizingReport;
import dev.rtmstreams.topology.SubtopologySizing;
import dev.rtmstreams.topology.Trigger;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RepartitionExampleTest {

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldWriteEveryRecordThroughTheShuffleWhenRunUnderEitherTrigger(Trigger trigger) {
        try (TopologyTestDriver d = Drivers.driver(RepartitionExample.topology("in", "out", 20), trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            TestOutputTopic<String, String> out = Drivers.output(d, "out");

            in.pipeInput("k1", "a", at(0));
            in.pipeInput("k2", "b", at(1));
            in.pipeInput("k1", "c", at(2));
            d.advanceWallClockTime(Drivers.BATCH);

            assertThat(Drivers.read(out)).containsExactly("k1=a@0", "k2=b@1", "k1=c@2");
        }
    }

    @Test
    void shouldNeedOneSlotPerSourceAndShuffleTaskWhenSizedLikeThePage() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "repartition-sizing");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        try (RtmStreams rtm = RtmStreams.builder(RepartitionExample.topology("in", "out", 20), p)
                .partitionCounts(Map.of("in", 8))
                .build()) {
            SizingReport report = rtm.sizingReport();

            // the seed's example: 8 source + 20 shuffle tasks = 28 slots
            assertThat(report.totalTasks()).isEqualTo(28);
            assertThat(report.subtopologies())
                    .extracting(SubtopologySizing::tasks, SubtopologySizing::repartitionStage)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(8, false),
                            org.assertj.core.groups.Tuple.tuple(20, true));
            assertThat(report.sufficient()).isFalse();
        }
    }

    @Test
    void shouldRejectANonPositivePartitionCount() {
        assertThatThrownBy(() -> RepartitionExample.topology("in", "out", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }
}
