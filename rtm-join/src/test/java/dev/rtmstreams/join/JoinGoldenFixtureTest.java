package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Golden changelog fixtures of the interval join: the changelog records of its two buffer stores and its meta store as
 * a release wrote them ({@code src/test/resources/golden/v<format version>/<join type>/<store>.changelog}, one record
 * per line, key hex and value hex, {@code .} when empty, {@code -} for a tombstone), restored by the current code through the path a real restart takes:
 * the records are in the changelog topics of a new application on an embedded broker, Kafka Streams restores the
 * stores from them (row batches expanded by the join's restore observer), and the join's next outputs show the
 * restored rows, their matched flags and the restored watermark. A layout change adds a directory and never rewrites
 * one. Write the fixtures of the current version with
 * {@code mvn -pl rtm-join test -Dtest=JoinGoldenFixtureTest -Drtm.golden.write=true}.
 */
class JoinGoldenFixtureTest {

    static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    /** Event times of the fixtures: fixed, so the fixtures do not depend on when they were written. */
    private static final long T0 = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();

    /** The join's changelogged stores a fixture holds when its scenario names none (the first fixtures'). */
    private static final List<String> STORES = List.of("left-buffer", "right-buffer", "meta");
    /** A micro-batch interval no fixture writer reaches: its inputs stay in the pending store. */
    private static final Map<String, Object> NO_BATCH = Map.of("rtm.micro.batch.interval.ms", 3_600_000L);
    /** A micro-batch interval that runs the restored pending inputs at once. */
    private static final Map<String, Object> FAST_BATCHES = Map.of("rtm.micro.batch.interval.ms", 200L);

    private static final HexFormat HEX = HexFormat.of();
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

    private static long min(double minutes) {
        return T0 + (long) (minutes * 60_000);
    }

    /** The join of the fixtures: bounds 0 to 2 min, watermark delays 5 min, named "golden". */
    private static Consumer<IntervalJoin.Builder<String, String, String>> join(JoinType type) {
        return b -> b.joinType(type).name("golden");
    }

    private static void send(String topic, String key, String value, long ts) {
        TestRecords.produce(
                kafka,
                List.of(new ProducerRecord<>(topic, null, ts, key, value)),
                new StringSerializer(),
                new StringSerializer());
    }

    private static List<String> outputs(String topic, int n) {
        return TestRecords.consumeStrings(kafka, topic, n, Duration.ofSeconds(60)).stream()
                .map(ConsumerRecord::value)
                .toList();
    }

    private static KafkaStreams start(
            String applicationId,
            Consumer<IntervalJoin.Builder<String, String, String>> config,
            Map<String, Object> properties)
            throws IOException {
        java.util.Properties p = IntervalJoinRestartTest.streamsProperties(
                kafka, Files.createTempDirectory("rtm-join-golden"), applicationId);
        p.putAll(properties);
        KafkaStreams s = new KafkaStreams(IntervalJoinRestartTest.topology(applicationId + "-", config), p);
        s.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> s.state() == KafkaStreams.State.RUNNING);
        return s;
    }

    private static void createInputs(String applicationId) {
        String p = applicationId + "-";
        kafka.createTopics(1, p + "imps", p + "clicks", p + "out");
    }

    // ------------------------------------------------------------------ writers (what the fixtures hold)

    /** Inner: left rows k1@0, k2@1min, right row k3@0.5min, nothing matched; watermark 0.5 - 5 min. */
    private static void writeInner(String app) {
        send(app + "-imps", "k1", "L1", min(0));
        send(app + "-imps", "k2", "L2", min(1));
        send(app + "-clicks", "k3", "R3", min(0.5));
    }

    /** Left outer: k1@0 unmatched, k2@0 matched by a right row at 1 min (output "L2,R2"). */
    private static void writeLeftOuter(String app) {
        send(app + "-imps", "k1", "L1", min(0));
        send(app + "-imps", "k2", "L2", min(0));
        send(app + "-clicks", "k2", "R2", min(1));
        assertThat(outputs(app + "-out", 1)).containsExactly("L2,R2");
    }

    /** Full outer: left k1@0 and right k3@0.5min unmatched, k2@0 matched by a right row at 1 min ("L2,R2"). */
    private static void writeFullOuter(String app) {
        send(app + "-imps", "k1", "L1", min(0));
        send(app + "-clicks", "k3", "R3", min(0.5));
        send(app + "-imps", "k2", "L2", min(0));
        send(app + "-clicks", "k2", "R2", min(1));
        assertThat(outputs(app + "-out", 1)).containsExactly("L2,R2");
    }

    // ------------------------------------------------------------------ checks (what a restore must show)

    private static void checkInner(String app, KafkaStreams s) {
        // restored left row k1 joins a new right row; restored right row k3 joins a new left row
        send(app + "-clicks", "k1", "R1", min(1));
        send(app + "-imps", "k3", "L3", min(0));
        assertThat(outputs(app + "-out", 2)).containsExactlyInAnyOrder("L1,R1", "L3,R3");
        // the restored watermark (0.5 - 5 min) makes a row at -10 min late
        send(app + "-imps", "k9", "late", min(-10));
        await().atMost(Duration.ofSeconds(30)).until(() -> IntervalJoin.lateRecordsTotal(s.metrics(), "golden") == 1);
    }

    private static void checkLeftOuter(String app, KafkaStreams s) {
        // move the watermark past both restored left rows (15 min): k1 leaves unmatched, k2 (matched) silently
        send(app + "-imps", "k8", "L8", min(20));
        send(app + "-clicks", "k8", "R8", min(20));
        assertThat(outputs(app + "-out", 2)).containsExactlyInAnyOrder("L1,null", "L8,R8");
        // and nothing else: k2's restored row carries its matched flag
        List<String> all = TestRecords.consumeStrings(kafka, app + "-out", 3, Duration.ofSeconds(3)).stream()
                .map(ConsumerRecord::value)
                .toList();
        assertThat(all).containsExactlyInAnyOrder("L1,null", "L8,R8");
    }

    private static void checkFullOuter(String app, KafkaStreams s) {
        // move the watermark past every restored row (15 min): the unmatched ones leave with null, the matched silently
        send(app + "-imps", "k8", "L8", min(20));
        send(app + "-clicks", "k8", "R8", min(20));
        assertThat(outputs(app + "-out", 3)).containsExactlyInAnyOrder("L1,null", "null,R3", "L8,R8");
        List<String> all = TestRecords.consumeStrings(kafka, app + "-out", 4, Duration.ofSeconds(3)).stream()
                .map(ConsumerRecord::value)
                .toList();
        assertThat(all).containsExactlyInAnyOrder("L1,null", "null,R3", "L8,R8");
    }

    /** Right outer: right k1@0.5min unmatched, k2@0 matched by a right row at 1 min ("L2,R2"). */
    private static void writeRightOuter(String app) {
        send(app + "-clicks", "k1", "R1", min(0.5));
        send(app + "-imps", "k2", "L2", min(0));
        send(app + "-clicks", "k2", "R2", min(1));
        assertThat(outputs(app + "-out", 1)).containsExactly("L2,R2");
    }

    private static void checkRightOuter(String app, KafkaStreams s) {
        // move the watermark past both restored right rows (15 min): k1 leaves unmatched, k2 (matched) silently
        send(app + "-imps", "k8", "L8", min(20));
        send(app + "-clicks", "k8", "R8", min(20));
        assertOnly(app, "null,R1", "L8,R8");
    }

    /**
     * Left semi: left k1@0 buffered unmatched, left k2@0 emitted with its first match (right k2@1min, "L2,R2") and kept
     * as emitted, right k3@0.5min buffered.
     */
    private static void writeLeftSemi(String app) {
        send(app + "-imps", "k1", "L1", min(0));
        send(app + "-imps", "k2", "L2", min(0));
        send(app + "-clicks", "k2", "R2", min(1));
        send(app + "-clicks", "k3", "R3", min(0.5));
        assertThat(outputs(app + "-out", 1)).containsExactly("L2,R2");
    }

    private static void checkLeftSemi(String app, KafkaStreams s) {
        // the restored unmatched left row is emitted with its first match; the restored emitted one never again; the
        // restored right row matches a new left row
        send(app + "-clicks", "k1", "R1", min(1));
        send(app + "-clicks", "k2", "R2b", min(1.5));
        send(app + "-imps", "k3", "L3", min(0));
        assertOnly(app, "L1,R1", "L3,R3");
    }

    /** Inner with distinct rows by value on both sides: k1@0 "L1" joined with "R1"@1min. */
    private static void writeDistinct(String app) {
        send(app + "-imps", "k1", "L1", min(0));
        send(app + "-clicks", "k1", "R1", min(1));
        assertThat(outputs(app + "-out", 1)).containsExactly("L1,R1");
    }

    private static void checkDistinct(String app, KafkaStreams s) {
        // the restored ids drop both rows sent again; a new right row joins the restored left row once
        send(app + "-imps", "k1", "L1", min(0));
        send(app + "-clicks", "k1", "R1", min(1));
        send(app + "-clicks", "k1", "R1x", min(1.5));
        assertOnly(app, "L1,R1x");
    }

    /** Micro-batch inner join whose batch never comes: k1@0 "L1" and "R1"@1min wait in the pending store. */
    private static void writeMicroBatch(String app) {
        send(app + "-imps", "k1", "L1", min(0));
        send(app + "-clicks", "k1", "R1", min(1));
        assertThat(TestRecords.consumeStrings(kafka, app + "-out", 1, Duration.ofSeconds(3)))
                .as("no batch ran")
                .isEmpty();
    }

    private static void checkMicroBatch(String app, KafkaStreams s) {
        // the restored pending inputs run in the first batch, and their rows stay buffered for later inputs
        assertThat(outputs(app + "-out", 1)).containsExactly("L1,R1");
        send(app + "-clicks", "k1", "R1b", min(1.5));
        assertOnly(app, "L1,R1", "L1,R1b");
    }

    /** Asserts that the output topic holds exactly these values, in any order, and nothing more. */
    private static void assertOnly(String app, String... values) {
        assertThat(outputs(app + "-out", values.length)).containsExactlyInAnyOrder(values);
        List<String> all =
                TestRecords.consumeStrings(kafka, app + "-out", values.length + 1, Duration.ofSeconds(3)).stream()
                        .map(ConsumerRecord::value)
                        .toList();
        assertThat(all).containsExactlyInAnyOrder(values);
    }

    /**
     * One fixture: its directory name, the join's settings beyond the seed's bounds and delays, the streams properties
     * of the writer and of the restoring application, the stores whose changelogs it holds, what the writer sends and
     * what a restore must show.
     */
    private record Scenario(
            String dir,
            Consumer<IntervalJoin.Builder<String, String, String>> config,
            Map<String, Object> writeProperties,
            Map<String, Object> checkProperties,
            List<String> stores,
            Consumer<String> write,
            java.util.function.BiConsumer<String, KafkaStreams> check) {

        /** A fixture of the join type's real-time join named "golden" with the default stores. */
        Scenario(JoinType type, Consumer<String> write, java.util.function.BiConsumer<String, KafkaStreams> check) {
            this(dirName(type), join(type), Map.of(), Map.of(), STORES, write, check);
        }
    }

    private static List<Scenario> scenarios() {
        return List.of(
                new Scenario(JoinType.INNER, JoinGoldenFixtureTest::writeInner, JoinGoldenFixtureTest::checkInner),
                new Scenario(
                        JoinType.LEFT_OUTER,
                        JoinGoldenFixtureTest::writeLeftOuter,
                        JoinGoldenFixtureTest::checkLeftOuter),
                new Scenario(
                        JoinType.FULL_OUTER,
                        JoinGoldenFixtureTest::writeFullOuter,
                        JoinGoldenFixtureTest::checkFullOuter),
                new Scenario(
                        JoinType.RIGHT_OUTER,
                        JoinGoldenFixtureTest::writeRightOuter,
                        JoinGoldenFixtureTest::checkRightOuter),
                new Scenario(
                        JoinType.LEFT_SEMI, JoinGoldenFixtureTest::writeLeftSemi, JoinGoldenFixtureTest::checkLeftSemi),
                new Scenario(
                        "inner-distinct-by",
                        join(JoinType.INNER)
                                .andThen(b -> b.leftDistinctBy((k, v) -> v, Serdes.String())
                                        .rightDistinctBy((k, v) -> v, Serdes.String())),
                        Map.of(),
                        Map.of(),
                        STORES,
                        JoinGoldenFixtureTest::writeDistinct,
                        JoinGoldenFixtureTest::checkDistinct),
                new Scenario(
                        "inner-segments",
                        join(JoinType.INNER).andThen(b -> b.evictionIndex(EvictionIndex.SEGMENTS)),
                        Map.of(),
                        Map.of(),
                        STORES,
                        JoinGoldenFixtureTest::writeInner,
                        JoinGoldenFixtureTest::checkInner),
                new Scenario(
                        "inner-micro-batch",
                        join(JoinType.INNER).andThen(b -> b.executionMode(ExecutionMode.MICRO_BATCH)),
                        NO_BATCH,
                        FAST_BATCHES,
                        List.of("left-buffer", "right-buffer", "meta", "pending"),
                        JoinGoldenFixtureTest::writeMicroBatch,
                        JoinGoldenFixtureTest::checkMicroBatch));
    }

    private static String dirName(JoinType type) {
        return type.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    // ------------------------------------------------------------------ fixture files

    static List<ProducerRecord<byte[], byte[]>> read(Path file, String topic) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                String[] kv = l.split(" ");
                out.add(new ProducerRecord<>(topic, HEX.parseHex(kv[0]), value(kv[1])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** @return the bytes of a fixture's value field: {@code -} a tombstone (null), {@code .} empty, else hex */
    static byte[] value(String field) {
        return field.equals("-") ? null : field.equals(".") ? new byte[0] : HEX.parseHex(field);
    }

    static String format(String storeName, List<ConsumerRecord<byte[], byte[]>> records) {
        StringBuilder b = new StringBuilder();
        b.append("# store: ").append(storeName).append('\n');
        b.append("# changelog topic suffix: ").append(storeName).append("-changelog\n");
        b.append("# one record per line in write order: <key hex> <value hex, . when empty, - for a tombstone>\n");
        for (ConsumerRecord<byte[], byte[]> r : records) {
            b.append(HEX.formatHex(r.key()))
                    .append(' ')
                    .append(r.value() == null ? "-" : r.value().length == 0 ? "." : HEX.formatHex(r.value()))
                    .append('\n');
        }
        return b.toString();
    }

    @Test
    void shouldRestoreEveryGoldenFixtureThroughTheChangelogTopics() throws Exception {
        List<Path> versions;
        try (var dirs = Files.list(GOLDEN)) {
            versions = dirs.sorted().toList();
        }
        int restored = 0;
        for (Path version : versions) {
            for (Scenario sc : scenarios()) {
                Path dir = version.resolve(sc.dir());
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                String app = "golden-" + version.getFileName() + "-" + sc.dir();
                createInputs(app);
                for (String store : sc.stores()) {
                    String topic = app + "-golden-" + store + "-changelog";
                    kafka.createTopic(topic, 1, Map.of("cleanup.policy", "compact"));
                    TestRecords.produce(
                            kafka,
                            read(dir.resolve(store + ".changelog"), topic),
                            new ByteArraySerializer(),
                            new ByteArraySerializer());
                }
                try (KafkaStreams s = start(app, sc.config(), sc.checkProperties())) {
                    sc.check().accept(app, s);
                }
                restored++;
            }
        }
        assertThat(restored)
                .as("join fixtures restored from %s", GOLDEN.toAbsolutePath())
                .isPositive();
    }

    /**
     * The generator: runs the writer of each scenario that has no fixture yet and writes its changelogs into the
     * directory of the current format version, never over an existing one.
     */
    @Test
    @EnabledIfSystemProperty(named = "rtm.golden.write", matches = "true")
    void writeFixturesOfTheCurrentFormatVersion() throws Exception {
        for (Scenario sc : scenarios()) {
            if (existsInAnyVersion(sc)) {
                continue; // written by an earlier run: fixtures are never rewritten
            }
            String app = "golden-write-" + sc.dir();
            createInputs(app);
            KafkaStreams s = start(app, sc.config(), sc.writeProperties());
            sc.write().accept(app);
            Thread.sleep(1_000); // a few commits: the row batches reach the changelogs
            s.close();
            Path dir = GOLDEN.resolve("v" + formatVersion(app)).resolve(sc.dir());
            if (Files.exists(dir)) {
                throw new IllegalStateException(dir + " exists: fixtures are never rewritten");
            }
            Files.createDirectories(dir);
            for (String store : sc.stores()) {
                List<ConsumerRecord<byte[], byte[]>> records = TestRecords.consume(
                        kafka,
                        app + "-golden-" + store + "-changelog",
                        Integer.MAX_VALUE,
                        Duration.ofSeconds(5),
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer());
                Files.writeString(
                        dir.resolve(store + ".changelog"), format("golden-" + store, records), StandardCharsets.UTF_8);
            }
        }
    }

    private static boolean existsInAnyVersion(Scenario sc) throws IOException {
        if (!Files.isDirectory(GOLDEN)) {
            return false;
        }
        try (var dirs = Files.list(GOLDEN)) {
            return dirs.anyMatch(d -> Files.isDirectory(d.resolve(sc.dir())));
        }
    }

    /** @return the format version in the meta changelog of {@code app}'s join */
    private static int formatVersion(String app) {
        return TestRecords.consume(
                        kafka,
                        app + "-golden-meta-changelog",
                        Integer.MAX_VALUE,
                        Duration.ofSeconds(5),
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())
                .stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals("format"))
                .map(r -> java.nio.ByteBuffer.wrap(r.value()).getInt())
                .reduce((a, b) -> b)
                .orElseThrow();
    }
}
