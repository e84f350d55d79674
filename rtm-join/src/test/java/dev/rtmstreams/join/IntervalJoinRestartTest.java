package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Against a real embedded KRaft broker: stop the application, wipe its local state, restart it; buffered rows and
 * the watermark come back from the changelog topics and matching continues, and copies of restored rows are still
 * dropped ({@code distinctBy}: the id filter is rebuilt from the restored rows).
 */
class IntervalJoinRestartTest {

    // Recent event times: the broker's time retention (7 days) would delete records with old timestamps.
    private static final long T0 = Instant.now().minus(Duration.ofHours(1)).toEpochMilli();
    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        kafka.createTopics(
                1,
                "imps",
                "clicks",
                "attributed",
                "outer-imps",
                "outer-clicks",
                "outer-out",
                "seg-imps",
                "seg-clicks",
                "seg-out");
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /**
     * The attribution join with its time index in local stores ({@link EvictionIndex#STATE_STORE}), so that the test
     * can see the index rebuilt from the restored rows; the outer join's test runs on the heap index.
     */
    private static Topology topology() {
        return topology(
                "",
                b -> b.leftDistinctBy((k, v) -> v, Serdes.String())
                        .rightDistinctBy((k, v) -> v, Serdes.String())
                        .evictionIndex(EvictionIndex.STATE_STORE)
                        .name("attribution"));
    }

    /** A left outer join of {@code outer-imps} and {@code outer-clicks}: the seed's bounds and delays. */
    private static Topology outerTopology() {
        return topology(
                "outer-",
                b -> b.joinType(JoinType.LEFT_OUTER)
                        .evictionIndex(EvictionIndex.HEAP)
                        .evictionInterval(Duration.ofMillis(100))
                        .name("outer"));
    }

    /**
     * An interval join of {@code imps} (left) and {@code clicks} (right) with the seed's bounds (0 to 2 min) and
     * watermark delays (5 min); the output is {@code imp + "," + click}. Shared with the other broker tests of this
     * package.
     *
     * @param topicPrefix prefix of the topics {@code imps}, {@code clicks} and the output ({@code attributed}, or
     *     {@code out} with a prefix)
     * @param config the join's settings beyond the seed's bounds and delays
     */
    static Topology topology(String topicPrefix, Consumer<IntervalJoin.Builder<String, String, String>> config) {
        StreamsBuilder sb = new StreamsBuilder();
        IntervalJoin.Builder<String, String, String> b = IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .lowerBound(Duration.ZERO)
                .upperBound(Duration.ofMinutes(2))
                .leftWatermarkDelay(Duration.ofMinutes(5))
                .rightWatermarkDelay(Duration.ofMinutes(5));
        config.accept(b);
        b.build()
                .join(
                        sb.stream(topicPrefix + "imps", Consumed.with(Serdes.String(), Serdes.String())),
                        sb.stream(topicPrefix + "clicks", Consumed.with(Serdes.String(), Serdes.String())),
                        (k, imp, click) -> imp + "," + click)
                .to(
                        topicPrefix.isEmpty() ? "attributed" : topicPrefix + "out",
                        Produced.with(Serdes.String(), Serdes.String()));
        return sb.build();
    }

