package dev.rtmstreams.processor.testing;

import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.internals.StoreInspector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serde;
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
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs one {@link TransformWithState} operator in a {@link TopologyTestDriver} (input topic {@value #INPUT_TOPIC},
 * output topic {@value #OUTPUT_TOPIC}) so that a processor can be unit-tested: feed rows per key, move processing
 * time by hand, read the output, list a key's pending timers and read the watermark.
 *
 * <pre>{@code
 * try (var h = StatefulProcessorTestHarness.of(tws, Serdes.String(), Serdes.String(), Serdes.Long())) {
 *     h.input("user-1", "click");
 *     h.advanceProcessingTime(Duration.ofSeconds(30));     // due processing-time timers fire
 *     assertThat(h.readOutput()).containsExactly(KeyValue.pair("user-1", 1L));
 *     assertThat(h.pendingTimers("user-1")).isEmpty();
 * }
 * }</pre>
 *
 * <p>Requires {@code org.apache.kafka:kafka-streams-test-utils} on the test classpath (an optional dependency of this
 * module). The operator's state serdes come from the operator's builder or, when it sets none, from the application
 * default serdes, which the harness sets to the classes of the given key and input serdes when they have a public
 * no-argument constructor (e.g. {@code Serdes.String()}) and {@code config} does not set them. Not thread-safe.
 *
 * @param <K> grouping key
 * @param <I> input row type
 * @param <O> output row type
 */
@InterfaceStability.Evolving
public final class StatefulProcessorTestHarness<K, I, O> implements AutoCloseable {

    /** Name of the input topic. */
    public static final String INPUT_TOPIC = "rtm-harness-in";
    /** Name of the output topic. */
    public static final String OUTPUT_TOPIC = "rtm-harness-out";
    /** Default start of the wall clock: 2026-01-01T00:00:00Z. */
    public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

    private final TransformWithState<K, I, O> operator;
    private final Serde<K> keySerde;
    private final Path stateDir;
    private final TopologyTestDriver driver;
    private final TestInputTopic<K, I> in;
    private final TestOutputTopic<K, O> out;
    private Instant now;

    private StatefulProcessorTestHarness(
            TransformWithState<K, I, O> operator,
            Serde<K> keySerde,
            Serde<I> inputSerde,
            Serde<O> outputSerde,
            Instant start,
            Properties config) {
        this.operator = Objects.requireNonNull(operator, "operator");
        this.keySerde = Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(inputSerde, "inputSerde");
        Objects.requireNonNull(outputSerde, "outputSerde");
        this.now = Objects.requireNonNull(start, "start");
        try {
            this.stateDir = Files.createTempDirectory("rtm-harness");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StreamsBuilder b = new StreamsBuilder();
        b.stream(INPUT_TOPIC, Consumed.with(keySerde, inputSerde))
                .process(operator, Named.as(operator.name()))
                .to(OUTPUT_TOPIC, Produced.with(keySerde, outputSerde));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "rtm-harness");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        putDefaultSerde(p, StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, keySerde);
        putDefaultSerde(p, StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, inputSerde);
        if (config != null) {
            p.putAll(config);
        }
        this.driver = new TopologyTestDriver(b.build(), p, start);
        this.in = driver.createInputTopic(
                INPUT_TOPIC, keySerde.serializer(), inputSerde.serializer(), start, Duration.ZERO);
        this.out = driver.createOutputTopic(OUTPUT_TOPIC, keySerde.deserializer(), outputSerde.deserializer());
    }

    private static void putDefaultSerde(Properties p, String key, Serde<?> serde) {
        try {
            serde.getClass().getConstructor();
            p.put(key, serde.getClass());
        } catch (NoSuchMethodException e) {
            // no default: the operator's builder must name its serdes
        }
    }

    /**
     * @param operator the operator under test (its own builder settings apply); not null
     * @param keySerde serde of the grouping key; not null
     * @param inputSerde serde of the input rows; not null
     * @param outputSerde serde of the output rows; not null
     * @return a harness whose wall clock starts at {@link #DEFAULT_START}
     */
    public static <K, I, O> StatefulProcessorTestHarness<K, I, O> of(
            TransformWithState<K, I, O> operator, Serde<K> keySerde, Serde<I> inputSerde, Serde<O> outputSerde) {
        return new StatefulProcessorTestHarness<>(operator, keySerde, inputSerde, outputSerde, DEFAULT_START, null);
    }

    /**
     * @param start initial wall-clock (processing) time; not null
     * @param config extra Kafka Streams / {@code rtm.*} configs, e.g. {@code rtm.execution.mode}; may be null
     * @return a harness as {@link #of(TransformWithState, Serde, Serde, Serde)} with a chosen start and configs
     */
    public static <K, I, O> StatefulProcessorTestHarness<K, I, O> of(
            TransformWithState<K, I, O> operator,
            Serde<K> keySerde,
            Serde<I> inputSerde,
            Serde<O> outputSerde,
            Instant start,
            Properties config) {
        return new StatefulProcessorTestHarness<>(operator, keySerde, inputSerde, outputSerde, start, config);
    }

    /** Feeds one row with the current processing time as record timestamp (the event time by default). */
    public void input(K key, I row) {
        input(key, row, now.toEpochMilli());
    }

    /** Feeds one row with the given record timestamp. */
    public void input(K key, I row, long timestampMs) {
        in.pipeInput(key, row, timestampMs);
    }

    /** Feeds one row with the given record timestamp and headers (may be null). */
    public void input(K key, I row, long timestampMs, Headers headers) {
        in.pipeInput(new TestRecord<>(key, row, headers, timestampMs));
    }

    /**
     * Moves processing time forward; the operator's wall-clock punctuator runs once (due processing-time timers
     * fire, a due micro-batch runs, TTL cleanup runs), as with {@code TopologyTestDriver#advanceWallClockTime}.
     *
     * @param d a non-negative duration
     * @throws IllegalArgumentException when {@code d} is negative
     */
    public void advanceProcessingTime(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("processing time cannot go back: " + d);
        }
        now = now.plus(d);
        driver.advanceWallClockTime(d);
    }

    /** @return the current processing (wall-clock) time in epoch ms */
    public long processingTimeMs() {
        return now.toEpochMilli();
    }

    /** @return output produced since the last read, as key-value pairs, in order; consumes it */
    public List<KeyValue<K, O>> readOutput() {
        List<KeyValue<K, O>> r = new ArrayList<>();
        for (TestRecord<K, O> t : out.readRecordsToList()) {
            r.add(KeyValue.pair(t.key(), t.value()));
        }
        return r;
    }

    /** @return output records (with timestamps and headers) produced since the last read, in order; consumes them */
    public List<TestRecord<K, O>> readOutputRecords() {
        return out.readRecordsToList();
    }

    /** @return the pending timers (epoch ms, ascending) of {@code key}; empty when it has none */
    public List<Long> pendingTimers(K key) {
        return StoreInspector.timers(store(), keySerde.serializer().serialize(operator.storeName(), key));
    }

    /** @return the operator's current event-time watermark, empty before the first one (and outside event time) */
    public OptionalLong watermark() {
        return StoreInspector.watermark(store());
    }

    /** @return the underlying driver, e.g. for {@code metrics()} */
    public TopologyTestDriver driver() {
        return driver;
    }

    private KeyValueStore<Bytes, byte[]> store() {
        return driver.getKeyValueStore(operator.storeName());
    }

    /** Closes the driver and deletes its state directory. */
    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            try (Stream<Path> w = Files.walk(stateDir)) {
                w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
