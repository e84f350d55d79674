package dev.rtmstreams.examples;

import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * "transformWithState": the input, grouped by its Kafka key, goes through {@link RtmStatefulProcessor} in processing
 * time; each output is {@code key -> "count,sourceTimestamp,key"} ({@link KeyCount}). The input is already keyed by
 * the grouping key, so no shuffle is needed.
 */
public final class TwsCounterExample {

    private TwsCounterExample() {}

    /**
     * @param input input topic
     * @param output output topic
     * @return the topology
     */
    public static Topology topology(String input, String output) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .processValues(Rows.sourceTimestamp(), Named.as("source-timestamp"))
                .processValues(
                        TransformWithState.builder(RtmStatefulProcessor::new, TimeMode.PROCESSING_TIME)
                                .name("rtm-stateful-processor")
                                .keySerde(Serdes.String())
                                .valueSerde(Serdes.Long())
                                .build()
                                .asFixedKey(),
                        Named.as("rtm-stateful-processor"))
                .to(output, Produced.with(Serdes.String(), KeyCount.serde()));
        return b.build();
    }
}
