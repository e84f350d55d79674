package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class TriggerConfigurerTest {

    @Test
    void shouldDefaultToFastFailoverInRealTimeModeAndKeepAndWarnAboutTheUsersChoice() {
        List<String> warnings = new ArrayList<>();
        Properties p =
                TriggerConfigurer.apply(new Properties(), Trigger.realTime(Duration.ofSeconds(5)), false, warnings);
        assertThat(p.get("consumer.session.timeout.ms")).isEqualTo("6000");
        assertThat(p.get("consumer.heartbeat.interval.ms")).isEqualTo("1500");
        assertThat(p.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo("1");
        assertThat(warnings).isEmpty();

        Properties own = new Properties();
        own.put("session.timeout.ms", "45000");
        own.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "0");
        Properties q = TriggerConfigurer.apply(own, Trigger.realTime(Duration.ofSeconds(5)), false, warnings);
        assertThat(q.get("session.timeout.ms")).isEqualTo("45000");
        assertThat(q.get("consumer.session.timeout.ms")).isNull();
        assertThat(q.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo("0");
        assertThat(warnings).singleElement().asString().contains("session.timeout.ms=45000", "recommended 6000");

        Properties mb =
                TriggerConfigurer.apply(new Properties(), Trigger.microBatch(Duration.ofSeconds(1)), false, warnings);
        assertThat(mb.get("consumer.session.timeout.ms")).isNull();
        assertThat(mb.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isNull();
    }

    @Test
    void shouldShortenTheFetchWaitWhenRecordsCrossTheBrokerMoreThanOnceAndKeepTheUsersValue() {
        List<String> warnings = new ArrayList<>();
        Trigger rt = Trigger.realTime(Duration.ofSeconds(5));
        assertThat(TriggerConfigurer.apply(new Properties(), rt, false, warnings)
                        .get("consumer.fetch.max.wait.ms"))
                .isEqualTo("5");
        assertThat(TriggerConfigurer.apply(new Properties(), rt, false, 1, warnings)
                        .get("consumer.fetch.max.wait.ms"))
                .isEqualTo("5");
        assertThat(TriggerConfigurer.apply(new Properties(), rt, false, 2, warnings)
                        .get("consumer.fetch.max.wait.ms"))
                .isEqualTo("1");
        Properties own = new Properties();
        own.put("consumer.fetch.max.wait.ms", "5");
        assertThat(TriggerConfigurer.apply(own, rt, false, 3, warnings).get("consumer.fetch.max.wait.ms"))
                .isEqualTo("5");
        assertThat(TriggerConfigurer.apply(
                                new Properties(), Trigger.microBatch(Duration.ofSeconds(1)), false, 2, warnings)
                        .get("consumer.fetch.max.wait.ms"))
                .isNull();
        assertThat(warnings).isEmpty();
        assertThatThrownBy(() -> TriggerConfigurer.apply(new Properties(), rt, false, 0, warnings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("brokerHops must be at least 1: 0");
    }

    @Test
    void shouldCheckpointEvery100MsAndPunctuateBatchesEveryMillisecondWhenMicroBatchIsAsFastAsPossible() {
        List<String> warnings = new ArrayList<>();

        Properties p = TriggerConfigurer.apply(new Properties(), Trigger.microBatch(Duration.ZERO), false, warnings);

        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("100");
        assertThat(p.get(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG)).isEqualTo("1");
        assertThat(p.get(RtmProcessorConfig.EXECUTION_MODE_CONFIG))
                .isEqualTo(RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH);
        assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.AT_LEAST_ONCE);
        assertThat(warnings).isEmpty();
    }

    @Test
    void shouldKeepTheIntervalForCommitAndBatchWhenMicroBatchIntervalIsPositive() {
        Properties p = TriggerConfigurer.apply(
                new Properties(), Trigger.microBatch(Duration.ofMillis(250)), true, new ArrayList<>());

        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("250");
        assertThat(p.get(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG)).isEqualTo("250");
        assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
    }

    @Test
    void shouldRejectAConflictingCommitIntervalWhenMicroBatchIsAsFastAsPossible() {
        Properties user = new Properties();
        user.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "0");

        assertThatThrownBy(() ->
                        TriggerConfigurer.apply(user, Trigger.microBatch(Duration.ZERO), false, new ArrayList<>()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG + "=0");
    }
}
