package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.topology.RealTimeClientSettings;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

class KafkaStreamsPeerTest {

    private static Properties properties(KafkaStreamsPeer.Kind kind) {
        return KafkaStreamsPeer.properties(kind, "localhost:9092", "app", Path.of("state"), 2);
    }

    @Test
    void shouldRunWithExactlyRealTimeModesOwnClientSettingsWhenTunedOrPassingThrough() {
        for (KafkaStreamsPeer.Kind kind :
                new KafkaStreamsPeer.Kind[] {KafkaStreamsPeer.Kind.JOIN_TUNED, KafkaStreamsPeer.Kind.PASSTHROUGH}) {
            Properties p = properties(kind);

            // the very values of the published map (the same objects, not equal copies)
            for (Map.Entry<String, Object> e :
                    RealTimeClientSettings.properties().entrySet()) {
                assertThat(p.get(e.getKey())).as("%s %s", kind, e.getKey()).isSameAs(e.getValue());
            }
            assertThat(p)
                    .containsEntry(
                            StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Trigger.DEFAULT_CHECKPOINT_INTERVAL.toMillis())
                    .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE)
                    .containsEntry(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        }
    }

    @Test
    void shouldKeepKafkasFetchAndTaskIdleDefaultsWhenTheJoinIsStock() {
        Properties p = properties(KafkaStreamsPeer.Kind.JOIN);

        assertThat(p)
                .doesNotContainKeys(
                        "consumer.fetch.min.bytes",
                        StreamsConfig.MAX_TASK_IDLE_MS_CONFIG,
                        StreamsConfig.POLL_MS_CONFIG,
                        StreamsConfig.COMMIT_INTERVAL_MS_CONFIG,
                        "consumer.session.timeout.ms",
                        "consumer.heartbeat.interval.ms",
                        StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)
                .containsEntry("consumer.fetch.max.wait.ms", 100)
                .containsEntry("producer.linger.ms", 1)
                .containsEntry(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0)
                .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        assertThat(RealTimeClientSettings.properties().entrySet())
                .anySatisfy(e -> assertThat(p.get(e.getKey())).isNotEqualTo(e.getValue()));
    }

    @Test
    void shouldReadBothInputsInOneSubTopologyAndWriteTheEchoTopicWhenPassingThrough() {
        TopicNames topics = TopicNames.DEFAULTS;

        TopologyDescription d = KafkaStreamsPeer.Kind.PASSTHROUGH
                .topology(topics, Duration.ofMinutes(2), Duration.ofMinutes(5))
                .describe();

        assertThat(d.subtopologies()).hasSize(1);
        TopologyDescription.Subtopology only = d.subtopologies().iterator().next();
        assertThat(only.nodes())
                .filteredOn(n -> n instanceof TopologyDescription.Source)
                .flatExtracting(n -> ((TopologyDescription.Source) n).topicSet())
                .containsExactlyInAnyOrder(topics.impressions(), topics.clicks());
        assertThat(only.nodes())
                .filteredOn(n -> n instanceof TopologyDescription.Sink)
                .extracting(n -> ((TopologyDescription.Sink) n).topic())
                .containsExactly(topics.echo());
        assertThat(KafkaStreamsPeer.Kind.PASSTHROUGH.outputs()).isEqualTo(LoadRun.Outputs.ECHO);
    }

    @Test
    void shouldNameEveryPeerByItsModeWhenResolvingModes() {
        assertThat(KafkaStreamsPeer.Kind.ofMode("kafka-streams-join")).isEqualTo(KafkaStreamsPeer.Kind.JOIN);
        assertThat(KafkaStreamsPeer.Kind.ofMode("kafka-streams-join-tuned"))
                .isEqualTo(KafkaStreamsPeer.Kind.JOIN_TUNED);
        assertThat(KafkaStreamsPeer.Kind.ofMode("kafka-streams-passthrough"))
                .isEqualTo(KafkaStreamsPeer.Kind.PASSTHROUGH);
        assertThat(KafkaStreamsPeer.Kind.ofMode("echo")).isNull();
        assertThat(BenchModes.DEFAULT_MODES)
                .contains("kafka-streams-join", "kafka-streams-join-tuned", "kafka-streams-passthrough");
        assertThat(BenchModes.description("kafka-streams-join")).contains("what you get by switching");
        assertThat(BenchModes.description("kafka-streams-join-tuned@10000")).contains("what the engine adds");
        assertThat(BenchModes.description("kafka-streams-passthrough")).contains("the Kafka Streams floor");
    }

    @Test
    void shouldRunTheJoinUnderExactlyOnceWithKafkasDefaultOrRealTimeModesCommitInterval() {
        Properties stock = properties(KafkaStreamsPeer.Kind.JOIN_EOS);
        Properties tuned = properties(KafkaStreamsPeer.Kind.JOIN_EOS_TUNED);

        assertThat(stock)
                .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)
                .doesNotContainKey(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
        assertThat(tuned)
                .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)
                .containsEntry(
                        StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, RtmStreams.DEFAULT_TRANSACTION_INTERVAL.toMillis())
                // real-time mode's producer under exactly-once lingers for the transaction interval
                .containsEntry("producer.linger.ms", "10");
        // Kafka Streams accepts both (its commit interval must not exceed the 10 s transaction timeout)
        assertThat(new StreamsConfig(stock).getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG))
                .isEqualTo(100L);
        assertThat(new StreamsConfig(tuned).getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG))
                .isEqualTo(10L); // the tuned peer commits at real-time mode's default transaction interval
        assertThat(KafkaStreamsPeer.Kind.JOIN_EOS.outputs()).isEqualTo(LoadRun.Outputs.ATTRIBUTION);
    }

    @Test
    void shouldRunTheExactlyOnceModesByDefaultAndNotMistakeRealTimeEosForAVariant() {
        assertThat(BenchModes.DEFAULT_MODES).contains(BenchModes.REAL_TIME_EOS, "kafka-streams-join-eos");
        assertThat(BenchModes.MODES).contains("kafka-streams-join-eos-tuned");
        assertThat(KafkaStreamsPeer.Kind.ofMode("kafka-streams-join-eos")).isEqualTo(KafkaStreamsPeer.Kind.JOIN_EOS);
        assertThat(BenchModes.description("real-time-eos")).contains("exactly_once_v2");
        assertThat(BenchModes.variantOf("real-time-eos", Map.of())).isNull();
        assertThat(BenchModes.resolveModes(java.util.List.of("real-time-eos"), Map.of()))
                .containsExactly("real-time-eos");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new BenchModes.Variant("eos", Path.of("x.jar"), java.util.List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'eos'");
    }

    @Test
    void shouldReplicateInternalTopicsAndAckAllWhenTheClusterReplicates() {
        Properties single = properties(KafkaStreamsPeer.Kind.JOIN);
        Properties replicated = KafkaStreamsPeer.properties(
                KafkaStreamsPeer.Kind.JOIN, "localhost:9092", "app", Path.of("state"), 2, 3);

        assertThat(single)
                .containsEntry(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1)
                .doesNotContainKey("producer.acks");
        assertThat(replicated)
                .containsEntry(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3)
                .containsEntry("producer.acks", "all");
    }
}
