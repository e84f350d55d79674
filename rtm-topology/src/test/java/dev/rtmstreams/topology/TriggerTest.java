package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TriggerTest {

    private RtmStreams rtm;

    @AfterEach
    void close() {
        if (rtm != null) {
            rtm.close(Duration.ofSeconds(5));
        }
    }

    private static Topology topology() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in").to("out");
        return b.build();
    }

    private static Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "trigger-app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        return p;
    }

    @Test
    void shouldDefaultToFiveMinuteCheckpointsWhenRealTimeWithoutInterval() {
        assertThat(Trigger.realTime().interval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(Trigger.realTime().mode()).isEqualTo(ExecutionMode.REAL_TIME);
    }

    @Test
    void shouldRejectIntervalsBelowMinimum() {
        assertThatThrownBy(() -> Trigger.realTime(Duration.ofMillis(99)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0.099S");
        assertThatThrownBy(() -> Trigger.microBatch(Duration.ofMillis(9)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0.009S");
        assertThat(Trigger.realTime(Duration.ofMillis(100)).interval()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void shouldAcceptZeroAsFastAsPossibleWhenMicroBatchIntervalIsZero() {
        Trigger t = Trigger.microBatch(Duration.ZERO);

        assertThat(t.interval()).isEqualTo(Duration.ZERO);
        assertThat(t.mode()).isEqualTo(ExecutionMode.MICRO_BATCH);
        assertThat(t).isEqualTo(Trigger.microBatch(Duration.ZERO));
    }

    @Test
    void shouldRejectNegativeMicroBatchIntervalsWhenCreatingATrigger() {
        assertThatThrownBy(() -> Trigger.microBatch(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative")
                .hasMessageContaining("PT-0.001S");
        assertThatThrownBy(() -> Trigger.microBatch(Duration.ofSeconds(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> Trigger.microBatch(Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0.001S");
    }

    @Test
    void shouldCheckpointEvery100MsAndPunctuateEveryMillisecondWhenMicroBatchIntervalIsZero() {
        rtm = RtmStreams.builder(topology(), props())
                .trigger(Trigger.microBatch(Duration.ZERO))
                .build();

        Properties c = rtm.effectiveConfig();
        assertThat(c.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("100");
        assertThat(c.get(RtmProcessorConfig.EXECUTION_MODE_CONFIG)).isEqualTo("micro-batch");
        assertThat(c.get(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG)).isEqualTo("1");
    }

    @Test
    void shouldApplyRealTimeSettingsWhenRealTimeTrigger() {
        rtm = RtmStreams.builder(topology(), props())
                .trigger(Trigger.realTime(Duration.ofSeconds(7)))
                .build();

        Properties c = rtm.effectiveConfig();
        assertThat(c.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("7000");
        assertThat(c.get(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG)).isEqualTo("0");
        assertThat(c.get("producer.linger.ms")).isEqualTo("1");
        assertThat(c.get("consumer.fetch.min.bytes")).isEqualTo("4096");
        assertThat(c.get("consumer.fetch.max.wait.ms")).isEqualTo("5");
        assertThat(c.get(RtmProcessorConfig.EXECUTION_MODE_CONFIG)).isEqualTo("real-time");
        assertThat(c.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo("at_least_once");
        assertThat(rtm.slotCheckMode()).isEqualTo(SlotCheckMode.FAIL);
    }

    @Test
    void shouldApplyMicroBatchSettingsWhenMicroBatchTrigger() {
        rtm = RtmStreams.builder(topology(), props())
                .trigger(Trigger.microBatch(Duration.ofMillis(500)))
                .build();

        Properties c = rtm.effectiveConfig();
        assertThat(c.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("500");
        assertThat(c.get(RtmProcessorConfig.EXECUTION_MODE_CONFIG)).isEqualTo("micro-batch");
        assertThat(c.get(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG)).isEqualTo("500");
        assertThat(c).doesNotContainKey("producer.linger.ms");
        assertThat(c).doesNotContainKey(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG);
    }

    @Test
    void shouldNotHoldTasksForQuietPartitionsWhenRealTimeTrigger() {
        rtm = RtmStreams.builder(topology(), props())
                .trigger(Trigger.realTime())
                .build();

        assertThat(rtm.effectiveConfig().get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG))
                .isEqualTo("-1");
    }

    @Test
    void shouldKeepUserMaxTaskIdleWhenSetInRealTimeMode() {
        Properties p = props();
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "0");

        rtm = RtmStreams.builder(topology(), p).trigger(Trigger.realTime()).build();

        assertThat(rtm.effectiveConfig().get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG))
                .isEqualTo("0");
    }

    @Test
    void shouldSelectExactlyOnceV2WhenAsked() {
        rtm = RtmStreams.builder(topology(), props())
                .trigger(Trigger.realTime(Duration.ofMillis(200)))
                .exactlyOnce(true)
                .build();

        assertThat(rtm.effectiveConfig().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
                .isEqualTo("exactly_once_v2");
    }

    @Test
    void shouldFailWhenUserEnablesRecordCacheInRealTimeMode() {
        Properties p = props();
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "10485760");

        assertThatThrownBy(() -> RtmStreams.builder(topology(), p)
                        .trigger(Trigger.realTime())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("statestore.cache.max.bytes=10485760");
    }

    @Test
    void shouldFailWhenUserCommitIntervalDiffersFromTrigger() {
        Properties p = props();
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "30000");

        assertThatThrownBy(() -> RtmStreams.builder(topology(), p)
                        .trigger(Trigger.realTime(Duration.ofSeconds(5)))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("commit.interval.ms=30000");
    }

    @Test
    void shouldKeepUserLingerWhenSetButStillBuild() {
        Properties p = props();
        p.put("producer.linger.ms", "20");

        rtm = RtmStreams.builder(topology(), p).trigger(Trigger.realTime()).build();

        assertThat(rtm.effectiveConfig().get("producer.linger.ms")).isEqualTo("20");
    }

    @Test
    void shouldRejectBadBuilderValues() {
        assertThatThrownBy(() -> RtmStreams.builder(topology(), props())
                        .targetUtilization(1.5)
                        .build())
                .hasMessageContaining("targetUtilization must be in (0, 1]: 1.5");
        assertThatThrownBy(() -> RtmStreams.builder(topology(), props())
                        .expectedInstances(0)
                        .build())
                .hasMessageContaining("expectedInstances must be at least 1: 0");
        Properties noId = new Properties();
        assertThatThrownBy(() -> RtmStreams.builder(topology(), noId).build()).hasMessageContaining("application.id");
    }
}
