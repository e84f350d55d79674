package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.errors.StateFormatVersionTooNewException;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Against a real embedded KRaft broker, the checks an upgrade or a downgrade meets: the join's state format version in
 * its meta changelog (written at the first start, refused at restore when newer than this release reads), and the
 * check of existing buffer changelog topics created with an earlier release's configs.
 */
class JoinUpgradeChecksTest {

    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        kafka.createTopics(1, "fmt-imps", "fmt-clicks", "fmt-out");
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static KafkaStreams streams(String applicationId, Path stateDir) {
        return new KafkaStreams(
                IntervalJoinRestartTest.topology("fmt-", b -> b.name("fmtjoin")),
                IntervalJoinRestartTest.streamsProperties(kafka, stateDir, applicationId));
    }

    private static byte[] version(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    @Test
    void shouldRecordTheFormatVersionInTheMetaChangelogWhenAJoinFirstStarts() throws Exception {
        try (KafkaStreams s = streams("join-format-new", Files.createTempDirectory("rtm-join-format"))) {
            s.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> s.state() == KafkaStreams.State.RUNNING);
            List<ConsumerRecord<byte[], byte[]>> meta = TestRecords.consume(
                    kafka,
                    "join-format-new-fmtjoin-meta-changelog",
                    1,
                    Duration.ofSeconds(30),
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
            assertThat(meta)
                    .filteredOn(r -> new String(r.key(), StandardCharsets.UTF_8).equals("format"))
                    .extracting(ConsumerRecord::value)
                    .containsExactly(version(1));
        }
    }

    @Test
    void shouldRefuseToStartWhenTheMetaChangelogHoldsANewerFormatVersion() throws Exception {
        // the changelog as a newer release left it: restored before the join's processors start
        String metaChangelog = "join-format-newer-fmtjoin-meta-changelog";
        kafka.createTopic(metaChangelog, 1, Map.of("cleanup.policy", "compact"));
        TestRecords.produce(
                kafka,
                List.of(new ProducerRecord<>(metaChangelog, "format".getBytes(StandardCharsets.UTF_8), version(3))),
                new ByteArraySerializer(),
                new ByteArraySerializer());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (KafkaStreams s = streams("join-format-newer", Files.createTempDirectory("rtm-join-format"))) {
            s.setUncaughtExceptionHandler(e -> {
                failure.compareAndSet(null, e);
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
            s.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> failure.get() != null);
        }
        Throwable c = failure.get();
        while (c != null && !(c instanceof RtmException)) {
            c = c.getCause();
        }
        assertThat(c).as("the cause chain of %s", failure.get()).isInstanceOf(StateFormatVersionTooNewException.class);
        RtmException e = (RtmException) c;
        assertThat(e.errorCode()).isEqualTo("STATE_STORE_FORMAT_VERSION_TOO_NEW");
        assertThat(e.context()).containsEntry("operator", "fmtjoin");
        assertThat(e.parameters())
                .containsEntry("storeName", "fmtjoin-meta")
                .containsEntry("foundVersion", "3")
                .containsEntry("maxSupportedVersion", "2")
                .containsEntry("supportedVersions", "1, 2");
    }

    private static IntervalJoin<String, String, String> join() {
        return IntervalJoin.<String, String, String>builder()
                .keySerde(org.apache.kafka.common.serialization.Serdes.String())
                .leftSerde(org.apache.kafka.common.serialization.Serdes.String())
                .rightSerde(org.apache.kafka.common.serialization.Serdes.String())
                .lowerBound(Duration.ZERO)
                .upperBound(Duration.ofMinutes(2))
                .leftWatermarkDelay(Duration.ofMinutes(5))
                .rightWatermarkDelay(Duration.ofMinutes(5))
                .name("cfgjoin")
                .build();
    }

    @Test
    void shouldPassTheBufferChangelogCheckWhenTheTopicsDoNotExistOrHaveTheCurrentConfigs() {
        IntervalJoin<String, String, String> join = join();
        try (Admin admin = kafka.createAdminClient()) {
            assertThatCode(() -> join.verifyBufferChangelogConfigs(admin, "cfg-none"))
                    .doesNotThrowAnyException();
            // 2 + 5 + 5 minutes of horizon, plus one day
            String retention = Long.toString(Duration.ofMinutes(12).plusDays(1).toMillis());
            for (String side : List.of("left", "right")) {
                kafka.createTopic(
                        "cfg-current-cfgjoin-" + side + "-buffer-changelog",
                        1,
                        Map.of(
                                "cleanup.policy",
                                "compact,delete",
                                "retention.ms",
                                retention,
                                "message.timestamp.type",
                                "LogAppendTime"));
            }
            assertThatCode(() -> join.verifyBufferChangelogConfigs(admin, "cfg-current"))
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void shouldFailWithTheCommandToRunWhenABufferChangelogHasTheCompactOnlyConfigOfAnEarlierRelease() {
        IntervalJoin<String, String, String> join = join();
        // created by an earlier release: Kafka Streams' default for a key-value store's changelog
        kafka.createTopic("cfg-old-cfgjoin-left-buffer-changelog", 1, Map.of("cleanup.policy", "compact"));
        try (Admin admin = kafka.createAdminClient()) {
            assertThatThrownBy(() -> join.verifyBufferChangelogConfigs(admin, "cfg-old"))
                    .isInstanceOfSatisfying(RtmException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(IntervalJoin.JOIN_BUFFER_CHANGELOG_OUTDATED_CONFIG);
                        assertThat(e.context()).containsEntry("operator", "cfgjoin");
                        assertThat(e.parameters())
                                .containsEntry("topics", "cfg-old-cfgjoin-left-buffer-changelog")
                                .containsEntry("cleanupPolicy", "compact")
                                .containsEntry(
                                        "commands",
                                        "kafka-configs.sh --bootstrap-server <bootstrap.servers> --alter"
                                                + " --entity-type topics --entity-name"
                                                + " cfg-old-cfgjoin-left-buffer-changelog --add-config"
                                                + " cleanup.policy=[compact,delete],retention.ms="
                                                + Duration.ofMinutes(12)
                                                        .plusDays(1)
                                                        .toMillis()
                                                + ",message.timestamp.type=LogAppendTime");
                    });
        }
    }
}
