package dev.rtmstreams.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class EmbeddedKafkaClusterTest {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaClusterTest.class);
    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startCluster() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        LOG.info("in-process broker start took {} ms", kafka.startupTime().toMillis());
    }

    @AfterAll
    static void stopCluster() {
        kafka.close();
    }

    @Test
    void shouldRoundTripRecordsWhenTopicCreated() {
        kafka.createTopic("round-trip", 3);
        List<ProducerRecord<String, Long>> sent = IntStream.range(0, 300)
                .mapToObj(i -> new ProducerRecord<>("round-trip", "key-" + (i % 17), (long) i))
                .toList();

        TestRecords.produce(kafka, sent, new StringSerializer(), new LongSerializer());
        List<ConsumerRecord<String, Long>> received = TestRecords.consume(
                kafka, "round-trip", 300, Duration.ofSeconds(20), new StringDeserializer(), new LongDeserializer());

        assertThat(received).hasSize(300);
        assertThat(received).extracting(ConsumerRecord::value).containsExactlyInAnyOrderElementsOf(longsUpTo(300));
        assertThat(received).extracting(ConsumerRecord::partition).containsOnly(0, 1, 2);
        // per key, order is preserved (one key always maps to one partition)
        Map<String, List<Long>> byKey = received.stream()
                .collect(Collectors.groupingBy(
                        ConsumerRecord::key, Collectors.mapping(ConsumerRecord::value, Collectors.toList())));
        byKey.values().forEach(values -> assertThat(values).isSorted());
        assertThat(kafka.endOffsets("round-trip").values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(300);
    }

    private static List<Long> longsUpTo(int n) {
        return IntStream.range(0, n).mapToObj(i -> (long) i).toList();
    }

    @Test
    void shouldListAndDeleteTopicsWhenCreatedTogether() {
        kafka.createTopics(2, "a-topic", "b-topic");
        assertThat(kafka.listTopics()).contains("a-topic", "b-topic");
        assertThat(kafka.endOffsets("a-topic"))
                .containsOnlyKeys(new TopicPartition("a-topic", 0), new TopicPartition("a-topic", 1));

        kafka.deleteTopics("a-topic", "no-such-topic");

        assertThat(kafka.listTopics()).contains("b-topic").doesNotContain("a-topic");
    }

    @Test
    void shouldFailWhenTopicAlreadyExists() {
        kafka.createTopic("twice", 1);

        assertThatThrownBy(() -> kafka.createTopic("twice", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("twice");
    }

    @Test
    void shouldRejectNonPositivePartitionsWhenCreatingTopic() {
        assertThatThrownBy(() -> kafka.createTopic("bad", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }

    @Test
    void shouldServeAdminClientWhenRunning() throws Exception {
        try (Admin admin = kafka.createAdminClient()) {
            assertThat(admin.describeCluster().nodes().get()).hasSize(1);
        }
        assertThat(kafka.isRunning()).isTrue();
        assertThat(kafka.bootstrapServers()).startsWith("localhost:");
        assertThat(Files.isDirectory(kafka.logDir())).isTrue();
    }

    @Test
    void shouldKeepRecordsWithOldTimestampsWhenTopicUsesBrokerDefaults() throws Exception {
        kafka.createTopic("old-timestamps", 1);
        TestRecords.produce(
                kafka,
                List.of(new ProducerRecord<>("old-timestamps", null, 10_000L, "k", "v")),
                new StringSerializer(),
                new StringSerializer());

        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "old-timestamps");
        try (Admin admin = kafka.createAdminClient()) {
            Config config = admin.describeConfigs(List.of(topic)).all().get().get(topic);
            assertThat(config.get("retention.ms").value())
                    .as("no time-based retention: the first retention check would delete a record from 1970")
                    .isEqualTo("-1");
        }
        assertThat(TestRecords.consumeStrings(kafka, "old-timestamps", 1, Duration.ofSeconds(10)))
                .extracting(ConsumerRecord::timestamp)
                .containsExactly(10_000L);
    }

    @Test
    void shouldQuietBrokerLoggersWhenLogbackLeavesThemUnset() {
        ch.qos.logback.classic.Logger controller =
                (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.apache.kafka.controller");
        ch.qos.logback.classic.Logger streams =
                (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.apache.kafka.streams");

        assertThat(controller.getLevel()).isEqualTo(ch.qos.logback.classic.Level.WARN);
        assertThat(streams.getLevel())
                .as("client and streams loggers are not touched")
                .isNull();
    }

    @Test
    void shouldReturnWhatArrivedWhenConsumeTimesOut() {
        kafka.createTopic("few", 1);
        TestRecords.produceStrings(kafka, "few", List.of(Map.entry("k", "v")));

        List<ConsumerRecord<String, String>> received =
                TestRecords.consumeStrings(kafka, "few", 5, Duration.ofMillis(1500));

        assertThat(received).extracting(ConsumerRecord::value).containsExactly("v");
    }

    @Test
    void shouldRejectBadBrokerCountWhenBuilding() {
        assertThatThrownBy(() -> EmbeddedKafkaCluster.builder().brokers(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(": 0");
    }

    @Test
    void shouldRefuseUseWhenNotStartedOrClosed() {
        EmbeddedKafkaCluster notStarted = EmbeddedKafkaCluster.builder().build();
        assertThatThrownBy(notStarted::bootstrapServers).isInstanceOf(IllegalStateException.class);
        notStarted.close();
        notStarted.close();
        assertThatThrownBy(notStarted::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }
}
