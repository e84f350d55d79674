package dev.rtmstreams.processor.avro;

import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.testing.ChangelogRestore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * TopologyTestDriver around one String-keyed transformWithState operator (input topic "in", output "out") that can be
 * restarted with another version of the operator ({@link #restartFromChangelog}): on a fresh state directory, the
 * store rebuilt from every changelog record written so far before the operator's init, as Kafka Streams restores a
 * store before it initializes the processors (TopologyTestDriver replays no changelog and deletes its state directory
 * on close). A restart on the local RocksDB files of a stopped operator is {@code AvroLocalStateRestartTest}'s.
 */
final class AvroHarness implements AutoCloseable {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final String APP = "avro-state";

    private TransformWithState<String, String, String> tws;
    private final Properties extra;
    private final List<Path> dirs = new ArrayList<>();
    private final List<KeyValue<Bytes, byte[]>> changelog = new ArrayList<>();
    private final List<String> pendingOut = new ArrayList<>();
    private Path stateDir;
    private Instant wall = START;

    TopologyTestDriver driver;
    private TestInputTopic<String, String> in;
    private TestOutputTopic<String, String> out;

    AvroHarness(TransformWithState<String, String, String> tws) {
        this(tws, new Properties());
    }

    AvroHarness(TransformWithState<String, String, String> tws, Properties extra) {
        this.tws = tws;
        this.extra = extra;
        this.stateDir = newDir();
        open(List.of());
    }

    private Path newDir() {
        try {
            Path d = Files.createTempDirectory("rtm-avro-test");
            dirs.add(d);
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void open(List<KeyValue<Bytes, byte[]>> restore) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(new ChangelogRestore(tws, restore).of(tws), Named.as("tws"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.putAll(extra);
        try {
            driver = new TopologyTestDriver(b.build(), p, wall);
        } catch (RuntimeException e) {
            driver = null;
            throw e;
        }
        in = driver.createInputTopic(
                "in", Serdes.String().serializer(), Serdes.String().serializer(), wall, Duration.ZERO);
        out = driver.createOutputTopic(
                "out", Serdes.String().deserializer(), Serdes.String().deserializer());
    }

    void pipe(String key, String value) {
        in.pipeInput(key, value, wall.toEpochMilli());
    }

    void advance(Duration d) {
        wall = wall.plus(d);
        driver.advanceWallClockTime(d);
    }

    long now() {
        return wall.toEpochMilli();
    }

    List<String> drain() {
        List<String> r = new ArrayList<>(pendingOut);
        pendingOut.clear();
        r.addAll(out.readValuesToList());
        return r;
    }

    KeyValueStore<Bytes, byte[]> store() {
        return driver.getKeyValueStore(tws.storeName());
    }

    private void collectChangelog() {
        pendingOut.addAll(out.readValuesToList());
        changelog.addAll(ChangelogRestore.readChangelog(driver, APP, tws));
    }

    /** @return every changelog record of the operator store written so far, in order */
    List<KeyValue<Bytes, byte[]>> changelogSoFar() {
        if (driver != null) {
            collectChangelog();
        }
        return List.copyOf(changelog);
    }

    /**
     * Stops and starts {@code next} on a fresh state directory, its store restored from every changelog record so
     * far. When {@code next} refuses the restart, the exception of its init propagates and the harness has no driver.
     */
    void restartFromChangelog(TransformWithState<String, String, String> next) {
        if (driver != null) {
            collectChangelog();
            driver.close();
            driver = null;
        }
        stateDir = newDir();
        tws = next;
        open(changelog);
    }

    @Override
    public void close() {
        if (driver != null) {
            driver.close();
        }
        for (Path d : dirs) {
            try (Stream<Path> w = Files.walk(d)) {
                w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
