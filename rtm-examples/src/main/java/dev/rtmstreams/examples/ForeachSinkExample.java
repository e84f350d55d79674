package dev.rtmstreams.examples;

import dev.rtmstreams.topology.ForeachSink;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;

/**
 * "Custom sink": every record of the input topic goes to a {@link ForeachSink} (Spark's {@code .foreach(writer)}),
 * e.g. {@link PostgresUpsertSink}, one sink instance per task, epochs closed at each checkpoint.
 */
public final class ForeachSinkExample {

    /** The sink's name in the topology. */
    public static final String SINK_NAME = "foreach-sink";

    private ForeachSinkExample() {}

    /**
     * @param input input topic
     * @param sinks one sink per task
     * @return the topology
     */
    public static Topology topology(String input, Supplier<? extends ForeachSink<String, String>> sinks) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .process(ForeachSink.processor(SINK_NAME, sinks), Named.as(SINK_NAME));
        return b.build();
    }
}
