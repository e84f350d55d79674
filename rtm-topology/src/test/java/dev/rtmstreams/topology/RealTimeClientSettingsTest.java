package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class RealTimeClientSettingsTest {

    @Test
    void shouldBeWhatARealTimeTriggerAppliesWhenTheUserSetsNothing() {
        Properties applied = RtmStreams.configFor(new Properties(), Trigger.realTime(Duration.ofSeconds(5)));

        assertThat(RealTimeClientSettings.properties())
                .isNotEmpty()
                .allSatisfy((key, value) -> assertThat(applied.get(key)).as(key).isEqualTo(value));
    }

    @Test
    void shouldLeaveOutWhatTheTriggerOrOurOperatorsDecideWhenListingTheClientSettings() {
        Map<String, Object> settings = RealTimeClientSettings.properties();

        assertThat(settings)
                .containsEntry("producer.linger.ms", "1")
                .containsEntry("consumer.fetch.min.bytes", "4096")
                .containsEntry("consumer.fetch.max.wait.ms", "5")
                .containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1")
                .containsEntry(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0")
                .doesNotContainKeys(
                        StreamsConfig.COMMIT_INTERVAL_MS_CONFIG,
                        StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                        "rtm.execution.mode",
                        "rtm.micro.batch.interval.ms");
    }

    @Test
    void shouldLingerForTheTransactionIntervalUnderExactlyOnceAndBeWhatAnExactlyOnceTriggerApplies() {
        Map<String, Object> eos = RealTimeClientSettings.exactlyOnceProperties(Duration.ofMillis(10));
        Properties applied = dev.rtmstreams.topology.internals.TriggerConfigurer.apply(
                new Properties(),
                Trigger.realTime(Duration.ofSeconds(5)),
                true,
                Duration.ofMillis(10),
                1,
                new ArrayList<>());

        assertThat(eos).containsEntry("producer.linger.ms", "10").hasSameSizeAs(RealTimeClientSettings.properties());
        assertThat(eos)
                .allSatisfy((key, value) -> assertThat(applied.get(key)).as(key).isEqualTo(value));
        assertThat(RealTimeClientSettings.exactlyOnceProperties(Duration.ZERO))
                .containsEntry("producer.linger.ms", "1");
        assertThat(RealTimeClientSettings.exactlyOnceProperties(Duration.ofMinutes(1)))
                .containsEntry("producer.linger.ms", "100");
        assertThatThrownBy(() -> RealTimeClientSettings.exactlyOnceProperties(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT-0.005S");
    }

    @Test
    void shouldReachTheConsumersAndProducersWhenGivenToKafkaStreams() {
        Map<String, Object> props = new HashMap<>(RealTimeClientSettings.properties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");

        StreamsConfig config = new StreamsConfig(props);

        assertThat(config.getMainConsumerConfigs("app", "client", 0))
                .containsEntry(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "4096")
                .containsEntry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "5")
                .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000")
                .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1500");
        assertThat(config.getProducerConfigs("client")).containsEntry(ProducerConfig.LINGER_MS_CONFIG, "1");
        assertThat(config.getLong(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo(-1L);
        assertThat(config.getLong(StreamsConfig.POLL_MS_CONFIG)).isEqualTo(20L);
        assertThat(config.getLong(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG))
                .isZero();
        assertThat(config.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo(1);
    }

    @Test
    void shouldBeTheSameImmutableMapWhenAskedTwice() {
        assertThat(RealTimeClientSettings.properties()).isSameAs(RealTimeClientSettings.properties());
        assertThatThrownBy(() -> RealTimeClientSettings.properties().put("poll.ms", "1"))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
