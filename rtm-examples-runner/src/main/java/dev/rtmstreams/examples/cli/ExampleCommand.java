package dev.rtmstreams.examples.cli;

import dev.rtmstreams.examples.internals.ExampleRunner;
import dev.rtmstreams.examples.internals.ExampleSpec;
import dev.rtmstreams.examples.internals.ExampleSpec.RunTopics;
import dev.rtmstreams.examples.internals.RunSettings;
import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.kafka.streams.Topology;
import picocli.CommandLine;

/**
 * Base of every example command: parses the shared options, then runs the example with {@link ExampleRunner}. The
 * {@code @Command} attributes below hold for every example (picocli applies a superclass's attributes to its
 * subclasses; each example's own {@code @Command} adds its name and description).
 */
@CommandLine.Command(mixinStandardHelpOptions = true, sortOptions = false)
abstract class ExampleCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    @CommandLine.Mixin
    RunOptions options = new RunOptions();

    /** @return the example to run, with the command's own options applied */
    abstract ExampleSpec example();

    /**
     * The spec of an example named after this command that writes Kafka records keeping their source time as their
     * timestamp.
     *
     * @param description one line for the run's header
     * @param inputs number of input topics (1 or 2)
     * @param stateful whether the topology keeps state
     * @param topology builds the topology of a run
     * @return the spec
     */
    ExampleSpec spec(String description, int inputs, boolean stateful, Function<RunTopics, Topology> topology) {
        return new ExampleSpec(
                commandSpec.name(), description, inputs, stateful, false, topology, ExampleSpec.RECORD_TIMESTAMP);
    }

    /** @return the rate-source rows per second when {@code --rate} is not given */
    double defaultRate() {
        return 1000;
    }

    /** @return {@code --duplicate-every} when not given */
    int defaultDuplicateEvery() {
        return 0;
    }

    /** @return {@code --distinct-values} when not given */
    long defaultDistinctValues() {
        return 0;
    }

    /** @return output rows printed as they arrive */
    int displayRows() {
        return 0;
    }

    /** @return rows of the static table's compacted topic, or null when the example has none */
    Map<String, String> tableRows() {
        return null;
    }

    @Override
    public Integer call() throws Exception {
        CommandLine cl = commandSpec.commandLine();
        RunSettings settings = settings(cl);
        new ExampleRunner(example(), settings, cl.getOut()).run();
        return 0;
    }

    RunSettings settings(CommandLine cl) {
        RunOptions o = options;
        double rate = o.rate == null ? defaultRate() : o.rate;
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new CommandLine.ParameterException(
                    cl, "Invalid value for option '--rate': must be positive: " + rate);
        }
        Duration duration = o.duration;
        Duration warmup = o.warmup;
        Duration drain = o.drain;
        if (duration.isZero()) {
            throw new CommandLine.ParameterException(
                    cl, "Invalid value for option '--duration': must be positive: '" + o.duration + "'");
        }
        positive(cl, "--partitions", o.partitions);
        positive(cl, "--threads", o.threads);
        positive(cl, "--keys", o.keys);
        long distinct = o.distinctValues == null ? defaultDistinctValues() : o.distinctValues;
        int duplicates = o.duplicateEvery == null ? defaultDuplicateEvery() : o.duplicateEvery;
        if (distinct < 0) {
            throw new CommandLine.ParameterException(
                    cl, "Invalid value for option '--distinct-values': must not be negative: " + distinct);
        }
        if (duplicates < 0) {
            throw new CommandLine.ParameterException(
                    cl, "Invalid value for option '--duplicate-every': must not be negative: " + duplicates);
        }
        boolean rateSource;
        switch (o.source) {
            case "rate" -> rateSource = true;
            case "kafka" -> rateSource = false;
            default ->
                throw new CommandLine.ParameterException(
                        cl, "Invalid value for option '--source': expected rate or kafka: '" + o.source + "'");
        }
        int inputs = example().inputs();
        if (!rateSource) {
            if (o.bootstrapServers == null) {
                throw new CommandLine.ParameterException(
                        cl, "--source kafka reads existing topics: it needs --bootstrap-servers");
            }
            if (o.inputTopics.size() != inputs
                    || (o.outputTopic == null && !example().externalSink())) {
                throw new CommandLine.ParameterException(
                        cl,
                        "--source kafka needs " + inputs + " --input-topic and one --output-topic: got " + o.inputTopics
                                + " and " + o.outputTopic);
            }
        }
        List<Trigger> triggers = o.parseTriggers(cl);
        if (o.serve && (rateSource || triggers.size() != 1)) {
            throw new CommandLine.ParameterException(
                    cl,
                    "--serve needs --source kafka and exactly one --trigger: got --source " + o.source
                            + " and --trigger " + String.join(",", o.triggers));
        }
        return new RunSettings(
                triggers,
                rate,
                duration,
                warmup,
                drain,
                o.partitions,
                o.threads,
                o.bootstrapServers,
                rateSource,
                o.inputTopics,
                o.outputTopic,
                o.keys,
                distinct,
                duplicates,
                displayRows(),
                tableRows(),
                o.kafka,
                o.serve);
    }

    static void positive(CommandLine cl, String option, long value) {
        if (value < 1) {
            throw new CommandLine.ParameterException(
                    cl, "Invalid value for option '" + option + "': must be positive: " + value);
        }
    }
}
