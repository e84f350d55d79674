package dev.rtmstreams.processor;

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
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serde;
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
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * TopologyTestDriver around one operator: String keys, input topic "in", output topic "out". Tracks the wall clock
 * so that the driver can be restarted at the same time on a fresh state directory with the store rebuilt from every
 * changelog record written so far: a changelog restore (TTD neither replays changelogs nor keeps its state directory
 * on close, so this is how a crash + restore is simulated here; the embedded-broker test covers the real path).
 */
final class Harness<I, O> implements AutoCloseable {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private TransformWithState<String, I, O> tws;
    private final Serde<I> inSerde;
    private final Serde<O> outSerde;
    private final Properties extra;
    private final boolean fixedKey;
    private Path stateDir;
    private final List<Path> dirs = new ArrayList<>();
    private final List<KeyValue<Bytes, byte[]>> changelog = new ArrayList<>();
    private Instant wall = START;

    TopologyTestDriver driver;
    TestInputTopic<String, I> in;
    TestOutputTopic<String, O> out;

    Harness(TransformWithState<String, I, O> tws, Serde<I> inSerde, Serde<O> outSerde, Properties extra) {
        this(tws, inSerde, outSerde, extra, false);
    }

    /** @param fixedKey true: wire the operator with {@code processValues(tws.asFixedKey())} instead of {@code process} */
    Harness(
            TransformWithState<String, I, O> tws,
            Serde<I> inSerde,
            Serde<O> outSerde,
            Properties extra,
            boolean fixedKey) {
        this.fixedKey = fixedKey;
        this.tws = tws;
        this.inSerde = inSerde;
        this.outSerde = outSerde;
        this.extra = extra == null ? new Properties() : extra;
        this.stateDir = newDir();
        open();
    }

    static <I, O> Harness<I, O> of(TransformWithState<String, I, O> tws, Serde<I> inSerde, Serde<O> outSerde) {
        return new Harness<>(tws, inSerde, outSerde, null);
    }

    static Harness<String, String> strings(TransformWithState<String, String, String> tws) {
        return of(tws, Serdes.String(), Serdes.String());
    }

    static Harness<String, String> strings(TransformWithState<String, String, String> tws, Properties extra) {
        return new Harness<>(tws, Serdes.String(), Serdes.String(), extra);
    }

    private Path newDir() {
        try {
            Path d = Files.createTempDirectory("rtm-tws-test");
            dirs.add(d);
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Opens the driver on the current state directory, its store restored from {@link #changelog} first. */
    private void open() {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, I> input = b.stream("in", Consumed.with(Serdes.String(), inSerde));
        ChangelogRestore restore = new ChangelogRestore(tws, changelog);
        KStream<String, O> output = fixedKey
                ? input.processValues(restore.of(tws.asFixedKey()), Named.as("tws"))
                : input.process(restore.of(tws), Named.as("tws"));
        output.to("out", Produced.with(Serdes.String(), outSerde));
        Properties p = driverProperties("harness", stateDir);
        p.putAll(extra);
        driver = new TopologyTestDriver(b.build(), p, wall);
        in = driver.createInputTopic("in", Serdes.String().serializer(), inSerde.serializer(), wall, Duration.ZERO);
        out = driver.createOutputTopic("out", Serdes.String().deserializer(), outSerde.deserializer());
    }

    /** @return the driver configs of these tests: String default serdes, state in {@code stateDir} */
    static Properties driverProperties(String applicationId, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return p;
    }

    void pipe(String key, I value) {
        in.pipeInput(key, value, wall.toEpochMilli());
    }

    void pipe(String key, I value, long timestampMs) {
        in.pipeInput(key, value, timestampMs);
    }

    void pipe(String key, I value, long timestampMs, Headers headers) {
        in.pipeInput(new TestRecord<>(key, value, headers, timestampMs));
    }

    /** Moves the wall clock while the driver is "down": use before {@link #restartFromChangelog()}. */
    void advanceWhileDown(long ms) {
        wall = wall.plusMillis(ms);
    }

    void advance(Duration d) {
        wall = wall.plus(d);
        driver.advanceWallClockTime(d);
    }

    void advanceMs(long ms) {
        advance(Duration.ofMillis(ms));
    }

    /** @return current wall-clock time in epoch ms */
    long now() {
        return wall.toEpochMilli();
    }

    List<KeyValue<String, O>> drain() {
        List<KeyValue<String, O>> r = new ArrayList<>();
        for (TestRecord<String, O> t : drainRecords()) {
            r.add(KeyValue.pair(t.key(), t.value()));
        }
        return r;
    }

    List<O> drainValues() {
        List<O> r = new ArrayList<>();
        for (TestRecord<String, O> t : drainRecords()) {
            r.add(t.value());
        }
        return r;
    }

    List<TestRecord<String, O>> drainRecords() {
        List<TestRecord<String, O>> r = new ArrayList<>(pendingOut);
        pendingOut.clear();
        r.addAll(out.readRecordsToList());
        return r;
    }

    KeyValueStore<Bytes, byte[]> store() {
        return driver.getKeyValueStore(tws.storeName());
    }

    /** @return number of store entries whose key starts with {@code tag} (see the internal layout) */
    int countSection(byte tag) {
        int n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store().all()) {
            while (it.hasNext()) {
                if (it.next().key.get()[0] == tag) {
                    n++;
                }
            }
        }
        return n;
    }

    private final List<TestRecord<String, O>> pendingOut = new ArrayList<>();

    private void collectChangelog() {
        pendingOut.addAll(out.readRecordsToList());
        changelog.addAll(ChangelogRestore.readChangelog(driver, "harness", tws));
    }

    /** Restarts from the changelog with another version of the operator (same name, so the same store). */
    void restartFromChangelog(TransformWithState<String, I, O> newVersion) {
        this.tws = newVersion;
        restartFromChangelog();
    }

    /** @return every changelog record of the operator store written so far, in order */
    List<KeyValue<Bytes, byte[]>> changelogSoFar() {
        collectChangelog();
        return List.copyOf(changelog);
    }

    /**
     * Appends a changelog record as another release would have written it (e.g. a metadata record of a newer format
     * version); the next {@link #restartFromChangelog()} restores it after every record written so far.
     */
    void appendToChangelog(Bytes key, byte[] value) {
        collectChangelog();
        changelog.add(KeyValue.pair(key, value));
    }

    /**
     * Closes the driver, wipes local state and reopens with the store rebuilt from {@code records} alone (e.g. a golden
     * fixture written by an earlier release), not from what this harness wrote so far.
     */
    void restartFrom(List<KeyValue<Bytes, byte[]>> records) {
        if (driver != null) {
            driver.close();
            driver = null;
        }
        pendingOut.clear();
        changelog.clear();
        changelog.addAll(records);
        stateDir = newDir();
        open();
    }

    /** @return the RocksDB directory of the operator store of task 0_0 (ROCKS_DB backend) */
    Path rocksDbDirectory() {
        return stateDir.resolve("harness").resolve("0_0").resolve("rocksdb").resolve(tws.storeName());
    }

    /**
     * Closes the driver, wipes local state and reopens with the store rebuilt from every changelog record so far,
     * before the processors' init (as Kafka Streams restores a store before it initializes the processors). When the
     * operator refuses the restart, the exception of its init propagates and the harness has no driver.
     */
    void restartFromChangelog() {
        if (driver != null) {
            collectChangelog();
            driver.close();
            driver = null;
        }
        stateDir = newDir();
        open();
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
