package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Against a real embedded KRaft broker: a join task that Kafka Streams recycles (active, then standby, then active
 * again on the same instance, its stores kept open) joins the rows its standby incarnation applied from the changelog.
 *
 * <p>Two instances A and B of one application (one stream thread each, one standby replica, input topics of two
 * partitions: two join tasks). A runs alone and joins a row on each partition, which builds both tasks' shared join
 * state (key filters, meta). B joins the group and takes one task; A keeps it as a standby (the active task is
 * recycled into a standby). B buffers impressions of new keys on that task; A's standby applies them from the
 * changelog. B leaves the group; A takes the task back (the standby is recycled into an active task) and receives the
 * matching clicks: every one must join.
 *
 * <p>Guards the recycle fix (commit 41b5202; today the task-shared state is dropped when both side processors
 * release it in {@code JoinCore#close}): before it, the task kept the key filters of its first active incarnation, which do not hold the keys the standby applied,
 * so the clicks' probes were skipped as "no such key buffered" and their joins lost.
 */
class IntervalJoinRecycleTest {

    // Recent event times: the broker's time retention (7 days) would delete records with old timestamps.
    private static final long T0 = Instant.now().minus(Duration.ofHours(1)).toEpochMilli();
    private static final String APPLICATION_ID = "join-handover-test";
    private static final String PREFIX = "handover-";
    private static final String OUTPUT = PREFIX + "out";
    private static final int PARTITIONS = 2;
    private static final Set<TaskId> BOTH_TASKS = Set.of(new TaskId(0, 0), new TaskId(0, 1));

    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        kafka.createTopics(PARTITIONS, PREFIX + "imps", PREFIX + "clicks", OUTPUT);
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void shouldJoinTheRowsItsStandbyAppliedWhenATaskIsRecycledBackToActive() throws Exception {
        KafkaStreams a = start(Files.createTempDirectory("rtm-join-handover-a"));
        KafkaStreams b = null;
        try {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> running(a) && active(a).equals(BOTH_TASKS));
            // both tasks active on A, their filters built: one join on each partition
            List<String> expected = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                String key = keysOn(p, 1, "first-").get(0);
                send("imps", key, "I-" + key, T0);
                send("clicks", key, "C-" + key, T0);
                expected.add("I-" + key + ",C-" + key);
            }
            assertThat(awaitOutput(expected.size())).containsExactlyInAnyOrderElementsOf(expected);

            KafkaStreams second = start(Files.createTempDirectory("rtm-join-handover-b"));
            b = second;
            // B is caught up (the changelogs hold a few records, far below acceptable.recovery.lag): the assignor
            // balances the two tasks, and A keeps the one it gives up as a standby
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> running(a)
                            && running(second)
                            && active(second).size() == 1
                            && active(a).size() == 1
                            && standby(a).equals(active(second)));
            int moved = active(second).iterator().next().partition();

            // impressions of new keys, buffered by B; A's standby copy of the task applies them from the changelog
            List<String> keys = keysOn(moved, 5, "new-");
            for (String key : keys) {
                send("imps", key, "I-" + key, T0 + Duration.ofMinutes(1).toMillis());
            }
            long rowsOnMoved = 1 + keys.size(); // the first row of the partition is still buffered (not evicted)
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() ->
                            leftRows(second, moved, false) == rowsOnMoved && leftRows(a, moved, true) == rowsOnMoved);

            // B leaves the group: A takes the task back, recycling its standby into an active task
            closeLeavingGroup(second);
            b = null;
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> running(a)
                            && active(a).equals(BOTH_TASKS)
                            && standby(a).isEmpty());

            for (String key : keys) {
                send("clicks", key, "C-" + key, T0 + Duration.ofMinutes(1).toMillis());
                expected.add("I-" + key + ",C-" + key);
            }
            assertThat(awaitOutput(expected.size()))
                    .as(
                            "every click on partition %d joins the impression B buffered and A's standby restored"
                                    + " (keys %s)",
                            moved, keys)
                    .containsExactlyInAnyOrderElementsOf(expected);
        } finally {
            if (b != null) {
                closeLeavingGroup(b);
                b.cleanUp();
            }
            closeLeavingGroup(a);
            a.cleanUp();
        }
    }

    private static KafkaStreams start(Path stateDir) {
        Properties p = IntervalJoinRestartTest.streamsProperties(kafka, stateDir, APPLICATION_ID);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
        // the rebalances B's join and leave trigger reach A at its next heartbeat
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 500);
        KafkaStreams streams =
                new KafkaStreams(IntervalJoinRestartTest.topology(PREFIX, builder -> builder.name("handover")), p);
        streams.start();
        return streams;
    }

    /** Closes with an explicit LeaveGroup: the other instance takes over without waiting for a session timeout. */
    private static void closeLeavingGroup(KafkaStreams streams) {
        // KafkaStreams.CloseOptions: the close options of every supported Kafka Streams (4.1 has no other)
        @SuppressWarnings("deprecation")
        KafkaStreams.CloseOptions leave =
                new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(30));
        streams.close(leave);
    }

    private static boolean running(KafkaStreams streams) {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    private static Set<TaskId> active(KafkaStreams streams) {
        return tasks(streams, ThreadMetadata::activeTasks);
    }

    private static Set<TaskId> standby(KafkaStreams streams) {
        return tasks(streams, ThreadMetadata::standbyTasks);
    }

    private static Set<TaskId> tasks(KafkaStreams streams, Function<ThreadMetadata, Set<TaskMetadata>> kind) {
        return streams.metadataForLocalThreads().stream()
                .flatMap(t -> kind.apply(t).stream())
                .map(TaskMetadata::taskId)
                .collect(Collectors.toSet());
    }

    /**
     * Counts the rows (keys starting with 0; not the eviction marker) of the left buffer of one partition's task.
     *
     * @param standby whether the instance holds the task as a standby (its copy is queried as a stale store)
     */
    private static long leftRows(KafkaStreams streams, int partition, boolean standby) {
        StoreQueryParameters<ReadOnlyKeyValueStore<Bytes, byte[]>> query = StoreQueryParameters.fromNameAndType(
                        "handover-left-buffer", QueryableStoreTypes.<Bytes, byte[]>keyValueStore())
                .withPartition(partition);
        ReadOnlyKeyValueStore<Bytes, byte[]> kv = streams.store(standby ? query.enableStaleStores() : query);
        long n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = kv.all()) {
            while (it.hasNext()) {
                if (it.next().key.get()[0] == 0) {
                    n++;
                }
            }
        }
        return n;
    }

    /** @return {@code n} keys that the producer's default partitioner sends to {@code partition} */
    private static List<String> keysOn(int partition, int n, String prefix) {
        List<String> keys = new ArrayList<>(n);
        for (int i = 0; keys.size() < n; i++) {
            String key = prefix + i;
            if (Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS == partition) {
                keys.add(key);
            }
        }
        return keys;
    }

    private static void send(String topic, String key, String value, long ts) {
        TestRecords.produce(
                kafka,
                List.of(new ProducerRecord<>(PREFIX + topic, null, ts, key, value)),
                new StringSerializer(),
                new StringSerializer());
    }

    private static List<String> awaitOutput(int n) {
        return TestRecords.consumeStrings(kafka, OUTPUT, n, Duration.ofSeconds(20)).stream()
                .map(ConsumerRecord::value)
                .toList();
    }
}
