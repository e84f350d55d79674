package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RtmStreamsSlotCheckTest {

    @TempDir
    java.nio.file.Path stateDir;

    private Properties props(int threads) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "slot-check-app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(threads));
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return p;
    }

    @Test
    void shouldRefuseToStartWhenSixteenSlotsForTwentyEightTasks() {
        RtmStreams rtm = RtmStreams.builder(SlotAccountingTest.seedTopologyWithExplicitShuffle(), props(4))
                .trigger(Trigger.realTime(Duration.ofSeconds(5)))
                .expectedInstances(4)
                .partitionCounts(Map.of("payments", 8))
                .build();

        assertThatThrownBy(rtm::start).isInstanceOfSatisfying(InsufficientSlotsException.class, e -> {
            assertThat(e.errorCode()).isEqualTo("CONCURRENT_SCHEDULER_INSUFFICIENT_SLOT");
            assertThat(e.parameters())
                    .containsEntry("numTasks", "28")
                    .containsEntry("numSlots", "16")
                    .containsEntry("requiredSlots", "28");
            assertThat(e.report().subtopologies())
                    .extracting(SubtopologySizing::tasks)
                    .containsExactly(8, 20);
            assertThat(e.getMessage()).contains("sub-topology 0: 8 tasks").contains("sub-topology 1: 20 tasks");
        });
        assertThat(rtm.state()).isIn(KafkaStreams.State.NOT_RUNNING, KafkaStreams.State.PENDING_SHUTDOWN);
    }

    @Test
    void shouldStartWhenTasksArePackedTwoPerSlot() {
        // 16 slots as 1 thread x 16 instances (one thread keeps this test fast; the arithmetic is the same)
        RtmStreams rtm = RtmStreams.builder(SlotAccountingTest.seedTopologyWithExplicitShuffle(), props(1))
                .trigger(Trigger.realTime(Duration.ofSeconds(5)))
                .expectedInstances(16)
                .tasksPerSlot(2)
                .partitionCounts(Map.of("payments", 8))
                .build();
        try {
            rtm.start();
            assertThat(rtm.state()).isIn(KafkaStreams.State.REBALANCING, KafkaStreams.State.RUNNING);
            assertThat(rtm.sizingReport().requiredSlots()).isEqualTo(14);
        } finally {
            rtm.close(Duration.ofSeconds(10));
        }
    }

    @Test
    void shouldStartWhenSlotCheckOnlyWarns() {
        RtmStreams rtm = RtmStreams.builder(SlotAccountingTest.seedTopologyWithExplicitShuffle(), props(1))
                .trigger(Trigger.realTime(Duration.ofSeconds(5)))
                .slotCheck(SlotCheckMode.WARN)
                .partitionCounts(Map.of("payments", 8))
                .build();
        try {
            rtm.start();
            assertThat(rtm.state()).isIn(KafkaStreams.State.REBALANCING, KafkaStreams.State.RUNNING);
        } finally {
            rtm.close(Duration.ofSeconds(10));
        }
    }

    @Test
    void shouldDefaultToWarnWhenMicroBatch() {
        RtmStreams rtm = RtmStreams.builder(SlotAccountingTest.seedTopologyWithExplicitShuffle(), props(1))
                .trigger(Trigger.microBatch(Duration.ofSeconds(1)))
                .build();
        try {
            assertThat(rtm.slotCheckMode()).isEqualTo(SlotCheckMode.WARN);
        } finally {
            rtm.close(Duration.ofSeconds(5));
        }
    }
}
