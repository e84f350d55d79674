package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.adattribution.pipeline.DeadLetterHeaders;
import dev.rtmstreams.adattribution.pipeline.Events;
import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import dev.rtmstreams.tools.ChildJvm;
import dev.rtmstreams.tools.Ports;
import dev.rtmstreams.tools.Readiness;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a real embedded KRaft broker, the service started from its command line in a child JVM (the shaded
 * jar when it was packaged, else {@code java -cp <test classpath> ...Main}), a known set of events with duplicates,
 * window edges, out-of-order arrivals and undecodable bytes between good records, and the exact expected output on
 * both output topics and the dead-letter topic. Then SIGTERM and a graceful exit.
 */
class AdAttributionServiceIT {

    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        kafka.createTopics(1, "ad-impressions", "ad-clicks", "ad-requests", "ad-acks");
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void shouldRefuseToStartWhenJoinInputsAreNotCopartitioned(@TempDir Path dir) {
        kafka.createTopic("cp-impressions", 2);
        kafka.createTopic("cp-clicks", 3);
        AppConfig config = AppConfig.builder()
                .bootstrapServers(kafka.bootstrapServers())
                .applicationId("copartition-check")
                .stateDir(dir)
                .httpPort(-1)
                .impressionsTopic("cp-impressions")
                .clicksTopic("cp-clicks")
                .build();
        AdAttributionService service = new AdAttributionService(config);
        try {
            assertThatThrownBy(service::start).isInstanceOfSatisfying(RtmException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(IntervalJoin.JOIN_INPUTS_NOT_COPARTITIONED);
                assertThat(e.parameters())
                        .containsEntry("leftTopic", "cp-impressions")
                        .containsEntry("leftPartitions", "2")
                        .containsEntry("rightTopic", "cp-clicks")
                        .containsEntry("rightPartitions", "3");
            });
            assertThat(service.state()).isEqualTo("CREATED");
        } finally {
            service.close();
        }
    }

    @Test
    void shouldRefuseToStartNamingTheFixWhenTheJoinBufferChangelogHasAnEarlierReleasesCompactOnlyConfig(
            @TempDir Path dir) {
        // as an application whose join first ran on a release that created its buffer changelogs compact-only
        String topic = "old-changelogs-click-attribution-left-buffer-changelog";
        kafka.createTopic(topic, 2, Map.of("cleanup.policy", "compact"));
        AppConfig config = AppConfig.builder()
                .bootstrapServers(kafka.bootstrapServers())
                .applicationId("old-changelogs")
                .stateDir(dir)
                .httpPort(-1)
                .createTopics(true)
                .build();
        AdAttributionService service = new AdAttributionService(config);
        try {
            assertThatThrownBy(service::start).isInstanceOfSatisfying(RtmException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(IntervalJoin.JOIN_BUFFER_CHANGELOG_OUTDATED_CONFIG);
                assertThat(e.parameters()).containsEntry("topics", topic).containsEntry("cleanupPolicy", "compact");
                assertThat(e.parameters().get("commands"))
                        .contains("kafka-configs.sh", "--entity-name " + topic, "cleanup.policy=[compact,delete]");
            });
            assertThat(service.state()).isEqualTo("CREATED");
        } finally {
            service.close();
        }
    }

    private static ProducerRecord<String, byte[]> rec(String topic, String key, byte[] value, long ts) {
        return new ProducerRecord<>(topic, null, ts, key, value);
    }

    @Test
    void shouldEmitExactlyTheExpectedRecordsOnBothOutputTopicsAndDeadLetterBadOnesWhenRunFromTheCommandLine(
            @TempDir Path dir) throws Exception {
        int port = Ports.freePort();
        Path log = dir.resolve("service.log");
        ChildJvm service = ServiceLauncher.service()
                .args(List.of(
                        "run",
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--application-id",
                        "adattribution-it",
                        "--state-dir",
                        dir.resolve("state").toString(),
                        "--create-topics",
                        "--checkpoint-interval",
                        "PT1S",
                        "--http-port",
                        Integer.toString(port)))
                .environment("RTM_CORRELATION_WINDOW", "PT5M") // from the environment, as a container would
                .logFile(log)
                .readiness(Readiness.health(port))
                .build()
                .start();
        try {
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(2))
                    .build();
            service.awaitReady(ServiceLauncher.READY_TIMEOUT);

            long t0 = System.currentTimeMillis();
            long min = 60_000;
            byte[] garbage = "not an avro record".getBytes(StandardCharsets.UTF_8);
            List<ProducerRecord<String, byte[]>> records = List.of(
                    // click before its impression (out of order), then the impression
                    rec("ad-clicks", "imp-4", Events.encode(Events.click("c-6", "imp-4", t0 + 10_000)), t0),
                    rec("ad-impressions", "imp-1", Events.encode(Events.impression("imp-1", t0)), t0),
                    rec("ad-impressions", "imp-bad", garbage, t0),
                    rec("ad-impressions", "imp-2", Events.encode(Events.impression("imp-2", t0)), t0),
                    rec("ad-impressions", "imp-3", Events.encode(Events.impression("imp-3", t0)), t0),
                    rec("ad-impressions", "imp-1", Events.encode(Events.impression("imp-1", t0)), t0), // duplicate
                    rec("ad-impressions", "imp-4", Events.encode(Events.impression("imp-4", t0)), t0),
                    rec("ad-clicks", "imp-1", Events.encode(Events.click("c-1", "imp-1", t0 + 1000)), t0),
                    rec("ad-clicks", "imp-1", Events.encode(Events.click("c-1", "imp-1", t0 + 1000)), t0), // duplicate
                    rec(
                            "ad-clicks",
                            "imp-1",
                            Events.encode(Events.click("c-2", "imp-1", t0 + 2 * min)),
                            t0), // edge: in
                    rec("ad-clicks", "imp-2", Events.encode(Events.click("c-3", "imp-2", t0 + 2 * min + 1)), t0), // out
                    rec("ad-clicks", "imp-3", Events.encode(Events.click("c-4", "imp-3", t0 - 1)), t0), // before: out
                    rec("ad-clicks", null, Events.encode(Events.click("c-7", "imp-2", t0 + 5)), t0), // no key
                    rec("ad-clicks", "imp-9", Events.encode(Events.click("c-5", "imp-9", t0 + 5)), t0), // no impression
                    rec("ad-requests", "tx-1", Events.encode(Events.request("tx-1", t0)), t0),
                    rec("ad-acks", "tx-1", Events.encode(Events.ack("tx-1", "delivered", t0 + 5)), t0 + 5),
                    rec("ad-acks", "tx-2", Events.encode(Events.ack("tx-2", "clicked", t0 + 5)), t0 + 5),
                    rec("ad-acks", "tx-bad", garbage, t0 + 5),
                    rec("ad-acks", "tx-2", Events.encode(Events.ack("tx-2", "skipped", t0 + 6)), t0 + 6),
                    rec("ad-requests", "tx-2", Events.encode(Events.request("tx-2", t0 + 7)), t0 + 7),
                    rec("ad-requests", "tx-3", Events.encode(Events.request("tx-3", t0 + 8)), t0 + 8),
                    rec("ad-acks", "tx-4", Events.encode(Events.ack("tx-4", "delivered", t0 + 9)), t0 + 9));
            TestRecords.produce(kafka, records, new StringSerializer(), new ByteArraySerializer());

            List<String> attributed = attributed(3, Duration.ofSeconds(60));
            List<String> logRecords = logRecords(3, Duration.ofSeconds(60));
            List<ConsumerRecord<String, byte[]>> dead = TestRecords.consume(
                    kafka,
                    "adattribution-dlq",
                    3,
                    Duration.ofSeconds(30),
                    new StringDeserializer(),
                    new ByteArrayDeserializer());
            Thread.sleep(2000); // anything extra (a duplicate) would arrive by now

            assertThat(attributed(4, Duration.ofSeconds(3)))
                    .containsExactlyInAnyOrder("imp-1/c-1", "imp-1/c-2", "imp-4/c-6")
                    .isEqualTo(attributed);
            assertThat(logRecords(4, Duration.ofSeconds(3)))
                    .containsExactlyInAnyOrder("tx-1:delivered", "tx-2:clicked", "tx-2:skipped")
                    .hasSameElementsAs(logRecords);
            assertThat(dead).hasSize(3);
            assertThat(dead)
                    .extracting(r -> header(r, DeadLetterHeaders.SOURCE_TOPIC))
                    .containsExactlyInAnyOrder("ad-impressions", "ad-clicks", "ad-acks");
            assertThat(dead)
                    .filteredOn(r -> "ad-impressions".equals(header(r, DeadLetterHeaders.SOURCE_TOPIC)))
                    .singleElement()
                    .satisfies(r -> {
                        assertThat(r.key()).isEqualTo("imp-bad");
                        assertThat(r.value()).isEqualTo(garbage);
                        assertThat(header(r, DeadLetterHeaders.SOURCE_PARTITION))
                                .isEqualTo("0");
                        assertThat(header(r, DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("1");
                        assertThat(header(r, DeadLetterHeaders.ERROR_CODE)).isEqualTo("AVRO_DECODE_BAD_HEADER");
                    });

            String metrics = http.send(
                            HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(metrics)
                    .contains(
                            "adattribution_dlq_records_total{source_topic=\"ad-impressions\"} 1",
                            "adattribution_dlq_records_total{source_topic=\"ad-clicks\"} 1",
                            "adattribution_late_records_total",
                            "adattribution_up{state=\"RUNNING\"} 1")
                    // Spark's transformWithState custom metrics of the correlation operator
                    .containsPattern("kafka_streams_stream_rtm_processor_metrics_numRegisteredTimers\\{[^}]*"
                            + "rtm_processor_id=\"request-ack-correlation\"[^}]*\\} [1-9]")
                    .contains("kafka_streams_stream_rtm_processor_metrics_numValueStateVars")
                    // the versions this service runs (docs/compatibility.md)
                    .containsPattern("rtm_info\\{kafka_streams_version=\""
                            + java.util.regex.Pattern.quote(dev.rtmstreams.processor.spi.KafkaStreamsVersion.current())
                            + "\",rtm_version=\"[0-9][^\"]*\"\\} 1\n");
            // every metric the Grafana dashboard and the Prometheus alert rules (ops/) use is served
            assertThat(ObservabilityAssets.missing(
                            ObservabilityAssets.metricNames(ObservabilityAssets.files(ObservabilityAssets.repoRoot())),
                            metrics))
                    .as("metrics used in ops/ but not served on /metrics")
                    .isEmpty();

            // the state reader through the custom interactive query: tx-3 has a request waiting, tx-4 an ack
            HttpResponse<String> tx3 = get(http, port, "/state/request-ack-correlation/tx-3");
            assertThat(tx3.statusCode()).isEqualTo(200);
            assertThat(tx3.body())
                    .startsWith("{\"key\":\"tx-3\",\"state\":{\"request\":{\"kind\":\"ValueState\"")
                    .contains("\"expiry\":{\"kind\":\"ValueState\"")
                    .doesNotContain("pendingAcks")
                    .containsPattern("\"timers\":\\[\\d+\\]");
            liveTx3 = tx3.body().trim();
            assertThat(get(http, port, "/state/request-ack-correlation/tx-4").body())
                    .contains("\"pendingAcks\":{\"kind\":\"ListState\"", "delivered");
            assertThat(get(http, port, "/state/request-ack-correlation/tx-none").statusCode())
                    .isEqualTo(404);
            assertThat(get(http, port, "/state/no-such-operator/tx-3").body())
                    .contains("unknown operator no-such-operator");

            // the join's state (Spark's state source with joinSide): imp-1's impression on the left, its two distinct
            // clicks on the right (the copy of c-1 was dropped), with event times, on the task that owns imp-1
            HttpResponse<String> imp1 = get(http, port, "/state/click-attribution/imp-1");
            assertThat(imp1.statusCode()).isEqualTo(200);
            assertThat(imp1.body())
                    .startsWith("{\"key\":\"imp-1\",\"partition\":")
                    .containsPattern("\"watermarks\":\\{\"leftMaxEventTime\":\\d+,\"rightMaxEventTime\":\\d+,"
                            + "\"globalWatermark\":-?\\d+\\}")
                    .containsPattern("\"left\":\\[\\{\"eventTime\":" + t0 + ",[^\\]]*imp-1[^\\]]*\\],\"right\"")
                    .contains("\"eventTime\":" + (t0 + 1000), "c-1", "\"eventTime\":" + (t0 + 2 * min), "c-2")
                    .doesNotContain("c-3");
            assertThat(imp1.body()).containsOnlyOnce("\\\"click_id\\\": \\\"c-1\\\"");
            liveImp1 = imp1.body().trim();
            // imp-9 has a click and no impression: only a right row
            assertThat(get(http, port, "/state/click-attribution/imp-9").body())
                    .contains("\"left\":[],\"right\":[{\"eventTime\":" + (t0 + 5));
            assertThat(get(http, port, "/state/click-attribution/imp-none").statusCode())
                    .isEqualTo(404);
        } finally {
            service.stop(); // SIGTERM: graceful shutdown (SIGKILL after 60 s)
        }
        assertThat(service.stop())
                .as("exit status after a clean SIGTERM shutdown; log:%n%s", service.tail(60))
                .isZero();
        assertThat(Files.readString(log)).contains("event=closed clean=true", "event=exit status=0");

        // offline, after the service stopped: the same JSON from the changelog topic and from the state directory
        assertThat(stateRead("request-ack-correlation", "tx-3", "--bootstrap-servers", kafka.bootstrapServers()))
                .containsExactly(liveTx3);
        assertThat(stateRead(
                        "request-ack-correlation",
                        "tx-3",
                        "--state-dir",
                        dir.resolve("state").toString()))
                .containsExactly(liveTx3);
        // the join: the same rows, partition and watermarks from the changelogs and from the state directory
        assertThat(stateRead("click-attribution", "imp-1", "--bootstrap-servers", kafka.bootstrapServers()))
                .containsExactly(liveImp1);
        // a state directory holds no watermarks (the meta store is in memory), and the service's join drops copies by
        // id, so its rows do not prove them
        assertThat(stateRead(
                        "click-attribution",
                        "imp-1",
                        "--state-dir",
                        dir.resolve("state").toString()))
                .containsExactly(liveImp1.replaceFirst("\"watermarks\":\\{[^}]*\\}", "\"watermarks\":null"));
    }

    private String liveTx3;
    private String liveImp1;

    private static List<String> stateRead(String operator, String key, String... source) {
        java.io.StringWriter out = new java.io.StringWriter();
        List<String> args = new ArrayList<>(
                List.of("state", "read", "--application-id", "adattribution-it", "--operator", operator, "--key", key));
        args.addAll(List.of(source));
        int code = Main.execute(
                args.toArray(String[]::new),
                k -> null,
                new java.io.PrintWriter(out, true),
                new java.io.PrintWriter(new java.io.StringWriter(), true));
        assertThat(code).as("state read %s exit code; output: %s", args, out).isZero();
        return out.toString().lines().toList();
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> attributed(int expected, Duration timeout) throws IOException {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : TestRecords.consume(
                kafka, "attributed-clicks", expected, timeout, new StringDeserializer(), new ByteArrayDeserializer())) {
            AttributedClick a = AdAttributionSerdes.attributedClick().decode(r.value());
            assertThat(r.key()).isEqualTo(a.getImpressionId());
            out.add(a.getImpressionId() + "/" + a.getClickId());
        }
        return out;
    }

    private static List<String> logRecords(int expected, Duration timeout) throws IOException {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : TestRecords.consume(
                kafka, "ad-log-records", expected, timeout, new StringDeserializer(), new ByteArrayDeserializer())) {
            LogRecord l = AdAttributionSerdes.logRecord().decode(r.value());
            assertThat(r.key()).isEqualTo(l.getTransactionId());
            out.add(l.getTransactionId() + ":" + l.getAck().getStatus());
        }
        return out;
    }

    private static String header(ConsumerRecord<?, ?> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
