package dev.rtmstreams.topology.testing;

import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * A {@link TopologyTestDriver} for a whole topology of rtm-streams operators, configured as {@link RtmStreams} would
 * run it under a {@link Trigger} ({@link RtmStreams#configFor}): the execution mode, the micro-batch interval, the
 * record caches off in real-time mode. Processing time is the driver's wall clock, which only {@link
 * #advanceWallClockTime} moves: processing-time timers, TTL expiry, idle-input watermarks and (in micro-batch mode)
 * the batches all follow it, so a test decides exactly when they happen.
 *
 * <pre>{@code
 * try (RtmTopologyTestDriver driver = RtmTopologyTestDriver.builder(topology, Trigger.realTime()).build()) {
 *     TestInputTopic<String, String> clicks = driver.createInputTopic("clicks", stringSer, stringSer);
 *     TestOutputTopic<String, Long> counts = driver.createOutputTopic("counts", stringDe, longDe);
 *     clicks.pipeInput("user-1", "click");
 *     driver.advanceWallClockTime(Duration.ofMinutes(1)); // due processing-time timers fire, TTL expires
 *     assertThat(counts.readKeyValuesToList()).containsExactly(KeyValue.pair("user-1", 1L));
 * }
 * }</pre>
 *
 * <p>Unless the given properties set them, the driver uses application id {@value #DEFAULT_APPLICATION_ID}, a
 * placeholder bootstrap address and a fresh temporary state directory, deleted on {@link #close()}. Input records
 * piped without a timestamp carry the wall-clock time at which the input topic was created (as with {@link
 * TopologyTestDriver}); pass timestamps to drive event time. Not thread-safe.
 *
 * @see TopologyModeContractChecker to compare a topology's outputs under the two triggers
 */
@InterfaceStability.Evolving
public final class RtmTopologyTestDriver implements AutoCloseable {

    /** Default start of the wall clock: 2026-01-01T00:00:00Z. */
    public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");
    /** Application id used when the given properties set none. */
    public static final String DEFAULT_APPLICATION_ID = "rtm-topology-test";

    private final Trigger trigger;
    private final Properties config;
    private final Path ownStateDir;
    private final TopologyTestDriver driver;
    private Instant now;

    private RtmTopologyTestDriver(Builder b) {
        this.trigger = b.trigger;
        this.now = b.start;
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, DEFAULT_APPLICATION_ID);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.putAll(b.properties);
        if (p.getProperty(StreamsConfig.STATE_DIR_CONFIG) == null) {
            try {
                ownStateDir = Files.createTempDirectory("rtm-topology-test");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temporary state directory", e);
            }
            p.put(StreamsConfig.STATE_DIR_CONFIG, ownStateDir.toString());
        } else {
            ownStateDir = null;
        }
        this.config = RtmStreams.configFor(p, trigger);
        this.driver = new TopologyTestDriver(b.topology, config, b.start);
    }

    /**
     * @param topology the topology under test; not null
     * @param trigger how it runs: {@link Trigger#realTime()} or {@link Trigger#microBatch(Duration)}; not null
     * @return a builder
     */
    public static Builder builder(Topology topology, Trigger trigger) {
        return new Builder(topology, trigger);
    }

    /**
     * Creates an input topic whose records, piped without a timestamp, carry the current wall-clock time.
     * @see TopologyTestDriver#createInputTopic(String, Serializer, Serializer, Instant, Duration)
     */
    public <K, V> TestInputTopic<K, V> createInputTopic(
            String topic, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        return driver.createInputTopic(topic, keySerializer, valueSerializer, now, Duration.ZERO);
    }

    /** @see TopologyTestDriver#createOutputTopic(String, Deserializer, Deserializer) */
    public <K, V> TestOutputTopic<K, V> createOutputTopic(
            String topic, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        return driver.createOutputTopic(topic, keyDeserializer, valueDeserializer);
    }

    /**
     * Moves the wall clock forward; the operators' wall-clock punctuators run (due processing-time timers fire, TTL
     * cleanup runs, a due micro-batch runs, idle inputs advance their watermark).
     *
     * @param d a non-negative duration
     * @throws IllegalArgumentException when {@code d} is negative
     */
    public void advanceWallClockTime(Duration d) {
        Objects.requireNonNull(d, "d");
        if (d.isNegative()) {
            throw new IllegalArgumentException("the wall clock cannot go back: " + d);
        }
        now = now.plus(d);
        driver.advanceWallClockTime(d);
    }

    /** @return the current wall-clock (processing) time */
    public Instant wallClockTime() {
        return now;
    }

    /** @return the trigger the topology runs under */
    public Trigger trigger() {
        return trigger;
    }

    /** @return a copy of the configuration the driver runs with (the given properties as the trigger sets them) */
    public Properties config() {
        Properties copy = new Properties();
        copy.putAll(config);
        return copy;
    }

    /** @return the underlying driver, e.g. for {@code getKeyValueStore} or {@code metrics()} */
    public TopologyTestDriver driver() {
        return driver;
    }

    /** Closes the driver and deletes the state directory it created (not one given in the properties). */
    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            if (ownStateDir != null) {
                try (Stream<Path> w = Files.walk(ownStateDir)) {
                    w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                } catch (IOException ignored) {
                    // best effort: a temporary directory
                }
            }
        }
    }

    /** Builds an {@link RtmTopologyTestDriver}. */
    public static final class Builder {
        private final Topology topology;
        private final Trigger trigger;
        private final Properties properties = new Properties();
        private Instant start = DEFAULT_START;

        private Builder(Topology topology, Trigger trigger) {
            this.topology = Objects.requireNonNull(topology, "topology");
            this.trigger = Objects.requireNonNull(trigger, "trigger");
        }

        /**
         * @param props Kafka Streams and {@code rtm.*} properties (copied); one that conflicts with the trigger fails
         *     {@link #build()} with an {@link IllegalArgumentException} naming it
         * @return this builder
         */
        public Builder properties(Properties props) {
            properties.putAll(Objects.requireNonNull(props, "props"));
            return this;
        }

        /** @param start the wall clock's start (default {@link #DEFAULT_START}) @return this builder */
        public Builder startTime(Instant start) {
            this.start = Objects.requireNonNull(start, "start");
            return this;
        }

        /**
         * @return the driver, started
         * @throws IllegalArgumentException when a property conflicts with the trigger
         */
        public RtmTopologyTestDriver build() {
            return new RtmTopologyTestDriver(this);
        }
    }
}
