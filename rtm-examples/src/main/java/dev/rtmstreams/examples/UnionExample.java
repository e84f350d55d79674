package dev.rtmstreams.examples;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

/** "Union": two input topics merged ({@code df1.union(df2)} is {@code KStream#merge}) into one output topic. */
public final class UnionExample {

    private UnionExample() {}

    /**
     * @param input1 first input topic
     * @param input2 second input topic
     * @param output output topic
     * @return the topology
     */
    public static Topology topology(String input1, String input2, String output) {
        StreamsBuilder b = new StreamsBuilder();
        union(b, input1, input2).to(output, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    static KStream<String, String> union(StreamsBuilder b, String input1, String input2) {
        KStream<String, String> df1 = b.stream(input1, Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> df2 = b.stream(input2, Consumed.with(Serdes.String(), Serdes.String()));
        return df1.merge(df2);
    }
}
