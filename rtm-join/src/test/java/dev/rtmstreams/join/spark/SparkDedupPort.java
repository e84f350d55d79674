package dev.rtmstreams.join.spark;

import dev.rtmstreams.join.Deduplicate;
import dev.rtmstreams.processor.ExecutionMode;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Runs a scenario of Spark's {@code StreamingDeduplicationSuite} or {@code StreamingDeduplicationWithinWatermarkSuite}
 * on {@link Deduplicate} (TopologyTestDriver, micro-batch contract as Spark's {@code testStream}); {@link #batch()}
 * runs one micro-batch and returns the values it emitted.
 *
 * <p>How Spark's operators are expressed:
 * <ul>
 *   <li>{@code dropDuplicatesWithinWatermark(cols)}: {@link Deduplicate.Builder#withinWatermark} with the record key
 *       (or id) made of {@code cols} and Spark's watermark delay.</li>
 *   <li>{@code dropDuplicates(cols)} with the event-time column among {@code cols}: the same, with the event time in
 *       the key. Spark keeps such a key until {@code watermark >= eventTime}, we until
 *       {@code watermark >= eventTime + delay}; a copy arriving in between has {@code eventTime <= watermark}, so it
 *       is late and dropped either way: the outputs are the same, only state lives longer.</li>
 *   <li>{@code dropDuplicates(cols)} without a watermark (state kept forever): {@link Deduplicate.Builder#withinTtl}
 *       with a TTL no test reaches.</li>
 * </ul>
 */
final class SparkDedupPort implements AutoCloseable {

    /** A TTL no test reaches: Spark's unbounded {@code dropDuplicates} state. */
    static final Duration FOREVER = Duration.ofDays(365L * 100);

    private final TopologyTestDriver driver;
    private final TestInputTopic<String, String> in;
    private final TestOutputTopic<String, String> out;

    /**
     * @param pipeline what runs between the input and the output stream, built from {@link #dedup} steps (and, for
     *     Spark's aggregation scenarios, Kafka Streams operators)
     */
    SparkDedupPort(Function<KStream<String, String>, KStream<String, String>> pipeline) {
        StreamsBuilder sb = new StreamsBuilder();
        pipeline.apply(sb.stream("in", Consumed.with(Serdes.String(), Serdes.String())))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "spark-dedup-port");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        try {
            p.put(
                    StreamsConfig.STATE_DIR_CONFIG,
                    java.nio.file.Files.createTempDirectory("spark-dedup-port").toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        driver = new TopologyTestDriver(sb.build(), p);
        in = driver.createInputTopic(
                "in", Serdes.String().serializer(), Serdes.String().serializer());
        out = driver.createOutputTopic(
                "out", Serdes.String().deserializer(), Serdes.String().deserializer());
    }

    /** A deduplication step by record key, micro-batch, String serdes, named {@code name}. */
    static Deduplicate.Builder<String, String, String> byKey(String name) {
        return Deduplicate.<String, String>byKey()
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .executionMode(ExecutionMode.MICRO_BATCH)
                .name(name);
    }

    /** Adds a row with this key (Spark's deduplication columns), value and event time in seconds. */
    SparkDedupPort add(String key, String value, long seconds) {
        in.pipeInput(key, value, seconds * 1000);
        return this;
    }

    /** Runs one micro-batch and returns the values it emitted (Spark's {@code CheckNewAnswer}). */
    List<String> batch() {
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        return out.readValuesToList();
    }

    @Override
    public void close() {
        driver.close();
    }
}
