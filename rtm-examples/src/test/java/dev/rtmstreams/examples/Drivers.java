package dev.rtmstreams.examples;

import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

/** TopologyTestDriver set-up shared by the example tests: the driver runs with the trigger's configuration. */
final class Drivers {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final Duration BATCH = Duration.ofSeconds(1);
    static final Trigger REAL_TIME = Trigger.realTime();
    static final Trigger MICRO_BATCH = Trigger.microBatch(BATCH);

    private Drivers() {}

    static Stream<Trigger> triggers() {
        return Stream.of(REAL_TIME, MICRO_BATCH);
    }

    static TopologyTestDriver driver(Topology topology, Trigger trigger) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "examples-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try {
            p.put(
                    StreamsConfig.STATE_DIR_CONFIG,
                    Files.createTempDirectory("examples-test-").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TopologyTestDriver(topology, RtmStreams.configFor(p, trigger), START);
    }

    static TestInputTopic<String, String> input(TopologyTestDriver d, String topic) {
        return d.createInputTopic(
                topic, Serdes.String().serializer(), Serdes.String().serializer());
    }

    static TestOutputTopic<String, String> output(TopologyTestDriver d, String topic) {
        return d.createOutputTopic(
                topic, Serdes.String().deserializer(), Serdes.String().deserializer());
    }

    /** @return each output record as {@code key=value@millis-since-START} */
    static List<String> read(TestOutputTopic<String, String> out) {
        return out.readRecordsToList().stream()
                .map(r -> r.key() + "=" + r.value() + "@" + (r.timestamp() - START.toEpochMilli()))
                .toList();
    }

    static Instant at(long millis) {
        return START.plusMillis(millis);
    }
}
