package dev.rtmstreams.examples;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * "Kafka source to Kafka sink": every record of the input topic is written to the output topic unchanged (key,
 * value, timestamp).
 * <pre>{@code
 * Topology t = StatelessExample.topology("input", "output");
 * RtmStreams.builder(t, props).trigger(Trigger.realTime(Duration.ofMinutes(5))).build().start();
 * }</pre>
 */
public final class StatelessExample {

    private StatelessExample() {}

    /**
     * @param input input topic
     * @param output output topic
     * @return the topology
     */
    public static Topology topology(String input, String output) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }
}
