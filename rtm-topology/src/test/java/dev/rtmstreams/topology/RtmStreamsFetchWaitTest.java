package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real-time mode's fetch wait follows the number of broker hops of the topology it runs. */
class RtmStreamsFetchWaitTest {

    @TempDir
    java.nio.file.Path stateDir;

    private static final Consumed<String, String> STRINGS = Consumed.with(Serdes.String(), Serdes.String());

    @Test
    void shouldWaitFiveMillisecondsForOneHopAndOneForAnAggregationBehindAKeyChange() {
        StreamsBuilder oneHop = new StreamsBuilder();
        oneHop.stream("rows", STRINGS).to("copies");
        StreamsBuilder twoHops = new StreamsBuilder();
        twoHops.stream("rows", STRINGS)
                .groupBy((k, v) -> v, Grouped.with(Serdes.String(), Serdes.String()))
                .count()
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));

        assertThat(fetchWait(oneHop.build())).isEqualTo("5");
        assertThat(fetchWait(twoHops.build())).isEqualTo("1");
    }

    private String fetchWait(Topology topology) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "fetch-wait-app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (RtmStreams rtm = RtmStreams.builder(topology, p)
                .trigger(Trigger.realTime(Duration.ofSeconds(5)))
                .build()) {
            return rtm.effectiveConfig().getProperty("consumer.fetch.max.wait.ms");
        }
    }
}
