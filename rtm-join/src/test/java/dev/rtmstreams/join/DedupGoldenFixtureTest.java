package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Golden changelog fixtures of {@link Deduplicate} by id, within the watermark ({@code dedup}) and within a
 * processing-time TTL ({@code dedup-ttl}, whose TTL index is part of the layout): its operator store's changelog as a
 * release wrote it ({@code src/test/resources/golden/v<transformWithState format version>/<fixture>/state.changelog},
 * the format of {@link JoinGoldenFixtureTest}), restored by Kafka Streams from the changelog topic of a new
 * application on an embedded broker; the next outputs show the remembered ids and the restored watermark. Write it with
 * {@code mvn -pl rtm-join test -Dtest=DedupGoldenFixtureTest -Drtm.golden.write=true}.
 */
class DedupGoldenFixtureTest {

    private static final Path GOLDEN = JoinGoldenFixtureTest.GOLDEN;
    private static final long T0 = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
    private static final String STORE = "golden-dedup-state";
    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** A TTL no fixture outlives: the restored ids are remembered whenever the test runs. */
    private static final Duration LONG_TTL = Duration.ofDays(3650);

    /**
     * Deduplicates {@code <app>-in} by the id before ':' into {@code <app>-out}: within a 5 min watermark delay
     * (fixture {@code dedup}), or within a processing-time TTL of ten years (fixture {@code dedup-ttl}).
     */
    private static Topology topology(String app, boolean ttl) {
        Deduplicate.Builder<String, String, String> b = Deduplicate.<String, String, String>byId(
                        (k, v) -> v.substring(0, v.indexOf(':')), Serdes.String())
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .name("golden-dedup");
        if (ttl) {
            b.withinTtl(LONG_TTL);
        } else {
            b.withinWatermark((k, v, ts) -> ts, Duration.ofMinutes(5));
        }
        StreamsBuilder sb = new StreamsBuilder();
        sb.stream(app + "-in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(b.build())
                .to(app + "-out", Produced.with(Serdes.String(), Serdes.String()));
        return sb.build();
    }

    private static KafkaStreams start(String app, boolean ttl) throws IOException {
        kafka.createTopics(1, app + "-in", app + "-out");
        KafkaStreams s = new KafkaStreams(
                topology(app, ttl),
                IntervalJoinRestartTest.streamsProperties(kafka, Files.createTempDirectory("rtm-dedup-golden"), app));
        s.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> s.state() == KafkaStreams.State.RUNNING);
        return s;
    }

    private static String dir(boolean ttl) {
        return ttl ? "dedup-ttl" : "dedup";
    }

    private static void send(String app, String value, long ts) {
        TestRecords.produce(
                kafka,
                List.of(new ProducerRecord<>(app + "-in", null, ts, "k", value)),
                new StringSerializer(),
                new StringSerializer());
    }

    private static List<String> outputs(String app, int n, Duration timeout) {
        return TestRecords.consumeStrings(kafka, app + "-out", n, timeout).stream()
                .map(ConsumerRecord::value)
                .toList();
    }

    @Test
    void shouldRestoreTheGoldenFixturesThroughTheChangelogTopic() throws Exception {
        int restored = 0;
        try (var versions = Files.list(GOLDEN)) {
            for (Path version : versions.sorted().toList()) {
                for (boolean ttl : new boolean[] {false, true}) {
                    Path file = version.resolve(dir(ttl)).resolve("state.changelog");
                    if (!Files.exists(file)) {
                        continue;
                    }
                    String app = "dedup-golden-" + version.getFileName() + "-" + dir(ttl);
                    String topic = app + "-" + STORE + "-changelog";
                    kafka.createTopic(topic, 1, Map.of("cleanup.policy", "compact"));
                    TestRecords.produce(
                            kafka,
                            JoinGoldenFixtureTest.read(file, topic),
                            new ByteArraySerializer(),
                            new ByteArraySerializer());
                    try (KafkaStreams s = start(app, ttl)) {
                        if (ttl) {
                            // ids a and b are remembered (their TTL runs for years), c is new
                            send(app, "a:2", T0 + 120_000);
                            send(app, "b:2", T0 - 600_000);
                        } else {
                            // id a is remembered (its horizon, 5 min, is open), z is late (watermark -4 min), c is new
                            send(app, "a:2", T0 + 120_000);
                            send(app, "z:1", T0 - 600_000);
                        }
                        send(app, "c:1", T0 + 120_000);
                        assertThat(outputs(app, 1, Duration.ofSeconds(60))).containsExactly("c:1");
                        assertThat(outputs(app, 2, Duration.ofSeconds(3))).containsExactly("c:1");
                    }
                    restored++;
                }
            }
        }
        assertThat(restored)
                .as("dedup fixtures under %s", GOLDEN.toAbsolutePath())
                .isGreaterThanOrEqualTo(2);
    }

    /** The generator: writes the fixtures of the current format version where there are none yet. */
    @Test
    @EnabledIfSystemProperty(named = "rtm.golden.write", matches = "true")
    void writeFixturesOfTheCurrentFormatVersion() throws Exception {
        for (boolean ttl : new boolean[] {false, true}) {
            writeFixture(ttl);
        }
    }

    private static void writeFixture(boolean ttl) throws Exception {
        String app = "dedup-golden-write-" + dir(ttl);
        try (KafkaStreams s = start(app, ttl)) {
            send(app, "a:1", T0);
            send(app, "b:1", T0 + 60_000);
            assertThat(outputs(app, 2, Duration.ofSeconds(60))).containsExactly("a:1", "b:1");
            Thread.sleep(1_000); // a few commits: the watermark reaches the changelog
        }
        List<ConsumerRecord<byte[], byte[]>> records = TestRecords.consume(
                kafka,
                app + "-" + STORE + "-changelog",
                Integer.MAX_VALUE,
                Duration.ofSeconds(5),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        // the format version: the first byte of the operator's metadata record (key [0x05][3])
        int version = records.stream()
                .filter(r -> r.key().length == 2 && r.key()[0] == 0x05 && r.key()[1] == 3)
                .reduce((x, y) -> y)
                .orElseThrow()
                .value()[0];
        Path file = GOLDEN.resolve("v" + version).resolve(dir(ttl)).resolve("state.changelog");
        if (Files.exists(file)) {
            return; // fixtures are never rewritten
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, JoinGoldenFixtureTest.format(STORE, records), StandardCharsets.UTF_8);
    }
}
