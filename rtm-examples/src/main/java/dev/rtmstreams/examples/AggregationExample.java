package dev.rtmstreams.examples;

import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * "Aggregation": {@code groupBy(col("timestamp"), col("value")).count()} in update output mode, written as
 * {@code (key = value, value = count)} like the page's {@code selectExpr}. The rows are re-keyed by
 * {@link TimestampValue} and shuffled ({@code <application.id>-by-timestamp-value-repartition}), then counted by a
 * {@link CountProcessor} in {@link TransformWithState}, which follows the trigger: one updated count per row in
 * real-time mode, one per key and batch in micro-batch mode. The count state is unbounded, as Spark's aggregation
 * without a watermark.
 */
public final class AggregationExample {

    /** Name of the shuffle by {@code (timestamp, value)}. */
    public static final String SHUFFLE_NAME = "by-timestamp-value";

    private AggregationExample() {}

    /**
     * The counting operator of the example: a {@link CountProcessor} per {@link TimestampValue} key.
     *
     * @return a new operator
     */
    public static TransformWithState<TimestampValue, String, Long> counter() {
        return TransformWithState.<TimestampValue, String, Long>builder(CountProcessor::new, TimeMode.NONE)
                .name("count")
                .keySerde(TimestampValue.serde())
                .valueSerde(Serdes.String())
                .build();
    }

    /**
     * @param input input topic
     * @param output output topic
     * @return the topology
     */
    public static Topology topology(String input, String output) {
        StreamsBuilder b = new StreamsBuilder();
        countByTimestampAndValue(b.stream(input, Consumed.with(Serdes.String(), Serdes.String())))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    /**
     * The count, shared with {@link UnionAggregationExample}.
     *
     * @param rows the input rows
     * @return {@code (value, count)} updates
     */
    static KStream<String, String> countByTimestampAndValue(KStream<String, String> rows) {
        return rows.process(Rows.keyByTimestampAndValue(), Named.as("key-by-timestamp-value"))
                .repartition(Repartitioned.with(TimestampValue.serde(), Serdes.String())
                        .withName(SHUFFLE_NAME))
                .process(counter(), Named.as("count"))
                .map((tv, count) -> KeyValue.pair(tv.value(), Long.toString(count)), Named.as("select-value-count"));
    }
}
