package dev.rtmstreams.examples;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * "Repartition": the input is shuffled into a repartition topic of {@code partitions} partitions (Spark's
 * {@code .repartition(20)}) and written to the output topic. The shuffle is a second sub-topology with one task per
 * repartition partition; real-time mode needs a slot for every task of both stages at once, which
 * {@code RtmStreams#sizingReport()} shows (e.g. 2 source + 20 shuffle = 22 tasks). Kafka Streams partitions the
 * shuffle by key hash (Spark's {@code repartition(n)} is round-robin); Spark's {@code sortBeforeRepartition} has no
 * counterpart here, records are never sorted.
 */
public final class RepartitionExample {

    /** The repartition topic's name suffix: {@code <application.id>-shuffle-repartition}. */
    public static final String SHUFFLE_NAME = "shuffle";

    private RepartitionExample() {}

    /**
     * @param input input topic
     * @param output output topic
     * @param partitions partitions of the shuffle, positive (the page uses 20)
     * @return the topology
     * @throws IllegalArgumentException when {@code partitions < 1}
     */
    public static Topology topology(String input, String output, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be positive: " + partitions);
        }
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .repartition(Repartitioned.with(Serdes.String(), Serdes.String())
                        .withName(SHUFFLE_NAME)
                        .withNumberOfPartitions(partitions))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }
}
