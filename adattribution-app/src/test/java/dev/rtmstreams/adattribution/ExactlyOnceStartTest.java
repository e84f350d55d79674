package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.pipeline.AdAttributionTopology;
import dev.rtmstreams.adattribution.pipeline.DeadLetterCounter;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.SlotCheckMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every documented combination of trigger and interval starts under exactly_once_v2 (Kafka Streams
 * used to refuse a commit interval above its 10 s transaction timeout, naming neither option); the combinations that
 * cannot work are refused naming our option and its value. "Starts" is checked as far as Kafka Streams' own
 * validation, which runs when {@code KafkaStreams} is created: no broker is needed.
 */
class ExactlyOnceStartTest {

    @TempDir
    Path stateDir;

    private AppConfigBuilder config() {
        return AppConfig.builder()
                .bootstrapServers("localhost:1")
                .stateDir(stateDir)
                .slotCheck(SlotCheckMode.OFF)
                .processingGuarantee("exactly_once_v2");
    }

    private static void createsKafkaStreams(AppConfig config) {
        AdAttributionService service = new AdAttributionService(config);
        try (RtmStreams rtm = service.rtmStreams(AdAttributionTopology.build(config, new DeadLetterCounter()))
                .build()) {
            long commit = Long.parseLong(rtm.effectiveConfig()
                    .get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)
                    .toString());
            if (config.trigger() == ExecutionMode.REAL_TIME) {
                assertThat(commit)
                        .isLessThanOrEqualTo(config.transactionInterval().toMillis());
            }
        }
    }

    @Test
    void shouldStartEveryDocumentedCombinationUnderExactlyOnce() {
        createsKafkaStreams(config().build()); // the defaults: real-time, checkpoint interval PT5M
        for (Duration checkpoint : List.of(Duration.ofMillis(100), Duration.ofSeconds(11), Duration.ofHours(1))) {
            createsKafkaStreams(config().checkpointInterval(checkpoint).build());
        }
        createsKafkaStreams(config().transactionInterval(Duration.ZERO).build());
        for (Duration batch :
                List.of(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(5))) {
            createsKafkaStreams(config().trigger(ExecutionMode.MICRO_BATCH)
                    .microBatchInterval(batch)
                    .build());
        }
    }

    @Test
    void shouldRefuseATransactionThatCannotCommitInTimeNamingOurOption() {
        assertThatThrownBy(() -> config().trigger(ExecutionMode.MICRO_BATCH)
                        .microBatchInterval(Duration.ofMinutes(20))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("micro-batch-interval PT20M");
        assertThatThrownBy(() -> config().transactionInterval(Duration.ofSeconds(30))
                        .checkpointInterval(Duration.ofMinutes(1))
                        .kafkaOverride("producer.transaction.timeout.ms", "10000")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("transaction-interval PT30S")
                .hasMessageContaining("kafka.producer.transaction.timeout.ms=10000");
        assertThatThrownBy(() ->
                        config().transactionInterval(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("transaction-interval must not be negative");
    }
}
