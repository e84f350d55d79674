package com.example.clicks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/** The whole topology in Kafka's TopologyTestDriver, under the real-time trigger's configuration. */
class ClickCountsTopologyTest {

    @Test
    void shouldCountEveryClickAtOnceAndReportTheCountAgainAMinuteLater() {
        Properties props = new Properties();
        props.put("application.id", "click-counts-test");
        props.put("bootstrap.servers", "unused:9092");
        Properties config = RtmStreams.configFor(props, Trigger.realTime(Duration.ofMinutes(5)));
        Instant start = Instant.parse("2026-01-01T00:00:00Z");

        try (TopologyTestDriver driver = new TopologyTestDriver(ClickCounts.topology(), config, start)) {
            TestInputTopic<String, String> clicks = driver.createInputTopic(
                    "clicks", Serdes.String().serializer(), Serdes.String().serializer(), start, Duration.ZERO);
            TestOutputTopic<String, Long> counts = driver.createOutputTopic(
                    "click-counts", Serdes.String().deserializer(), Serdes.Long().deserializer());

            clicks.pipeInput("ad-1", "click");
            clicks.pipeInput("ad-2", "click");
            clicks.pipeInput("ad-1", "click");
            assertEquals(
                    List.of(KeyValue.pair("ad-1", 1L), KeyValue.pair("ad-2", 1L), KeyValue.pair("ad-1", 2L)),
                    counts.readKeyValuesToList(),
                    "one count per click, at once");

            driver.advanceWallClockTime(Duration.ofSeconds(59));
            assertEquals(List.of(), counts.readKeyValuesToList(), "no timer is due before a minute");

            driver.advanceWallClockTime(Duration.ofSeconds(2));
            assertEquals(
                    List.of(KeyValue.pair("ad-1", 2L), KeyValue.pair("ad-2", 1L)),
                    counts.readKeyValuesToList(),
                    "a minute after the clicks, with no input, each key's count again");
        }
    }
}
