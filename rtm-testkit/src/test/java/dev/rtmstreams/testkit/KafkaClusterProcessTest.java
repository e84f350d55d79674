package dev.rtmstreams.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class KafkaClusterProcessTest {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClusterProcessTest.class);
    private static final Duration ELECTION = Duration.ofSeconds(30);

    @Test
    void shouldRejectInvalidOptionsWhenBuilding() {
        assertThatThrownBy(() -> KafkaClusterProcess.builder().nodes(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        assertThatThrownBy(() -> KafkaClusterProcess.builder().nodes(10).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("10");
        try (KafkaClusterProcess cluster =
                KafkaClusterProcess.builder().nodes(3).build()) {
            assertThatThrownBy(() -> cluster.node(4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("4")
                    .hasMessageContaining("1..3");
            assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
            assertThat(cluster.replicationFactor()).isEqualTo((short) 3);
            assertThat(cluster.minInsyncReplicas()).isEqualTo(2);
            assertThat(cluster.pids()).as("nothing runs before start").isEmpty();
        }
    }

    @Test
    void shouldKeepAcksAllProducerWritingWhenLeaderAndControllerAreKilled(@TempDir Path dir) throws Exception {
        try (KafkaClusterProcess cluster = KafkaClusterProcess.builder()
                .nodes(3)
                .logDir(dir.resolve("cluster"))
                .jvmOptions(List.of("-Xms64m", "-Xmx384m"))
                .build()) {
            long t0 = System.nanoTime();
            cluster.start();
            LOG.info("3-node cluster started in {} ms", (System.nanoTime() - t0) / 1_000_000);
            assertThat(cluster.pids()).hasSize(3).doesNotHaveDuplicates();

            cluster.createTopic("replicated", 2);
            TopicPartition p0 = new TopicPartition("replicated", 0);
            assertThat(cluster.inSyncReplicas(p0)).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(topicConfig(cluster, "replicated", "min.insync.replicas"))
                    .isEqualTo("2");

            // a transaction's coordinator lives on one of the nodes; an unknown id has none
            try (KafkaProducer<String, String> tx =
                    producer(cluster, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-probe"))) {
                tx.initTransactions();
                tx.beginTransaction();
                tx.send(new ProducerRecord<>("replicated", "tx", "tx"));
                tx.commitTransaction();
            }
            OptionalInt coordinator = cluster.transactionCoordinator("tx-probe");
            assertThat(coordinator).isPresent();
            assertThat(coordinator.getAsInt()).isBetween(1, 3);
            assertThat(cluster.transactionCoordinator("no-such-transaction")).isEmpty();

            Writer writer = new Writer(cluster, "replicated");
            try {
                writer.awaitAcked(200);

                // kill -9 the leader of partition 0: another in-sync replica takes over, acks=all keeps going
                int leader = cluster.leaderOf(p0);
                cluster.node(leader).kill();
                long killed = System.nanoTime();
                // leaderOf throws while p0 has no leader: the await counts that as not yet
                cluster.await(
                        "a new leader of " + p0 + " after node " + leader + " was killed",
                        ELECTION,
                        () -> cluster.leaderOf(p0) != leader);
                LOG.info("new leader of {} after {} ms", p0, (System.nanoTime() - killed) / 1_000_000);
                assertThat(cluster.inSyncReplicas(p0)).doesNotContain(leader).hasSize(2);
                writer.awaitAcked(writer.acked() + 200);

                // the killed node restarts on its log directory and rejoins every in-sync replica set
                cluster.node(leader).start();
                cluster.awaitFullIsr(ELECTION, "replicated");
                assertThat(cluster.inSyncReplicas(p0)).contains(leader).hasSize(3);
                assertThat(cluster.leaders(List.of("replicated")))
                        .containsOnlyKeys(p0, new TopicPartition("replicated", 1))
                        .allSatisfy((tp, node) -> assertThat(node).isBetween(1, 3));

                // SIGSTOP freezes the process (state T in /proc), SIGCONT lets it run on
                KafkaBrokerProcess frozen = cluster.node(leader);
                frozen.pause();
                assertThat(frozen.isPaused()).isTrue();
                await("state T of the paused node", () -> processState(frozen) == 'T');
                assertThatThrownBy(frozen::pause)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("already paused");
                frozen.resume();
                assertThat(frozen.isPaused()).isFalse();
                await("the resumed node out of state T", () -> processState(frozen) != 'T');

                // kill -9 the active controller: another voter becomes active
                int controller = cluster.activeController();
                cluster.node(controller).kill();
                cluster.await(
                        "a new active controller after node " + controller + " was killed",
                        ELECTION,
                        () -> cluster.activeController() != controller);
                writer.awaitAcked(writer.acked() + 200);
            } finally {
                writer.close();
            }

            Writer.Result result = writer.result();
            assertThat(result.errors()).as("send errors").isEmpty();
            List<ConsumerRecord<String, String>> read = TestRecords.consume(
                    cluster,
                    "replicated",
                    result.acked().size() + 1,
                    Duration.ofSeconds(30),
                    new StringDeserializer(),
                    new StringDeserializer(),
                    Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
            Set<String> values = new HashSet<>();
            read.forEach(r -> values.add(r.value()));
            assertThat(values).as("every acknowledged record survives").containsAll(result.acked());
        }
    }

    /** @return the state letter of the node's process in {@code /proc/<pid>/stat} (T: stopped) */
    private static char processState(KafkaBrokerProcess node) {
        try {
            String stat =
                    java.nio.file.Files.readString(Path.of("/proc", node.pid().orElseThrow() + "", "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String topicConfig(KafkaCluster cluster, String topic, String name) throws Exception {
        try (Admin admin = cluster.createAdminClient()) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = admin.describeConfigs(List.of(resource))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(resource);
            return config.get(name).value();
        }
    }

    private static KafkaProducer<String, String> producer(KafkaCluster cluster, Map<String, Object> extra) {
        Map<String, Object> config = cluster.clientConfig();
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.putAll(extra);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + ELECTION.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within " + ELECTION);
            }
            Thread.sleep(100);
        }
    }

    /** An acks=all producer sending one record every millisecond or so until closed. */
    private static final class Writer {
        record Result(List<String> acked, List<String> errors) {}

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong ackedCount = new AtomicLong();
        private final List<String> acked = Collections.synchronizedList(new ArrayList<>());
        private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        private final Thread thread;

        Writer(KafkaCluster cluster, String topic) {
            thread = new Thread(
                    () -> {
                        try (KafkaProducer<String, String> p = producer(cluster, Map.of())) {
                            for (long i = 0; running.get(); i++) {
                                String value = "v" + i;
                                p.send(new ProducerRecord<>(topic, "k" + (i % 16), value), (md, e) -> {
                                    if (e == null) {
                                        acked.add(value);
                                        ackedCount.incrementAndGet();
                                    } else {
                                        errors.add(value + ": " + e);
                                    }
                                });
                                Thread.sleep(1);
                            }
                            p.flush();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "acks-all-writer");
            thread.start();
        }

        long acked() {
            return ackedCount.get();
        }

        void awaitAcked(long count) throws InterruptedException {
            await(
                    count + " acknowledged records (have " + acked() + ", errors " + errors + ")",
                    () -> acked() >= count);
        }

        void close() throws InterruptedException {
            running.set(false);
            thread.join(150_000);
        }

        /** @return what was acknowledged and what failed; complete after {@link #close()} */
        Result result() {
            synchronized (acked) {
                synchronized (errors) {
                    return new Result(List.copyOf(acked), List.copyOf(errors));
                }
            }
        }
    }
}