    /**
     * The join tests' Kafka Streams settings: commit every 100 ms, no record cache, read from the earliest offset, and a
     * 6 s session (the broker's minimum): on Kafka Streams 4.1 a dynamic member does not leave its group on close even
     * when asked to, so the next instance's rebalance waits for the closed one's session to expire.
     */
    static Properties streamsProperties(EmbeddedKafkaCluster kafka, Path stateDir, String applicationId) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
        return p;
    }

    private static KafkaStreams start(Path stateDir) {
        return start(stateDir, "join-restart-test", topology());
    }

    private static KafkaStreams start(Path stateDir, String applicationId, Topology topology) {
        KafkaStreams streams = new KafkaStreams(topology, streamsProperties(kafka, stateDir, applicationId));
        streams.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        return streams;
    }

    /**
     * Closes with an explicit LeaveGroup, so the restarted member does not wait for the old member's session to
     * time out (Kafka Streams otherwise does not leave the group on close).
     */
    private static void closeLeavingGroup(KafkaStreams streams) {
        // KafkaStreams.CloseOptions: the close options of every supported Kafka Streams (4.1 has no other)
        @SuppressWarnings("deprecation")
        KafkaStreams.CloseOptions leave =
                new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(30));
        streams.close(leave);
    }

    private static long entries(KafkaStreams streams, String store) {
        return count(streams, store, key -> true);
    }

    /** Counts the rows of a join buffer store (keys starting with 0; the eviction marker is not a row). */
    private static long rows(KafkaStreams streams, String store) {
        return count(streams, store, key -> key[0] == 0);
    }

    private static long count(KafkaStreams streams, String store, Predicate<byte[]> keys) {
        ReadOnlyKeyValueStore<Bytes, byte[]> kv = streams.store(
                StoreQueryParameters.fromNameAndType(store, QueryableStoreTypes.<Bytes, byte[]>keyValueStore()));
        long n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = kv.all()) {
            while (it.hasNext()) {
                if (keys.test(it.next().key.get())) {
                    n++;
                }
            }
        }
        return n;
    }

    private static void send(String topic, String key, String value, long ts) {
        TestRecords.produce(
                kafka,
                List.of(new ProducerRecord<>(topic, null, ts, key, value)),
                new StringSerializer(),
                new StringSerializer());
    }

    private static List<String> awaitOutput(int n) {
        List<ConsumerRecord<String, String>> out =
                TestRecords.consumeStrings(kafka, "attributed", n, Duration.ofSeconds(60));
        return out.stream().map(ConsumerRecord::value).toList();
    }

    @Test
    void shouldRestoreBufferedRowsAndWatermarkFromTheChangelogWhenRestartedWithWipedLocalState() throws Exception {
        Path stateDir = Files.createTempDirectory("rtm-join-restart");
        KafkaStreams first = start(stateDir);
        send("imps", "imp1", "I1", T0);
        send("imps", "imp2", "I2", T0 + Duration.ofMinutes(9).toMillis()); // stays buffered
        send("imps", "a", "A", T0 + Duration.ofMinutes(10).toMillis());
        send("clicks", "a", "A'", T0 + Duration.ofMinutes(10).toMillis()); // global watermark = 5 min
        assertThat(awaitOutput(1)).containsExactly("A,A'");
        closeLeavingGroup(first);
        first.cleanUp(); // wipe local state: everything must come back from the changelogs

        KafkaStreams second = start(stateDir);
        try {
            // the local time index (not changelogged) was rebuilt from the restored rows: one entry per row
            // (I1 was evicted before the restart: the watermark, 5 min, passed 0 + 2 min; evicted without a
            // changelog tombstone, the restore deleted it as the side's eviction marker says, the buffer's one
            // other entry)
            assertThat(rows(second, "attribution-left-buffer")).isEqualTo(2);
            assertThat(entries(second, "attribution-left-buffer")).isEqualTo(3);
            assertThat(entries(second, "attribution-left-index")).isEqualTo(2);
            assertThat(entries(second, "attribution-right-index"))
                    .isEqualTo(entries(second, "attribution-right-buffer"))
                    .isEqualTo(1);
            send("clicks", "imp2", "C2", T0 + Duration.ofMinutes(10).toMillis()); // matches the restored I2
            assertThat(awaitOutput(2)).containsExactly("A,A'", "I2,C2");
            // copies of the restored I2 and of C2, as a replay after a crash would send them: dropped, not joined
            send("imps", "imp2", "I2", T0 + Duration.ofMinutes(9).toMillis());
            send("clicks", "imp2", "C2", T0 + Duration.ofMinutes(10).toMillis());

            // behind the restored watermark (5 min): late, although it is inside I1's bound
            send("clicks", "imp1", "C1-late", T0 + Duration.ofMinutes(1).toMillis());
            send("imps", "s", "S", T0 + Duration.ofMinutes(12).toMillis());
            send("clicks", "s", "S'", T0 + Duration.ofMinutes(12).toMillis());
            assertThat(awaitOutput(3)).containsExactly("A,A'", "I2,C2", "S,S'");
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(IntervalJoin.lateRecordsTotal(second.metrics(), "attribution"))
                            .isEqualTo(1));
            assertThat(IntervalJoin.duplicateRecordsTotal(second.metrics(), "attribution"))
                    .isEqualTo(2);

            // copies of the held S and S' with a later time: dropped, and they move the watermark to 25 min although
            // no buffered row shows it, so it must be in the changelog
            send("imps", "s", "S", T0 + Duration.ofMinutes(30).toMillis());
            send("clicks", "s", "S'", T0 + Duration.ofMinutes(30).toMillis());
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(IntervalJoin.duplicateRecordsTotal(second.metrics(), "attribution"))
                            .isEqualTo(4));
        } finally {
            closeLeavingGroup(second);
            second.cleanUp();
        }

        KafkaStreams third = start(stateDir);
        try {
            // behind the watermark of 25 min: late, not joined, after the restart as before it
            send("clicks", "u", "U'", T0 + Duration.ofMinutes(20).toMillis());
            send("imps", "u", "U", T0 + Duration.ofMinutes(20).toMillis());
            send("imps", "v", "V", T0 + Duration.ofMinutes(31).toMillis());
            send("clicks", "v", "V'", T0 + Duration.ofMinutes(31).toMillis());
            assertThat(awaitOutput(4)).containsExactly("A,A'", "I2,C2", "S,S'", "V,V'");
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(IntervalJoin.lateRecordsTotal(third.metrics(), "attribution"))
                            .isEqualTo(2));
        } finally {
            closeLeavingGroup(third);
            third.cleanUp();
        }
    }

    @Test
    void shouldNotEmitAnEvictedRowAgainWhenRestartedWithWipedLocalState() throws Exception {
        Path stateDir = Files.createTempDirectory("rtm-join-restart-outer");
        KafkaStreams first = start(stateDir, "join-restart-outer-test", outerTopology());
        send("outer-imps", "u", "U", T0); // never matched: emitted with null once evicted
        send("outer-imps", "w", "W", T0 + Duration.ofMinutes(9).toMillis()); // stays buffered
        send("outer-imps", "a", "A", T0 + Duration.ofMinutes(10).toMillis());
        send("outer-clicks", "a", "A'", T0 + Duration.ofMinutes(10).toMillis()); // global watermark = 5 min
        assertThat(outerOutput(2, Duration.ofSeconds(60))).containsExactlyInAnyOrder("A,A'", "U,null");
        closeLeavingGroup(first);
        first.cleanUp(); // U's row is still in the changelog (no tombstone): the restore must not bring it back

        KafkaStreams second = start(stateDir, "join-restart-outer-test", outerTopology());
        try {
            assertThat(rows(second, "outer-left-buffer")).isEqualTo(2); // W and A
            // watermark 7 min: eviction passes run (every 100 ms) and would emit a restored U again
            send("outer-imps", "s", "S", T0 + Duration.ofMinutes(12).toMillis());
            send("outer-clicks", "s", "S'", T0 + Duration.ofMinutes(12).toMillis());
            assertThat(outerOutput(3, Duration.ofSeconds(60))).contains("S,S'");
            Thread.sleep(2_000); // some 20 eviction passes
            assertThat(outerOutput(4, Duration.ofSeconds(3))).containsExactlyInAnyOrder("A,A'", "U,null", "S,S'");
            // watermark 13 min: the restored W (9 min) is evicted unmatched; A (10 min) too, but it matched A' before
            // the restart: its matched flag must have come back with it (written after A's own changelog record)
            send("outer-imps", "x", "X", T0 + Duration.ofMinutes(18).toMillis());
            send("outer-clicks", "x", "X'", T0 + Duration.ofMinutes(18).toMillis());
            assertThat(outerOutput(5, Duration.ofSeconds(60))).contains("W,null");
            Thread.sleep(2_000);
            assertThat(outerOutput(6, Duration.ofSeconds(3)))
                    .containsExactlyInAnyOrder("A,A'", "U,null", "S,S'", "X,X'", "W,null");
        } finally {
            closeLeavingGroup(second);
            second.cleanUp();
        }
    }

    /** The attribution join on the {@code seg-} topics with the given eviction index. */
    private static Topology segmentsTopology(EvictionIndex index) {
        return topology("seg-", b -> b.evictionIndex(index).name("seg"));
    }

    @Test
    void shouldKeepBufferedRowsWhenTheEvictionIndexSwitchesToAndFromSegmentsAcrossRestarts() throws Exception {
        Path stateDir = Files.createTempDirectory("rtm-join-restart-segments");
        String app = "join-restart-segments-test";
        KafkaStreams first = start(stateDir, app, segmentsTopology(EvictionIndex.STATE_STORE));
        send("seg-imps", "k1", "I1", T0 + Duration.ofMinutes(1).toMillis());
        send("seg-imps", "k2", "I2", T0 + Duration.ofMinutes(3).toMillis());
        await().atMost(Duration.ofSeconds(30)).until(() -> rows(first, "seg-left-buffer") == 2);
        closeLeavingGroup(first); // local state kept: the next start finds rows of the plain layout

        KafkaStreams second = start(stateDir, app, segmentsTopology(EvictionIndex.SEGMENTS));
        try {
            // the rows were rewritten under segmented keys at task start, and still match
            assertThat(count(second, "seg-left-buffer", key -> key[0] == 0)).isZero();
            assertThat(count(second, "seg-left-buffer", key -> key[0] == 4)).isEqualTo(2);
            send("seg-clicks", "k1", "C1", T0 + Duration.ofMinutes(2).toMillis());
            assertThat(segOutput(1)).containsExactly("I1,C1");
            // watermark T0 + 9 min: the 1-minute segments of I1 (1 min) and I2 (3 min) end before 9 - 2 min, the upper
            // bound: both are deleted whole; C1's (2 min) too
            send("seg-imps", "k3", "I3", T0 + Duration.ofMinutes(14).toMillis());
            send("seg-clicks", "k3", "C3", T0 + Duration.ofMinutes(14).toMillis());
            assertThat(segOutput(2)).containsExactly("I1,C1", "I3,C3");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> rows(second, "seg-left-buffer") == 0
                            && count(second, "seg-left-buffer", key -> key[0] == 4) == 1);
        } finally {
            closeLeavingGroup(second);
            second.cleanUp(); // the next start restores from a changelog holding both layouts' keys
        }

        KafkaStreams third = start(stateDir, app, segmentsTopology(EvictionIndex.SEGMENTS));
        try {
            assertThat(count(third, "seg-left-buffer", key -> key[0] == 4)).isEqualTo(1); // I3 only
            assertThat(count(third, "seg-left-buffer", key -> key[0] == 0)).isZero();
            send("seg-clicks", "k3", "C3b", T0 + Duration.ofMinutes(15).toMillis());
            assertThat(segOutput(3)).containsExactly("I1,C1", "I3,C3", "I3,C3b");
        } finally {
            closeLeavingGroup(third);
        }

        KafkaStreams fourth = start(stateDir, app, segmentsTopology(EvictionIndex.STATE_STORE));
        try {
            // back to plain row keys and a time index, rebuilt from the rewritten rows
            assertThat(count(fourth, "seg-left-buffer", key -> key[0] == 4)).isZero();
            assertThat(rows(fourth, "seg-left-buffer")).isEqualTo(1);
            assertThat(entries(fourth, "seg-left-index")).isEqualTo(1);
            send("seg-clicks", "k3", "C3c", T0 + Duration.ofMinutes(15).toMillis());
            assertThat(segOutput(4)).containsExactly("I1,C1", "I3,C3", "I3,C3b", "I3,C3c");
        } finally {
            closeLeavingGroup(fourth);
            fourth.cleanUp();
        }
    }

    private static List<String> segOutput(int n) {
        return TestRecords.consumeStrings(kafka, "seg-out", n, Duration.ofSeconds(60)).stream()
                .map(ConsumerRecord::value)
                .toList();
    }

    private static List<String> outerOutput(int n, Duration timeout) {
        return TestRecords.consumeStrings(kafka, "outer-out", n, timeout).stream()
                .map(ConsumerRecord::value)
                .toList();
    }
}
