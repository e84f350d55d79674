package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/** The operator through {@link Topology#addProcessor}, with a composite grouping key carried by a Serde. */
class ProcessorApiTest {

    record UserCampaign(String user, String campaign) {}

    static final class UserCampaignSerde implements Serde<UserCampaign> {
        @Override
        public Serializer<UserCampaign> serializer() {
            return (t, k) -> k == null
                    ? null
                    : (k.user() + "|" + k.campaign()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public Deserializer<UserCampaign> deserializer() {
            return (t, b) -> {
                if (b == null) {
                    return null;
                }
                String[] s = new String(b, java.nio.charset.StandardCharsets.UTF_8).split("\\|", 2);
                return new UserCampaign(s[0], s[1]);
            };
        }
    }

    static final class Clicks extends StatefulProcessor<UserCampaign, String, String> {
        ValueState<Long> n;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            n = getHandle().getValueState("n", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(UserCampaign key, Iterator<String> rows, TimerValues tv) {
            long c = n.getOption().orElse(0L) + 1;
            rows.next();
            n.update(c);
            getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 500);
            return List.of(key.user() + "/" + key.campaign() + "=" + c).iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(UserCampaign key, TimerValues tv, ExpiredTimerInfo info) {
            return List.of("expired " + Objects.requireNonNull(key).user()).iterator();
        }
    }

    @Test
    void shouldRunAndConnectStoresWhenAddedThroughProcessorApi() {
        UserCampaignSerde keySerde = new UserCampaignSerde();
        TransformWithState<UserCampaign, String, String> tws = TransformWithState.builder(
                        Clicks::new, TimeMode.PROCESSING_TIME)
                .name("clicks")
                .keySerde(keySerde)
                .build();
        Topology t = new Topology();
        t.addSource("src", keySerde.deserializer(), Serdes.String().deserializer(), "in");
        t.addProcessor("clicks", tws, "src");
        t.addSink("sink", "out", keySerde.serializer(), Serdes.String().serializer(), "clicks");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "papi");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        try (TopologyTestDriver d = new TopologyTestDriver(t, p, Harness.START)) {
            TestInputTopic<UserCampaign, String> in = d.createInputTopic(
                    "in", keySerde.serializer(), Serdes.String().serializer());
            TestOutputTopic<UserCampaign, String> out = d.createOutputTopic(
                    "out", keySerde.deserializer(), Serdes.String().deserializer());
            in.pipeInput(new UserCampaign("u1", "c1"), "click");
            in.pipeInput(new UserCampaign("u1", "c2"), "click");
            in.pipeInput(new UserCampaign("u1", "c1"), "click");
            assertThat(out.readValuesToList()).containsExactly("u1/c1=1", "u1/c2=1", "u1/c1=2");
            d.advanceWallClockTime(java.time.Duration.ofMillis(501)); // fires once the clock is past it (Spark: <)
            assertThat(out.readKeyValuesToList())
                    .extracting(kv -> kv.key.campaign() + ":" + kv.value)
                    .containsExactlyInAnyOrder("c1:expired u1", "c2:expired u1");
            assertThat(t.describe().toString()).contains("clicks-state");
        }
    }
}
