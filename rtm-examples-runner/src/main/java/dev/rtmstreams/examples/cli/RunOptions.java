package dev.rtmstreams.examples.cli;

import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options every example shares (a picocli mixin). Durations are parsed by picocli with
 * {@link dev.rtmstreams.cli.DurationConverter} (registered by {@link Main}).
 */
public final class RunOptions {

    @Option(
            names = "--trigger",
            paramLabel = "MODE",
            split = ",",
            defaultValue = "real-time,micro-batch",
            description =
                    "Triggers to run, in order, each on fresh topics: real-time, micro-batch. Default: ${DEFAULT-VALUE}.")
    List<String> triggers;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            defaultValue = "PT5M",
            description = "Checkpoint interval of the real-time trigger (PT5M or 5m). Default: ${DEFAULT-VALUE}.")
    Duration checkpointInterval;

    @Option(
            names = "--micro-batch-interval",
            paramLabel = "DURATION",
            defaultValue = "PT1S",
            description = "Batch interval of the micro-batch trigger (PT1S or 1s; PT0S = as fast as possible)."
                    + " Default: ${DEFAULT-VALUE}.")
    Duration microBatchInterval;

    @Option(
            names = "--rate",
            paramLabel = "ROWS_PER_S",
            description = "Rows per second of the rate source. Default: 1000 (10 for the rate example).")
    Double rate;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "PT10S",
            description = "How long each run sends input (PT30S or 30s). Default: ${DEFAULT-VALUE}.")
    Duration duration;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            defaultValue = "PT2S",
            description = "Start of each run left out of the latency figures. Default: ${DEFAULT-VALUE}.")
    Duration warmup;

    @Option(
            names = "--drain",
            paramLabel = "DURATION",
            defaultValue = "PT2S",
            description = "After the input ends, a run ends once no output came for this long (at least two"
                    + " micro-batches). Default: ${DEFAULT-VALUE}.")
    Duration drain;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "2",
            description = "Partitions of each input and output topic. Default: ${DEFAULT-VALUE}.")
    int partitions;

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "2",
            description =
                    "At most this many stream threads (slots); tasks are packed onto them. Default: ${DEFAULT-VALUE}.")
    int threads;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            description = "Run against this Kafka cluster instead of an embedded KRaft broker.")
    String bootstrapServers;

    @Option(
            names = "--source",
            paramLabel = "rate|kafka",
            defaultValue = "rate",
            description = "rate: the rate source feeds fresh topics (default); kafka: read --input-topic, write"
                    + " --output-topic on --bootstrap-servers, nothing is produced.")
    String source;

    @Option(
            names = "--input-topic",
            paramLabel = "TOPIC",
            description = "With --source kafka: an input topic (repeat for examples with two inputs).")
    List<String> inputTopics = new ArrayList<>();

    @Option(names = "--output-topic", paramLabel = "TOPIC", description = "With --source kafka: the output topic.")
    String outputTopic;

    @Option(
            names = "--serve",
            description =
                    "With --source kafka and one --trigger: run until stopped (SIGTERM) instead of for --duration,"
                            + " without reading the output topic; prints 'EXAMPLE READY' once the application runs (the system"
                            + " under test of load-generator's bench --workload).")
    boolean serve;

    @Option(
            names = "--keys",
            paramLabel = "N",
            defaultValue = "100",
            description = "Rate source: distinct keys (key-0...). Default: ${DEFAULT-VALUE}.")
    int keys;

    @Option(
            names = "--distinct-values",
            paramLabel = "N",
            description = "Rate source: values wrap around at N (0 = unbounded counter). Default: 1000 for"
                    + " stream-static-join, else 0.")
    Long distinctValues;

    @Option(
            names = "--duplicate-every",
            paramLabel = "N",
            description = "Rate source: send every N-th row twice (0 = never). Default: 10 for dedup, aggregation and"
                    + " union-aggregation, else 0.")
    Integer duplicateEvery;

    @Option(
            names = "--kafka",
            paramLabel = "KEY=VALUE",
            description = "Extra Kafka Streams property, repeatable (e.g. producer.linger.ms=0).")
    Map<String, String> kafka = new LinkedHashMap<>();

    List<Trigger> parseTriggers(CommandLine cl) {
        List<Trigger> list = new ArrayList<>();
        for (String t : triggers) {
            try {
                list.add(
                        switch (t.trim()) {
                            case "real-time" -> Trigger.realTime(checkpointInterval);
                            case "micro-batch" -> Trigger.microBatch(microBatchInterval);
                            default ->
                                throw new CommandLine.ParameterException(
                                        cl,
                                        "Invalid value for option '--trigger': expected real-time or micro-batch: '" + t
                                                + "'");
                        });
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "Invalid trigger '" + t + "': " + e.getMessage());
            }
        }
        return list;
    }
}
