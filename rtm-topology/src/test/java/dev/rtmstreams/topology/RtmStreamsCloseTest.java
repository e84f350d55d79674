package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link RtmStreams#close(Duration)} does with the group membership (the broker test shows the effect). */
class RtmStreamsCloseTest {

    @TempDir
    Path stateDir;

    private int built;

    private boolean leavesOnClose(Trigger trigger, Map<String, String> extra) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "close-app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("s" + built++).toString());
        p.putAll(extra);
        RtmStreams rtm = RtmStreams.builder(SlotAccountingTest.seedTopologyWithExplicitShuffle(), p)
                .trigger(trigger)
                .partitionCounts(Map.of("payments", 1))
                .build();
        try {
            return rtm.leaveGroupOnClose();
        } finally {
            rtm.close(Duration.ZERO);
        }
    }

    @Test
    void shouldLeaveTheGroupWhenADynamicMemberClosesInRealTimeMode() {
        assertThat(leavesOnClose(Trigger.realTime(Duration.ofSeconds(5)), Map.of()))
                .isTrue();
    }

    @Test
    void shouldStayInTheGroupWhenAStaticMemberClosesWhateverTheKeyItIsGivenUnder() {
        for (String key :
                new String[] {"group.instance.id", "consumer.group.instance.id", "main.consumer.group.instance.id"}) {
            assertThat(leavesOnClose(Trigger.realTime(Duration.ofSeconds(5)), Map.of(key, "instance-1")))
                    .as(key)
                    .isFalse();
        }
    }

    @Test
    void shouldKeepKafkaStreamsDefaultInMicroBatchMode() {
        assertThat(leavesOnClose(Trigger.microBatch(Duration.ofSeconds(1)), Map.of()))
                .isFalse();
    }
}
