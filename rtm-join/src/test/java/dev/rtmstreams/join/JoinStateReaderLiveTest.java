package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.join.JoinStateReader.KeyState;
import dev.rtmstreams.join.JoinStateReader.Row;
import dev.rtmstreams.join.JoinStateReader.Watermarks;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The join state reader against a real embedded KRaft broker: a running application's join state read live through
 * interactive queries on the task that owns each key (two partitions), then, once the application stopped, the same
 * state from its RocksDB task directories.
 */
class JoinStateReaderLiveTest {

    // Recent event times: the broker's time retention (7 days) would delete records with old timestamps.
    private static final long T0 = Instant.now().minus(Duration.ofHours(1)).toEpochMilli();
    private static final long MIN = 60_000;
    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        kafka.createTopics(2, "state-imps", "state-clicks");
        kafka.createTopics(1, "state-out");
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static IntervalJoin<String, String, String> join() {
        return IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .lowerBound(Duration.ZERO)
                .upperBound(Duration.ofMinutes(2))
                .leftWatermarkDelay(Duration.ofMinutes(5))
                .rightWatermarkDelay(Duration.ofMinutes(5))
                .name("state")
                .build();
    }

    private static KafkaStreams start(IntervalJoin<String, String, String> join, Path stateDir) {
        StreamsBuilder sb = new StreamsBuilder();
        join.join(
                        sb.stream("state-imps", Consumed.with(Serdes.String(), Serdes.String())),
                        sb.stream("state-clicks", Consumed.with(Serdes.String(), Serdes.String())),
                        (k, imp, click) -> imp + "," + click)
                .to("state-out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "join-state-reader-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        // the reader finds the owner of a key from the metadata (the service, without it, exercises the fallback)
        p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "localhost:1");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        KafkaStreams streams = new KafkaStreams(sb.build(), p);
        streams.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        return streams;
    }

    private static byte[] key(String k) {
        return k.getBytes(StandardCharsets.UTF_8);
    }

    /** @return the partition of {@code k} under Kafka's default partitioner, for two partitions */
    private static int partitionOf(String k) {
        return Utils.toPositive(Utils.murmur2(key(k))) % 2;
    }

    @Test
    void shouldReadEachKeysRowsOnTheTaskThatOwnsItWhenLiveAndTheSameFromTheStateDirectoryWhenStopped()
            throws Exception {
        IntervalJoin<String, String, String> join = join();
        Path stateDir = Files.createTempDirectory("rtm-join-state-reader");
        KafkaStreams streams = start(join, stateDir);
        List<String> keys = List.of("imp-1", "imp-2", "imp-3", "imp-4");
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            records.add(new ProducerRecord<>("state-imps", null, T0 + i * MIN, keys.get(i), "I" + i));
        }
        records.add(new ProducerRecord<>("state-clicks", null, T0 + MIN, "imp-1", "C1"));
        records.add(new ProducerRecord<>("state-clicks", null, T0 + 3 * MIN + 30_000, "imp-2", "C2")); // out of bound
        TestRecords.produce(kafka, records, new StringSerializer(), new StringSerializer());
        assertThat(TestRecords.consumeStrings(kafka, "state-out", 1, Duration.ofSeconds(60)))
                .singleElement()
                .satisfies(r -> assertThat(r.value()).isEqualTo("I0,C1"));

        List<KeyState> live = new ArrayList<>();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                KeyState two = JoinStateReader.query(streams, join, key("imp-2"))
                        .read(key("imp-2"))
                        .orElseThrow();
                assertThat(two.right()).hasSize(1);
            });
            for (String k : keys) {
                JoinStateReader reader = JoinStateReader.query(streams, join, key(k));
                assertThat(reader.partition()).contains(partitionOf(k));
                live.add(reader.read(key(k)).orElseThrow());
            }
            assertThat(JoinStateReader.query(streams, join, key("imp-none")).read(key("imp-none")))
                    .isEmpty();
        } finally {
            // KafkaStreams.CloseOptions: the close options of every supported Kafka Streams (4.1 has no other)
            @SuppressWarnings("deprecation")
            KafkaStreams.CloseOptions leave =
                    new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(30));
            streams.close(leave);
        }

        KeyState one = live.get(0);
        assertThat(one.partition()).isEqualTo(partitionOf("imp-1"));
        assertThat(one.left()).containsExactly(new Row("imp-1", T0, T0, false, "I0"));
        assertThat(one.right()).containsExactly(new Row("imp-1", T0 + MIN, T0 + MIN, true, "C1"));
        KeyState two = live.get(1);
        assertThat(two.right())
                .containsExactly(new Row("imp-2", T0 + 3 * MIN + 30_000, T0 + 3 * MIN + 30_000, false, "C2"));
        // the watermarks of each key's task: each input's max event time over the task's keys
        for (KeyState s : live) {
            long leftMax = T0
                    + MIN
                            * Stream.of(0, 1, 2, 3)
                                    .filter(i -> partitionOf(keys.get(i)) == s.partition())
                                    .max(Integer::compare)
                                    .orElseThrow();
            assertThat(s.watermarks().leftMaxEventTime()).isEqualTo(leftMax);
            Long rightMax = Stream.of(Map.entry("imp-1", T0 + MIN), Map.entry("imp-2", T0 + 3 * MIN + 30_000))
                    .filter(e -> partitionOf(e.getKey()) == s.partition())
                    .map(Map.Entry::getValue)
                    .max(Long::compare)
                    .orElse(null);
            assertThat(s.watermarks())
                    .isEqualTo(new Watermarks(
                            leftMax, rightMax, rightMax == null ? null : Math.min(leftMax, rightMax) - 5 * MIN));
        }

        // offline: the stopped application's RocksDB task directories hold the same state
        List<KeyState> offline = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(stateDir.resolve("join-state-reader-test"))) {
            for (Path task : tasks.filter(t -> Files.isDirectory(t.resolve("rocksdb/state-left-buffer")))
                    .toList()) {
                offline.addAll(JoinStateReader.fromRocksDbDirectory(join, task).readAll());
            }
        }
        assertThat(offline).containsExactlyInAnyOrderElementsOf(live);
    }
}
