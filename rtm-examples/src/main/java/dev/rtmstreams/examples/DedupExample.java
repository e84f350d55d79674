package dev.rtmstreams.examples;

import dev.rtmstreams.join.Deduplicate;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;

/**
 * "Deduplication": {@code dropDuplicates(["timestamp", "value"])}, bounded. Rows are re-keyed by
 * {@link TimestampValue} and shuffled so that duplicates meet in one task, deduplicated by rtm-join's
 * {@link Deduplicate} (the first row of a {@code (timestamp, value)} passes at once, later ones are dropped while it
 * is remembered), and written with their original key and value. Unlike Spark's unbounded {@code dropDuplicates}, a
 * pair is remembered for {@code ttl} of processing time after its first row, so state stays bounded; duplicates
 * further apart than that pass again.
 */
public final class DedupExample {

    /** Name of the shuffle by {@code (timestamp, value)}. */
    public static final String SHUFFLE_NAME = "dedup-by-timestamp-value";

    /** The default memory of the deduplication: 10 minutes. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(10);

    private DedupExample() {}

    /**
     * The deduplication operator of the example (for the mode-contract check): the first row of each
     * {@link TimestampValue} key passes, the original record key is the value.
     *
     * @param ttl how long a pair is remembered
     * @return a new operator
     */
    public static ProcessorSupplier<TimestampValue, String, TimestampValue, String> operator(Duration ttl) {
        return Deduplicate.<TimestampValue, String>byKey()
                .withinTtl(ttl)
                .keySerde(TimestampValue.serde())
                .valueSerde(Serdes.String())
                .name("dedup")
                .build();
    }

    /**
     * @param input input topic
     * @param output output topic
     * @param ttl how long (processing time) a {@code (timestamp, value)} pair is remembered; positive
     * @return the topology
     * @throws IllegalArgumentException when the ttl is not positive
     */
    public static Topology topology(String input, String output, Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be positive: " + ttl);
        }
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .process(Rows.keyByTimestampAndValue(), Named.as("key-by-timestamp-value"))
                .repartition(Repartitioned.with(TimestampValue.serde(), Serdes.String())
                        .withName(SHUFFLE_NAME))
                .process(operator(ttl), Named.as("dedup"))
                .map((tv, key) -> KeyValue.pair(key, tv.value()), Named.as("restore-row"))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }
}
