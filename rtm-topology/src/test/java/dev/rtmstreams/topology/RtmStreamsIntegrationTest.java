package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.ValueState;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Against one real embedded KRaft broker shared by the tests of this class. */
class RtmStreamsIntegrationTest {

    private static EmbeddedKafkaCluster kafka;
    private final List<RtmStreams> apps = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafkaCluster.builder().brokers(1).build().start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void closeApps() throws IOException {
        for (RtmStreams app : apps) {
            app.close(Duration.ofSeconds(20));
        }
        for (Path d : dirs) {
            try (var files = Files.walk(d)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    private Properties props(String appId) throws IOException {
        Path dir = Files.createTempDirectory("rtm-it-");
        dirs.add(dir);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        p.put("consumer.auto.offset.reset", "earliest");
        return p;
    }

    private RtmStreams started(RtmStreams app) {
        apps.add(app);
        app.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == KafkaStreams.State.RUNNING);
        return app;
    }

    private static Topology passThrough(String in, String out) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    private static void produce(String topic, int n, long timestamp, String prefix) {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(new ProducerRecord<>(topic, null, timestamp, prefix + "k" + (i % 7), prefix + i));
        }
        TestRecords.produce(kafka, records, new StringSerializer(), new StringSerializer());
    }

    private static long inputRows(List<EpochProgress> epochs, String topic) {
        return epochs.stream()
                .map(e -> e.sources().get(topic))
                .filter(java.util.Objects::nonNull)
                .mapToLong(SourceProgress::numInputRows)
                .sum();
    }

    /** @return the sum over the topic's partitions of the last offsets the epochs committed for it */
    private static long committedOffsets(List<EpochProgress> epochs, String topic) {
        Map<Integer, Long> lastOffsets = new HashMap<>();
        epochs.forEach(e -> e.sources()
                .getOrDefault(topic, new SourceProgress("x", 0, 0, Map.of()))
                .committedOffsets()
                .forEach(lastOffsets::put));
        return lastOffsets.values().stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void shouldReportOneEpochPerCommitWithInputCountsAddingUpWhenCheckpointIntervalIsShort() throws Exception {
        kafka.createTopic("epochs-in", 2);
        kafka.createTopic("epochs-out", 2);
        List<EpochProgress> epochs = new CopyOnWriteArrayList<>();
        RtmStreams app = started(RtmStreams.builder(passThrough("epochs-in", "epochs-out"), props("epochs-app"))
                .trigger(Trigger.realTime(Duration.ofMillis(200)))
                .tasksPerSlot(2)
                .addProgressListener(epochs::add)
                .build());

        produce("epochs-in", 300, System.currentTimeMillis(), "a");
        await().atMost(Duration.ofSeconds(30)).until(() -> inputRows(epochs, "epochs-in") >= 300);
        Thread.sleep(500); // at least two checkpoint intervals apart
        produce("epochs-in", 200, System.currentTimeMillis(), "b");
        await().atMost(Duration.ofSeconds(30)).until(() -> inputRows(epochs, "epochs-in") >= 500);
        assertThat(TestRecords.consumeStrings(kafka, "epochs-out", 500, Duration.ofSeconds(30)))
                .hasSize(500);

        assertThat(inputRows(epochs, "epochs-in")).isEqualTo(500);
        assertThat(epochs).hasSizeGreaterThanOrEqualTo(2);
        assertThat(epochs).extracting(EpochProgress::epochId).doesNotHaveDuplicates();
        assertThat(epochs).allSatisfy(e -> {
            assertThat(e.endTimeMs()).isGreaterThanOrEqualTo(e.startTimeMs());
            assertThat(e.mode()).isEqualTo(ExecutionMode.REAL_TIME);
            assertThat(e.applicationId()).isEqualTo("epochs-app");
            assertThat(e.kafkaStreamsVersion())
                    .isEqualTo(dev.rtmstreams.processor.spi.KafkaStreamsVersion.current())
                    .isNotEqualTo("unknown");
            assertThat(e.rtmVersion()).isNotEqualTo("unknown");
        });
        // a later epoch checkpoints the end offsets: every produced record is committed
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(committedOffsets(epochs, "epochs-in")).isEqualTo(500));
        assertThat(inputRows(epochs, "epochs-in")).isEqualTo(500);
        // one epoch per real commit: Kafka Streams' own commit counter agrees
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            double commits = app.metrics().entrySet().stream()
                    .filter(m -> m.getKey().group().equals("stream-thread-metrics")
                            && m.getKey().name().equals("commit-total"))
                    .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue())
                    .sum();
            assertThat((double) epochs.size()).isEqualTo(commits);
        });
    }

    /** @return whether the embedded broker of this Kafka version enables streams groups by default (4.4 and later) */
    static boolean brokerEnablesStreamsGroups(String kafkaVersion) {
        String[] v = kafkaVersion.split("\\.");
        int major = Integer.parseInt(v[0]);
        return major > 4 || (major == 4 && Integer.parseInt(v[1]) >= 4);
    }

    @Test
    void shouldReportEpochsAndRtmMetricsUnderTheStreamsRebalanceProtocol() throws Exception {
        // under group.protocol=streams Kafka Streams builds its own main consumer and ignores the client supplier's:
        // the epochs come from the consumer wrapper instead, with the same counts and commits
        // The embedded broker is of the Kafka version under test; before 4.4 it does not enable streams groups by
        // default (the client then fails with UNSUPPORTED_VERSION). The wrapper itself is checked on every version by
        // KafkaStreamsCompatibilityTest; brokers: docs/brokers.md.
        org.junit.jupiter.api.Assumptions.assumeTrue(
                brokerEnablesStreamsGroups(dev.rtmstreams.processor.spi.KafkaStreamsVersion.current()),
                "the embedded broker of this Kafka version does not enable the streams rebalance protocol by default");
        kafka.createTopic("streams-protocol-in", 2);
        kafka.createTopic("streams-protocol-out", 2);
        Properties p = props("streams-protocol-app");
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        List<EpochProgress> epochs = new CopyOnWriteArrayList<>();
        RtmStreams app = started(RtmStreams.builder(passThrough("streams-protocol-in", "streams-protocol-out"), p)
                .trigger(Trigger.realTime(Duration.ofMillis(200)))
                .tasksPerSlot(2)
                .addProgressListener(epochs::add)
                .build());

        produce("streams-protocol-in", 300, System.currentTimeMillis(), "s");
        assertThat(TestRecords.consumeStrings(kafka, "streams-protocol-out", 300, Duration.ofSeconds(30)))
                .hasSize(300);
        await().atMost(Duration.ofSeconds(30)).until(() -> inputRows(epochs, "streams-protocol-in") >= 300);

        assertThat(inputRows(epochs, "streams-protocol-in")).isEqualTo(300);
        assertThat(epochs).extracting(EpochProgress::epochId).doesNotHaveDuplicates();
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(committedOffsets(epochs, "streams-protocol-in"))
                        .isEqualTo(300));
        assertThat(app.metrics().keySet())
                .as("the rtm metrics through the wrapped main consumer")
                .anySatisfy(m -> assertThat(m.group()).isEqualTo("rtm-epoch-metrics"));
    }

    @Test
    void shouldCloseEpochsOnTransactionCommitsWhenExactlyOnce() throws Exception {
        kafka.createTopic("eos-in", 1);
        kafka.createTopic("eos-out", 1);
        List<EpochProgress> epochs = new CopyOnWriteArrayList<>();
        started(RtmStreams.builder(passThrough("eos-in", "eos-out"), props("eos-app"))
                .trigger(Trigger.realTime(Duration.ofMillis(200)))
                .exactlyOnce(true)
                .addProgressListener(epochs::add)
                .build());

        produce("eos-in", 100, System.currentTimeMillis(), "e");

        await().atMost(Duration.ofSeconds(30)).until(() -> inputRows(epochs, "eos-in") >= 100);
        assertThat(inputRows(epochs, "eos-in")).isEqualTo(100);
        assertThat(TestRecords.consumeStrings(kafka, "eos-out", 100, Duration.ofSeconds(30)))
                .hasSize(100);
        // transactions commit every 10 ms; the epoch holding the last of them closes once the 200 ms checkpoint
        // interval has passed, at the thread's next idle poll
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(epochs.stream()
                                .flatMap(e -> e
                                        .sources()
                                        .getOrDefault("eos-in", new SourceProgress("x", 0, 0, Map.of()))
                                        .committedOffsets()
                                        .values()
                                        .stream()))
                        .contains(100L));
        assertThat(epochs).allSatisfy(e -> assertThat(e.commits().commits()).isPositive());
        assertThat(epochs.stream()
                        .mapToLong(e -> e.e2eVisibleLatencyMs().count())
                        .sum())
                .isEqualTo(100);
    }

    @Test
    void shouldMeasureProcessingAndEndToEndLatencyWhenProcessorSleepsAndRecordsAreOld() throws Exception {
        kafka.createTopic("lat-in", 1);
        kafka.createTopic("lat-out", 1);
        StreamsBuilder b = new StreamsBuilder();
        b.stream("lat-in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> {
                    try {
                        Thread.sleep(30);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return v;
                })
                .to("lat-out", Produced.with(Serdes.String(), Serdes.String()));
        List<EpochProgress> epochs = new CopyOnWriteArrayList<>();
        RtmStreams app = started(RtmStreams.builder(b.build(), props("latency-app"))
                .trigger(Trigger.realTime(Duration.ofMillis(300)))
                .addProgressListener(epochs::add)
                .build());

        long twoMinutesAgo = System.currentTimeMillis() - 120_000;
        produce("lat-in", 20, twoMinutesAgo, "l");
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        epochs.stream().mapToLong(e -> e.e2eLatencyMs().count()).sum() >= 20);

        List<EpochProgress> measured =
                epochs.stream().filter(e -> e.e2eLatencyMs().count() > 0).toList();
        assertThat(measured).allSatisfy(e -> {
            assertThat(e.processingLatencyMs().p50()).isGreaterThanOrEqualTo(30);
            assertThat(e.processingLatencyMs().max()).isLessThan(120_000);
            assertThat(e.e2eLatencyMs().p50()).isGreaterThanOrEqualTo(120_000);
            assertThat(e.e2eLatencyMs().max()).isLessThan(180_000);
        });
        assertThat(epochs.stream().filter(e -> e.sourceQueuingLatencyMs().count() > 0))
                .allSatisfy(e -> assertThat(e.sourceQueuingLatencyMs().p50()).isGreaterThanOrEqualTo(120_000));
        assertThat(measured.stream()
                        .mapToLong(e -> e.processingLatencyMs().count())
                        .sum())
                .isEqualTo(20);

        // the same numbers as Kafka Streams metrics and as Prometheus text
        Map<String, Object> rtmMetrics = app.kafkaStreams().metrics().entrySet().stream()
                .filter(m -> m.getKey().group().equals("rtm-epoch-metrics"))
                .collect(Collectors.toMap(
                        m -> m.getKey().name() + "/" + m.getKey().tags().get("thread-id"),
                        m -> m.getValue().metricValue(),
                        (x, y) -> x));
        assertThat(rtmMetrics.keySet()).anyMatch(k -> k.startsWith("e2eLatencyMs-p99/"));
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.start(app, new InetSocketAddress("localhost", 0))) {
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://localhost:" + endpoint.port() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body())
                    .contains("# TYPE rtm_e2e_latency_ms summary")
                    .containsPattern("rtm_e2e_latency_ms\\{thread_id=\"[^\"]+\",quantile=\"0.99\"} 1[0-9]{5}")
                    .contains("kafka_streams_stream_thread_metrics_process_ratio{");
        }
    }

    // ------------------------------------------------------------------ trigger switch

    /** Counts rows per key and reports how many rows each handleInputRows call received. */
    static final class CountingProcessor extends StatefulProcessor<String, String, String> {
        private ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L);
            int inCall = 0;
            while (rows.hasNext()) {
                rows.next();
                inCall++;
            }
            count.update(n + inCall);
            return List.of("count=" + (n + inCall) + ",rows=" + inCall).iterator();
        }
    }

    /** The test app: only the trigger differs between runs. */
    private RtmStreams countingApp(String appId, String in, String out, Trigger trigger) throws IOException {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
                .process(
                        TransformWithState.builder(CountingProcessor::new, TimeMode.NONE)
                                .name("count")
                                .keySerde(Serdes.String())
                                .valueSerde(Serdes.String())
                                .build(),
                        Named.as("count"))
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        return RtmStreams.builder(b.build(), props(appId)).trigger(trigger).build();
    }

    @Test
    void shouldHonourEachContractWhenOnlyTheTriggerLineChanges() throws Exception {
        for (String t : List.of("rt", "mb")) {
            kafka.createTopic("switch-in-" + t, 1);
            kafka.createTopic("switch-out-" + t, 1);
        }
        List<EpochProgress> mbEpochs = new CopyOnWriteArrayList<>();
        RtmStreams realTime = started(
                countingApp("switch-rt", "switch-in-rt", "switch-out-rt", Trigger.realTime(Duration.ofMillis(500))));
        RtmStreams microBatch = started(
                countingApp("switch-mb", "switch-in-mb", "switch-out-mb", Trigger.microBatch(Duration.ofSeconds(2))));
        microBatch.recentProgress(); // API reachable before any epoch

        for (String t : List.of("rt", "mb")) {
            produce("switch-in-" + t, 21, System.currentTimeMillis(), "");
        }
        List<ConsumerRecord<String, String>> rt =
                TestRecords.consumeStrings(kafka, "switch-out-rt", 21, Duration.ofSeconds(30));
        List<ConsumerRecord<String, String>> mb =
                TestRecords.consumeStrings(kafka, "switch-out-mb", 7, Duration.ofSeconds(30));

        assertThat(rt).hasSize(21).allSatisfy(r -> assertThat(r.value()).endsWith(",rows=1"));
        assertThat(mb)
                .hasSizeBetween(7, 20)
                .anySatisfy(r -> assertThat(r.value()).doesNotEndWith(",rows=1"));
        assertThat(finalCounts(rt)).isEqualTo(finalCounts(mb)).containsEntry("k0", 3L);
        assertThat(realTime.effectiveConfig().get("rtm.execution.mode")).isEqualTo("real-time");
        assertThat(microBatch.effectiveConfig().get("rtm.execution.mode")).isEqualTo("micro-batch");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> microBatch.latestProgress().isPresent());
        assertThat(microBatch.latestProgress().orElseThrow().mode()).isEqualTo(ExecutionMode.MICRO_BATCH);
    }

    private static Map<String, Long> finalCounts(List<ConsumerRecord<String, String>> records) {
        Map<String, Long> out = new HashMap<>();
        for (ConsumerRecord<String, String> r : records) {
            long c = Long.parseLong(
                    r.value().substring("count=".length(), r.value().indexOf(',')));
            out.merge(r.key(), c, Math::max);
        }
        return out;
    }

    // ------------------------------------------------------------------ slots after rebalance

    @Test
    void shouldReportRealAssignmentAfterRebalanceWhenTwoInstancesShareTheWork() throws Exception {
        kafka.createTopic("slots-in", 4);
        kafka.createTopic("slots-out", 4);
        List<AssignmentReport> reportsA = new CopyOnWriteArrayList<>();
        List<AssignmentReport> reportsB = new CopyOnWriteArrayList<>();
        RtmStreams a = started(slotApp(reportsA));
        RtmStreams b = started(slotApp(reportsB));

        await().atMost(Duration.ofSeconds(60))
                .until(() -> a.latestAssignment().map(r -> r.activeTasks() == 2).orElse(false)
                        && b.latestAssignment().map(r -> r.activeTasks() == 2).orElse(false)
                        && a.state() == KafkaStreams.State.RUNNING
                        && b.state() == KafkaStreams.State.RUNNING);

        Set<String> all = new TreeSet<>();
        for (RtmStreams app : List.of(a, b)) {
            AssignmentReport r = app.latestAssignment().orElseThrow();
            Set<String> actual = app.kafkaStreams().metadataForLocalThreads().stream()
                    .flatMap(t -> t.activeTasks().stream())
                    .map(t -> t.taskId().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(r.slots()).singleElement().satisfies(s -> {
                assertThat(new TreeSet<>(s.activeTasks())).isEqualTo(actual);
                assertThat(s.activeTasks()).hasSize(2);
            });
            // the whole group: 2 slots (1 thread on each of 2 instances) for 4 tasks at 1 task per slot
            assertThat(r.group()).isEqualTo(new GroupSlots(2, 2, 4, 2));
            assertThat(r.group().undersized()).isTrue();
            assertThat(r.violations()).hasSize(2);
            assertThat(r.violations().get(0)).contains("runs 2 active tasks").contains("tasksPerSlot=1");
            assertThat(r.violations().get(1))
                    .contains("the group has 2 slots (stream threads) on 2 instance(s), the topology needs 4");
            assertThat(r.targetUtilization()).isEqualTo(0.5);
            all.addAll(r.slots().get(0).activeTasks());
        }
        assertThat(all).containsExactly("0_0", "0_1", "0_2", "0_3");
        assertThat(reportsA).isNotEmpty();
        assertThat(reportsB).isNotEmpty();

        // a dynamic member in real-time mode leaves the group as it closes: the group has one member at once, long
        // before b's session (the trigger's 6 s) could time out, and a takes all four tasks over
        long closed = System.nanoTime();
        assertThat(b.close(Duration.ofSeconds(20))).isTrue();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("slots-app"))
                    .describedGroups()
                    .get("slots-app")
                    .get();
            assertThat(Duration.ofNanos(System.nanoTime() - closed)).isLessThan(Duration.ofSeconds(6));
            assertThat(group.members()).as("members right after b closed").hasSize(1);
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> a.latestAssignment().map(r -> r.activeTasks() == 4).orElse(false));
    }

    private RtmStreams slotApp(List<AssignmentReport> reports) throws IOException {
        // 4 tasks, 2 slots (1 thread x 2 instances): too few, so WARN and watch the violation being reported
        return RtmStreams.builder(passThrough("slots-in", "slots-out"), props("slots-app"))
                .trigger(Trigger.realTime(Duration.ofSeconds(1)))
                .slotCheck(SlotCheckMode.WARN)
                .expectedInstances(2)
                .addProgressListener(new ProgressListener() {
                    @Override
                    public void onEpochProgress(EpochProgress progress) {}

                    @Override
                    public void onAssignment(AssignmentReport report) {
                        reports.add(report);
                    }
                })
                .build();
    }

    @Test
    void shouldAskClusterForPartitionCountsWhenNotGiven() throws Exception {
        kafka.createTopic("sizing-in", 3);
        RtmStreams app = RtmStreams.builder(passThrough("sizing-in", "sizing-out"), props("sizing-app"))
                .trigger(Trigger.realTime(Duration.ofSeconds(1)))
                .build();
        apps.add(app);

        SizingReport r = app.sizingReport();

        assertThat(r.totalTasks()).isEqualTo(3);
        assertThat(r.availableSlots()).isEqualTo(1);
        assertThat(r.sufficient()).isFalse();
    }

    @Test
    void shouldReleaseStatelessOutputOnlyWhenTheEpochEndsWhenMicroBatch() throws Exception {
        kafka.createTopic("gate-in", 1);
        // the broker stamps each output record when it is appended: the time the epoch released it
        kafka.createTopic("gate-out", 1, Map.of("message.timestamp.type", "LogAppendTime"));
        started(RtmStreams.builder(passThrough("gate-in", "gate-out"), props("gate-app"))
                .trigger(Trigger.microBatch(Duration.ofSeconds(3)))
                .build());

        int n = 120; // one record every 50 ms for 6 s, the value is its send time
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<>(
                kafka.clientConfig(), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < n; i++) {
                long now = System.currentTimeMillis();
                producer.send(new ProducerRecord<>("gate-in", "k", Long.toString(now)));
                Thread.sleep(50);
            }
        }
        List<Long> latencies = TestRecords.consumeStrings(kafka, "gate-out", n, Duration.ofSeconds(30)).stream()
                .map(r -> r.timestamp() - Long.parseLong(r.value()))
                .sorted()
                .toList();

        assertThat(latencies).hasSize(n);
        // released at 3 s epoch ends: the median record waits about 1.5 s, the first of an epoch about 3 s;
        // passed through at once they would wait milliseconds
        assertThat(latencies.get(n / 2)).isGreaterThanOrEqualTo(800);
        assertThat(latencies.get(n - 1)).isGreaterThanOrEqualTo(2000);
    }
}
