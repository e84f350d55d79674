package dev.rtmstreams.examples.internals;

import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.tools.Directories;
import dev.rtmstreams.tools.LatencyRecorder;
import dev.rtmstreams.tools.LatencySummary;
import dev.rtmstreams.tools.TextTable;
import dev.rtmstreams.tools.TextTable.Column;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.SizingReport;
import dev.rtmstreams.topology.SlotCheckMode;
import dev.rtmstreams.topology.Trigger;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Runs one example under each requested trigger against an embedded KRaft broker (rtm-testkit) or an existing
 * cluster: creates fresh topics per run, starts the topology with {@link RtmStreams}, feeds it with the
 * {@link RateSource}, reads the output topic and measures end-to-end latency with rtm-tools-support's
 * {@link LatencyRecorder} (output received minus the source time of the record), then prints one table row per
 * trigger. The outputs are counted and timed by {@link RunOutputs} (the output topic's reader, or an external sink's
 * commits).
 */
public final class ExampleRunner {

    /**
     * Printed on its own line once the application is running when {@link RunSettings#serve()} is set: from then on
     * every record written to the input topic is processed.
     */
    public static final String READY_LINE = "EXAMPLE READY";

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SERVE_STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DRAIN_CAP = Duration.ofSeconds(60);

    private final ExampleSpec spec;
    private final RunSettings settings;
    private final PrintWriter out;
    /** Counted down when {@link #run()} has closed the application and removed its state (ends a served run). */
    private final CountDownLatch finished = new CountDownLatch(1);

    /**
     * @param spec the example
     * @param settings the options
     * @param out where the table goes
     */
    public ExampleRunner(ExampleSpec spec, RunSettings settings, PrintWriter out) {
        this.spec = spec;
        this.settings = settings;
        this.out = out;
    }

    /**
     * Runs every trigger of the settings and prints the table.
     *
     * @return one result per trigger, in order
     * @throws Exception when the broker, a topic or the application fails
     */
    public List<RunResult> run() throws Exception {
        try {
            List<RunResult> results = runAll();
            if (!settings.serve()) {
                printTable(results);
            }
            return results;
        } finally {
            finished.countDown();
        }
    }

    private List<RunResult> runAll() throws Exception {
        List<RunResult> results = new ArrayList<>();
        if (settings.bootstrapServers() != null) {
            for (Trigger t : settings.triggers()) {
                results.add(runOnce(settings.bootstrapServers(), t));
            }
        } else {
            out.println("Starting an embedded KRaft broker...");
            out.flush();
            try (EmbeddedKafkaCluster kafka =
                    EmbeddedKafkaCluster.builder().build().start()) {
                for (Trigger t : settings.triggers()) {
                    results.add(runOnce(kafka.bootstrapServers(), t));
                }
            }
        }
        return results;
    }

