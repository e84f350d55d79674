package dev.rtmstreams.processor;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/** TopologyTestDriver around one operator: String keys, input topic "in", output topic "out". */
final class Harness<I, O> implements AutoCloseable {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    final TopologyTestDriver driver;
    final TestInputTopic<String, I> in;
    final TestOutputTopic<String, O> out;

    Harness(TransformWithState<String, I, O> tws, Serde<I> inSerde, Serde<O> outSerde, Path stateDir, Properties extra) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", Consumed.with(Serdes.String(), inSerde))
            .process(tws, Named.as("tws"))
            .to("out", Produced.with(Serdes.String(), outSerde));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "harness");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        if (stateDir != null) {
            p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        }
        if (extra != null) {
            p.putAll(extra);
        }
        driver = new TopologyTestDriver(b.build(), p, START);
        in = driver.createInputTopic("in", Serdes.String().serializer(), inSerde.serializer(), START, Duration.ZERO);
        out = driver.createOutputTopic("out", Serdes.String().deserializer(), outSerde.deserializer());
    }

    static <I, O> Harness<I, O> of(TransformWithState<String, I, O> tws, Serde<I> inSerde, Serde<O> outSerde) {
        return new Harness<>(tws, inSerde, outSerde, null, null);
    }

    void pipe(String key, I value) {
        in.pipeInput(key, value);
    }

    void pipe(String key, I value, long timestampMs) {
        in.pipeInput(key, value, timestampMs);
    }

    void advance(Duration d) {
        driver.advanceWallClockTime(d);
    }

    long now() {
        return START.toEpochMilli(); // base; tests track offsets themselves
    }

    List<KeyValue<String, O>> drain() {
        return out.readKeyValuesToList();
    }

    List<TestRecord<String, O>> drainRecords() {
        return out.readRecordsToList();
    }

    @Override
    public void close() {
        driver.close();
    }
}
