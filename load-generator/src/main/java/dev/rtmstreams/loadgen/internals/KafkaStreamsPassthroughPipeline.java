package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.adattribution.model.AvroSerde;
import dev.rtmstreams.adattribution.workload.TopicNames;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The Kafka Streams pass-through peer of the benchmark: the {@link EchoPipeline}'s work (read impressions and clicks,
 * copy every click to the echo topic) done by Kafka Streams, with the join peers' serdes, so that its outputs are
 * checked like the echo's (one copy per click sent) and its cost is what any Kafka Streams application on this
 * workload pays before its first operator: poll, decode, the stream thread's loop, encode, send.
 *
 * <pre>
 * impressions --(decoded, dropped)--+
 *                                    +-- merge --> attributed-clicks-echo (re-encoded, record timestamp kept)
 * clicks ----------------------------+
 * </pre>
 *
 * <p>Both inputs are read in one sub-topology, so each task reads partition {@code i} of both topics, as the join's
 * tasks do: separate sub-topologies would double the tasks and let the impressions run on their own.
 */
public final class KafkaStreamsPassthroughPipeline {

    private KafkaStreamsPassthroughPipeline() {}

    /**
     * Builds the topology.
     *
     * @param topics topic names (reads impressions and clicks, writes echo)
     * @return the topology
     */
    public static Topology topology(TopicNames topics) {
        AvroSerde<Click> clickSerde = AdAttributionSerdes.click();
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, Click> noClicks = builder.stream(
                        topics.impressions(),
                        Consumed.with(Serdes.String(), AdAttributionSerdes.impression())
                                .withName("impressions"))
                .flatMapValues(impression -> List.<Click>of(), Named.as("drop-impressions"));
        builder.stream(
                        topics.clicks(),
                        Consumed.with(Serdes.String(), clickSerde).withName("clicks"))
                .merge(noClicks, Named.as("one-task-for-both-inputs"))
                .to(topics.echo(), Produced.with(Serdes.String(), clickSerde).withName("clicks-echo"));
        return builder.build();
    }
}
