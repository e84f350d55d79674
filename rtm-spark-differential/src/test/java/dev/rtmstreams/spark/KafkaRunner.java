package dev.rtmstreams.spark;

import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.testing.ChangelogRestore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Runs one rtm-streams transformWithState operator (micro-batch execution) in a {@link TopologyTestDriver}, batch by
 * batch on the driver's wall clock: each {@link #step} pipes the rows (record timestamp = event time) and advances
 * the wall clock one micro-batch interval, which runs exactly one batch at {@code start + i * interval}. A
 * {@link #restart()} closes the driver and opens a new one whose store is first rebuilt from every changelog record
 * written so far, as Kafka Streams restores a store before {@code Processor#init} (the driver replays no changelog).
 */
final class KafkaRunner implements AutoCloseable {
    private static final String APP = "diff";

    private TransformWithState<String, String, String> tws;
    private final long intervalMs;
    private final List<KeyValue<String, Long>> initialState;
    private final List<KeyValue<Bytes, byte[]>> changelog = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();
    private Instant wall;
    private TopologyTestDriver driver;
    private TestInputTopic<String, String> in;
    private TestOutputTopic<String, String> out;

    /**
     * @param tws the operator (micro-batch, interval {@code intervalMs})
     * @param startMs wall clock at start
     * @param intervalMs micro-batch interval (one step)
     * @param initialState initial-state rows piped once before the first step (empty for none)
     */
    KafkaRunner(
            TransformWithState<String, String, String> tws,
            long startMs,
            long intervalMs,
            List<KeyValue<String, Long>> initialState) {
        this.tws = tws;
        this.intervalMs = intervalMs;
        this.initialState = initialState;
        this.wall = Instant.ofEpochMilli(startMs);
    }

    void start() {
        boolean first = driver == null && changelog.isEmpty();
        StreamsBuilder b = new StreamsBuilder();
        ChangelogRestore restore = new ChangelogRestore(tws, changelog);
        KStream<String, String> input = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
        input.process(restore.of(tws), Named.as("tws")).to("out", Produced.with(Serdes.String(), Serdes.String()));
        if (!initialState.isEmpty()) {
            b.stream("init", Consumed.with(Serdes.String(), Serdes.Long()))
                    .process(restore.of(tws.initialStateProcessor()), Named.as("tws-init"));
        }
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, newDir().toString());
        driver = new TopologyTestDriver(b.build(), p, wall);
        in = driver.createInputTopic(
                "in", Serdes.String().serializer(), Serdes.String().serializer());
        out = driver.createOutputTopic(
                "out", Serdes.String().deserializer(), Serdes.String().deserializer());
        if (first && !initialState.isEmpty()) {
            TestInputTopic<String, Long> init = driver.createInputTopic(
                    "init", Serdes.String().serializer(), Serdes.Long().serializer());
            for (KeyValue<String, Long> kv : initialState) {
                init.pipeInput(kv.key, kv.value, wall.toEpochMilli());
            }
        }
    }

    private Path newDir() {
        try {
            Path d = Files.createTempDirectory("rtm-spark-diff");
            dirs.add(d);
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Pipes the rows, advances the wall clock one interval (one micro-batch). @return the output of this step */
    List<String> step(List<Event> rows) {
        for (Event e : rows) {
            in.pipeInput(e.getKey(), e.wire(), e.getTs().getTime());
        }
        wall = wall.plusMillis(intervalMs);
        driver.advanceWallClockTime(Duration.ofMillis(intervalMs));
        return out.readValuesToList();
    }

    /**
     * Closes the driver and opens a new one on the changelog written so far.
     *
     * @param next the operator to run from now on (a new version of the processor, same name), or null for the same
     */
    void restart(TransformWithState<String, String, String> next) {
        stop();
        if (next != null) {
            tws = next;
        }
        start();
    }

    void stop() {
        if (driver != null) {
            changelog.addAll(ChangelogRestore.readChangelog(driver, APP, tws));
            driver.close();
            driver = null;
        }
    }

    /** @return a reader of the operator's store (the driver must be running) */
    StateReader state() {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(tws.storeName());
        return StateReader.of(store);
    }

    @Override
    public void close() {
        stop();
        for (Path d : dirs) {
            try (var walk = Files.walk(d)) {
                walk.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                // best effort: a temp directory
            }
        }
    }
}
