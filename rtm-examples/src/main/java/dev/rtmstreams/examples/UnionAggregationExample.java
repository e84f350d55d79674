package dev.rtmstreams.examples;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Produced;

/**
 * "Union with aggregation": two input topics merged, then counted by {@code (timestamp, value)} exactly as
 * {@link AggregationExample}.
 */
public final class UnionAggregationExample {

    private UnionAggregationExample() {}

    /**
     * @param input1 first input topic
     * @param input2 second input topic
     * @param output output topic
     * @return the topology
     */
    public static Topology topology(String input1, String input2, String output) {
        StreamsBuilder b = new StreamsBuilder();
        AggregationExample.countByTimestampAndValue(UnionExample.union(b, input1, input2))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }
}
