package dev.rtmstreams.examples.internals;

import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Options of one example run, validated by the command line.
 *
 * @param triggers the triggers to run, in order (one run each)
 * @param rate rate-source rows per second
 * @param duration how long each run sends input
 * @param warmup start of each run left out of the latency figures
 * @param drainQuiet after the input ended, a run ends when no output came for this long (at least two batches)
 * @param partitions partitions of every input topic
 * @param maxThreads at most this many stream threads; tasks are packed onto them ({@code tasksPerSlot})
 * @param bootstrapServers an existing cluster, or null for an embedded broker
 * @param rateSource true: the rate source feeds fresh input topics; false: read existing {@code inputTopics}
 * @param inputTopics with {@code rateSource == false}: the topics to read (as many as the example has inputs)
 * @param outputTopic with {@code rateSource == false}: the topic to write
 * @param keys rate source: distinct keys
 * @param distinctValues rate source: values wrap around here (0 = unbounded)
 * @param duplicateEvery rate source: every n-th row is sent twice (0 = never)
 * @param displayRows print this many output rows as they arrive (Spark's {@code display})
 * @param tableRows rows written to the static table's compacted topic before the run, or null
 * @param kafkaOverrides extra Kafka Streams properties
 * @param serve with {@code rateSource == false} and one trigger: run until the JVM is stopped (SIGTERM) instead of for
 *     {@code duration}, without reading the output topic, after printing {@value ExampleRunner#READY_LINE} once the
 *     application is running (a system under test for load-generator's {@code bench})
 */
public record RunSettings(
        List<Trigger> triggers,
        double rate,
        Duration duration,
        Duration warmup,
        Duration drainQuiet,
        int partitions,
        int maxThreads,
        String bootstrapServers,
        boolean rateSource,
        List<String> inputTopics,
        String outputTopic,
        int keys,
        long distinctValues,
        int duplicateEvery,
        int displayRows,
        Map<String, String> tableRows,
        Map<String, String> kafkaOverrides,
        boolean serve) {

    /** Copies the collections and checks that {@code serve} reads existing topics under one trigger. */
    public RunSettings {
        if (serve && (rateSource || triggers.size() != 1)) {
            throw new IllegalArgumentException("serve needs the kafka source and exactly one trigger: rateSource="
                    + rateSource + ", triggers=" + triggers);
        }
        triggers = List.copyOf(triggers);
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(drainQuiet, "drainQuiet");
        inputTopics = inputTopics == null ? List.of() : List.copyOf(inputTopics);
        tableRows = tableRows == null ? null : Map.copyOf(tableRows);
        kafkaOverrides = kafkaOverrides == null ? Map.of() : Map.copyOf(kafkaOverrides);
    }
}
