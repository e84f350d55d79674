package dev.rtmstreams.topology.internals.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The close shim of the Kafka Streams on the classpath, and every shim this Kafka Streams can run. */
class CloseShimTest {

    @TempDir
    Path stateDir;

    private KafkaStreams streams(String name) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in").to("out");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "close-shim-" + name);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(name).toString());
        return new KafkaStreams(b.build(), p);
    }

    private static boolean hasCloseOptions() {
        try {
            Class.forName(CloseShim.CLOSE_OPTIONS);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @Test
    void shouldChooseTheMembershipOperationCloseExactlyWhenKafkaStreamsHasCloseOptions() {
        assertThat(CloseShim.current())
                .isInstanceOf(
                        hasCloseOptions()
                                ? CloseShim.MembershipOperationClose.class
                                : CloseShim.LeaveGroupFlagClose.class);
    }

    @Test
    void shouldCloseKafkaStreamsWithEveryShimThisVersionRuns() throws Exception {
        List<CloseShim> shims = new ArrayList<>(List.of(new CloseShim.LeaveGroupFlagClose()));
        if (hasCloseOptions()) {
            shims.add(new CloseShim.MembershipOperationClose());
        }
        for (CloseShim shim : shims) {
            for (boolean leave : new boolean[] {true, false}) {
                KafkaStreams s = streams(shim.getClass().getSimpleName() + leave);

                assertThat(shim.close(s, Duration.ofSeconds(10), leave))
                        .as(shim.api())
                        .isTrue();
                assertThat(s.state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);
            }
        }
    }
}