    private RunResult runOnce(String bootstrap, Trigger trigger) throws Exception {
        String mode = trigger.isRealTime() ? "real-time" : "micro-batch";
        String runId = spec.name() + "." + mode + "." + Long.toString(System.currentTimeMillis(), 36);
        Map<String, Object> client = Map.of("bootstrap.servers", bootstrap);
        RunOutputs.Sink sink = spec.externalSink() ? new RunOutputs.Sink() : null;
        ExampleSpec.RunTopics topics = topics(runId, sink);
        createTopics(client, topics);
        Path stateDir = Files.createTempDirectory("rtm-examples-");
        out.printf(
                Locale.ROOT,
                "%n== %s under %s: input %s -> output %s%n",
                spec.name(),
                trigger,
                topics.inputs(),
                topics.output() == null ? "the external sink" : topics.output());
        out.flush();
        try {
            Properties props = streamsProps(bootstrap, "rtm-examples-" + runId.replace('.', '-'), stateDir);
            SizingReport sizing = size(topics, props, trigger);
            int threads = Math.min(settings.maxThreads(), sizing.totalTasks());
            int tasksPerSlot = (sizing.totalTasks() + threads - 1) / threads;
            props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(threads));
            try (RtmStreams rtm = RtmStreams.builder(spec.topology().apply(topics), props)
                            .trigger(trigger)
                            .tasksPerSlot(tasksPerSlot)
                            .build();
                    // serving: nothing is read (a sink reader that no sink reports to), the caller measures
                    RunOutputs reader = sink != null
                            ? sink
                            : settings.serve()
                                    ? new RunOutputs.Sink()
                                    : new RunOutputs.Topic(
                                            client,
                                            topics.output(),
                                            !settings.rateSource(),
                                            spec.sourceTime(),
                                            settings.displayRows(),
                                            out)) {
                SizingReport used = rtm.sizingReport();
                out.println(used);
                out.flush();
                rtm.start();
                awaitRunning(rtm);
                if (settings.serve()) {
                    out.println(READY_LINE);
                    out.flush();
                    awaitStop();
                    return new RunResult(trigger, 0, 0, 0, reader.latency(), used);
                }
                reader.start();
                reader.measureFrom(
                        System.currentTimeMillis() + settings.warmup().toMillis());
                long rows = 0;
                long records = 0;
                if (settings.rateSource()) {
                    RateSource source = RateSource.builder()
                            .rowsPerSecond(settings.rate())
                            .keys(settings.keys())
                            .distinctValues(settings.distinctValues())
                            .duplicateEvery(settings.duplicateEvery())
                            .build();
                    try (KafkaProducer<String, String> producer = producer(client)) {
                        RateSource.Result r = source.run(producer, topics.inputs(), settings.duration(), () -> false);
                        rows = r.rows();
                        records = r.records();
                        if (r.fellBehind()) {
                            out.printf(
                                    Locale.ROOT,
                                    "note: the rate source fell behind (achieved %.0f rows/s)%n",
                                    r.achievedRate());
                        }
                    }
                } else {
                    Thread.sleep(settings.duration().toMillis());
                }
                reader.awaitQuiet(quietPeriod(trigger), DRAIN_CAP);
                return new RunResult(trigger, rows, records, reader.outputs(), reader.latency(), used);
            }
        } finally {
            Directories.deleteUnchecked(stateDir);
        }
    }

    /**
     * Waits until the JVM is asked to stop (SIGTERM); its shutdown hook then waits for {@link #run()} to close the
     * application and remove the state directory.
     */
    private void awaitStop() throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            stop.countDown();
                            try {
                                finished.await(SERVE_STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "rtm-examples-serve-stop"));
        stop.await();
    }

    private ExampleSpec.RunTopics topics(String runId, RunOutputs.Sink sink) {
        java.util.function.LongConsumer committed = sink == null ? ts -> {} : sink::committed;
        String table = settings.tableRows() == null ? null : "rtm-examples." + runId + ".table";
        if (!settings.rateSource()) {
            return new ExampleSpec.RunTopics(settings.inputTopics(), settings.outputTopic(), table, committed);
        }
        List<String> inputs = new ArrayList<>();
        for (int i = 1; i <= spec.inputs(); i++) {
            inputs.add("rtm-examples." + runId + ".input" + (spec.inputs() > 1 ? i : ""));
        }
        return new ExampleSpec.RunTopics(
                inputs, spec.externalSink() ? null : "rtm-examples." + runId + ".output", table, committed);
    }

    /** Creates the run's fresh topics (rate source) and the static table's topic; existing topics are kept. */
    private void createTopics(Map<String, Object> client, ExampleSpec.RunTopics topics) throws Exception {
        List<NewTopic> list = new ArrayList<>();
        if (settings.rateSource()) {
            for (String in : topics.inputs()) {
                list.add(new NewTopic(in, Optional.of(settings.partitions()), Optional.empty()));
            }
            if (topics.output() != null) {
                list.add(new NewTopic(topics.output(), Optional.of(settings.partitions()), Optional.empty()));
            }
        }
        if (topics.table() != null) {
            list.add(new NewTopic(topics.table(), Optional.of(1), Optional.empty())
                    .configs(Map.of("cleanup.policy", "compact")));
        }
        try (Admin admin = Admin.create(client)) {
            for (NewTopic t : list) {
                try {
                    admin.createTopics(List.of(t)).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            awaitVisible(admin, list.stream().map(NewTopic::name).toList());
        }
        if (topics.table() != null) {
            try (KafkaProducer<String, String> p = producer(client)) {
                for (Map.Entry<String, String> row : settings.tableRows().entrySet()) {
                    p.send(new ProducerRecord<>(topics.table(), row.getKey(), row.getValue()));
                }
                p.flush();
            }
        }
    }

    private Properties streamsProps(String bootstrap, String appId, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // Kafka Streams 4.4 warns at every config parse unless the global thread's handler is opted in
        p.put("processing.exception.handler.global.enabled", "true");
        p.putAll(settings.kafkaOverrides());
        return p;
    }

    private SizingReport size(ExampleSpec.RunTopics topics, Properties props, Trigger trigger) {
        // the shuffle stages' partition counts come from the topology; sources are asked of the cluster
        try (RtmStreams probe = RtmStreams.builder(spec.topology().apply(topics), props)
                .trigger(trigger)
                .slotCheck(SlotCheckMode.OFF)
                .build()) {
            return probe.sizingReport();
        }
    }

    /**
     * Waits until the broker's metadata shows every created topic: a created topic's metadata can reach the broker a
     * moment after the controller acknowledged it, and the sizing check describes the sources right after.
     */
    private static void awaitVisible(Admin admin, List<String> names) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "created topics not visible to the broker within 30 s: " + names, e);
                }
                Thread.sleep(50);
            }
        }
    }

    private static void awaitRunning(RtmStreams rtm) throws InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (rtm.state() != KafkaStreams.State.RUNNING) {
            if (rtm.state() == KafkaStreams.State.ERROR || rtm.state() == KafkaStreams.State.NOT_RUNNING) {
                throw new IllegalStateException("the example's Kafka Streams failed to start: " + rtm.state());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the example's Kafka Streams is not RUNNING after " + STARTUP_TIMEOUT + ": " + rtm.state());
            }
            Thread.sleep(20);
        }
    }

    /** How long the output must stay quiet after the input ended: the drain option, or two batches. */
    private Duration quietPeriod(Trigger trigger) {
        Duration twice = trigger.interval().multipliedBy(2);
        Duration min = settings.drainQuiet();
        return trigger.isRealTime() || twice.compareTo(min) < 0 ? min : twice;
    }

    private static KafkaProducer<String, String> producer(Map<String, Object> client) {
        Map<String, Object> c = new HashMap<>(client);
        c.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        c.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(c, new StringSerializer(), new StringSerializer());
    }

    private void printTable(List<RunResult> results) {
        out.printf(Locale.ROOT, "%nExample %s: %s%n", spec.name(), spec.description());
        if (settings.rateSource()) {
            out.printf(
                    Locale.ROOT,
                    "rate source %.0f rows/s for %s into %d partition(s); latency = output received - source time,"
                            + " of rows sent after a %s warm-up%n",
                    settings.rate(),
                    settings.duration(),
                    settings.partitions(),
                    settings.warmup());
        }
        TextTable table = new TextTable(
                Column.left("trigger", 32),
                Column.right("inputs", 10),
                Column.right("outputs", 10),
                Column.decimal("e2e p50 ms", 10, 1),
                Column.decimal("p99 ms", 10, 1),
                Column.decimal("max ms", 10, 1),
                Column.right("measured", 10));
        for (RunResult r : results) {
            LatencySummary s = r.latency().summary();
            table.row(r.trigger(), r.records(), r.outputs(), s.p50(), s.p99(), s.max(), s.count());
        }
        out.print(table.render());
        out.flush();
    }
}
