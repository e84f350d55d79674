package dev.rtmstreams.processor.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmAssertions;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.RtmProcessorConfig;
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
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Spark's {@code testStream} DSL over a {@link TopologyTestDriver} running one {@code transformWithState} operator
 * with String keys, input rows and output rows.
 *
 * <p>Mapping: {@code AddData} is {@link #add}; {@code AdvanceManualClock(ms)} is {@link #advance} (the wall clock,
 * which is processing time); {@code CheckNewAnswer(...)} is {@link #check} (drain the output and compare it with
 * Spark's expected rows as a multiset, as Spark's {@code CheckNewAnswer} does for unsorted results);
 * {@code ExpectFailure} is {@link #expectFailure} (the {@link RtmException} code and parameters, found in the
 * cause chain); {@code StopStream} + {@code StartStream} is {@link #restart} (the driver is closed, the local state
 * wiped and the store rebuilt from every changelog record written so far, a real changelog restore).
 *
 * <p>Spark's manual clock starts at 0, ours at {@link #T0}: every time this fixture gives or takes is relative to
 * {@link #T0}, so Spark's numbers (e.g. a TTL expiry of 61000) appear unchanged in the tests.
 *
 * <p>Spark's suites run with {@code Trigger.ProcessingTime("1 second")}; {@link #microBatch} gives the operator
 * builder the closest contract we have: {@link ExecutionMode#MICRO_BATCH} with a 1 s interval, so rows added
 * between two clock advances are handled in one batch whose processing time is the clock after the advance, as in
 * Spark.
 */
final class SparkTwsPort implements AutoCloseable {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final long T0 = START.toEpochMilli();

    private TransformWithState<String, String, String> tws;
    private final List<Path> dirs = new ArrayList<>();
    private final List<KeyValue<Bytes, byte[]>> changelog = new ArrayList<>();
    private final List<KeyValue<String, String>> pending = new ArrayList<>();
    private Instant wall = START;
    private TopologyTestDriver driver;
    private TestInputTopic<String, String> in;
    private TestInputTopic<String, String> initial;
    private final boolean withInitialState;
    private TestOutputTopic<String, String> out;

    SparkTwsPort(TransformWithState<String, String, String> tws) {
        this(tws, false);
    }

    /**
     * @param withInitialState true: also wire an initial-state input of String rows ({@link #addInitial}), for a
     *     {@code StatefulProcessorWithInitialState}
     */
    SparkTwsPort(TransformWithState<String, String, String> tws, boolean withInitialState) {
        this.tws = tws;
        this.withInitialState = withInitialState;
        open();
    }

    /** Spark's {@code Trigger.ProcessingTime("1 second")}: micro-batches of 1 s on the wall clock. */
    static <K, I, O> TransformWithState.Builder<K, I, O> microBatch(TransformWithState.Builder<K, I, O> b) {
        return b.executionMode(ExecutionMode.MICRO_BATCH).microBatchInterval(Duration.ofSeconds(1));
    }

    private void open() {
        Path dir;
        try {
            dir = Files.createTempDirectory("rtm-spark-port");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        dirs.add(dir);
        StreamsBuilder b = new StreamsBuilder();
        ChangelogRestore restore = new ChangelogRestore(tws, changelog);
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(restore.of(tws), Named.as("tws"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        if (withInitialState) {
            b.stream("initial", Consumed.with(Serdes.String(), Serdes.String()))
                    .process(restore.of(tws.<String>initialStateProcessor()));
        }
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "spark-port");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        // Spark has no watermark guard: its suites move event time anywhere (e.g. Long.MaxValue / 2) whatever the
        // wall clock, so the guard is off here (WatermarkGuardTest covers it)
        p.put(RtmProcessorConfig.MAX_EVENT_TIME_SKEW_MS_CONFIG, Long.toString(Long.MAX_VALUE));
        driver = new TopologyTestDriver(b.build(), p, wall);
        in = driver.createInputTopic(
                "in", Serdes.String().serializer(), Serdes.String().serializer());
        out = driver.createOutputTopic(
                "out", Serdes.String().deserializer(), Serdes.String().deserializer());
        if (withInitialState) {
            initial = driver.createInputTopic(
                    "initial", Serdes.String().serializer(), Serdes.String().serializer());
        }
    }

    /** One row of the initial-state Dataset of {@code transformWithState(..., initialState)}. */
    void addInitial(String key, String row) {
        initial.pipeInput(key, row, wall.toEpochMilli());
    }

    /** AddData: one row for {@code key}, record timestamp (event time) = the current clock. */
    void add(String key, String row) {
        in.pipeInput(key, row, wall.toEpochMilli());
    }

    /** AddData with an explicit event time, relative to {@link #T0}. */
    void addAt(String key, String row, long eventTimeMs) {
        in.pipeInput(key, row, T0 + eventTimeMs);
    }

    /** AdvanceManualClock. */
    void advance(long ms) {
        wall = wall.plusMillis(ms);
        driver.advanceWallClockTime(Duration.ofMillis(ms));
    }

    /** @return the clock, relative to {@link #T0} */
    long now() {
        return wall.toEpochMilli() - T0;
    }

    /** @return output since the last call, as {@code "key,value"} */
    List<String> drain() {
        List<KeyValue<String, String>> r = new ArrayList<>(pending);
        pending.clear();
        r.addAll(out.readKeyValuesToList());
        List<String> s = new ArrayList<>();
        r.forEach(kv -> s.add(kv.key + "," + kv.value));
        return s;
    }

    /** CheckNewAnswer: the output since the last check is exactly {@code expected} (as a multiset). */
    void check(String... expected) {
        assertThat(drain()).containsExactlyInAnyOrder(expected);
    }

    /** ExpectFailure: {@code call} fails with an {@link RtmException} with this code and parameters. */
    static void expectFailure(ThrowingCallable call, String code, String... params) {
        RtmAssertions.assertCode(call, code, params);
    }

    /** The operator's state as Spark's state data source shows it (values, TTL expiries, timers). */
    StateReader reader() {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(tws.storeName());
        return StateReader.of(store).withKeyDeserializer(Serdes.String().deserializer());
    }

    /** StopStream + StartStream on the same checkpoint. */
    void restart() {
        restart(tws);
    }

    /**
     * StopStream + StartStream with another version of the operator (same name, so the same store). The store is
     * restored from every changelog record so far before the processors' init; when the operator refuses the restart
     * (Spark: the query fails to start), the exception of its init propagates and the port has no driver.
     */
    void restart(TransformWithState<String, String, String> next) {
        pending.addAll(out.readKeyValuesToList());
        changelog.addAll(ChangelogRestore.readChangelog(driver, "spark-port", tws));
        driver.close();
        driver = null;
        tws = next;
        open();
    }

    TopologyTestDriver driver() {
        return driver;
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
