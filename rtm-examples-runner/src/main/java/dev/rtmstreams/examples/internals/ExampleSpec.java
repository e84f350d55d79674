package dev.rtmstreams.examples.internals;

import java.util.List;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.Topology;

/**
 * One runnable example: how to build its topology for a run and how to read an output's source time.
 *
 * @param name command name, e.g. {@code stateless}
 * @param description one line for {@code list}
 * @param inputs number of input topics (1 or 2)
 * @param stateful whether the topology keeps state (reported by {@code list})
 * @param externalSink true when the topology writes to an external system through a sink that reports each committed
 *     row to {@link RunTopics#sinkCommitted()} instead of to an output topic
 * @param topology builds the topology of a run (called once per trigger)
 * @param sourceTime the source time (epoch ms) of an output record, for end-to-end latency
 */
public record ExampleSpec(
        String name,
        String description,
        int inputs,
        boolean stateful,
        boolean externalSink,
        Function<RunTopics, Topology> topology,
        ToLongFunction<ConsumerRecord<String, String>> sourceTime) {

    /** Output records whose record timestamp is the source time (Kafka Streams keeps the input's timestamp). */
    public static final ToLongFunction<ConsumerRecord<String, String>> RECORD_TIMESTAMP = ConsumerRecord::timestamp;

    /**
     * Topic names of one run.
     *
     * @param inputs the input topics
     * @param output the output topic
     * @param table the static table's compacted topic, or null when the example has none
     * @param sinkCommitted for an external sink: called with the source time of every row it committed
     */
    public record RunTopics(List<String> inputs, String output, String table, LongConsumer sinkCommitted) {
        /** Copies the list. */
        public RunTopics {
            inputs = List.copyOf(inputs);
        }
    }
}
