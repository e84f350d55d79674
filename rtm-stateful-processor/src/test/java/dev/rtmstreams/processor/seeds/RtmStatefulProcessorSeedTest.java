package dev.rtmstreams.processor.seeds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * Port of seed 003's {@code RTMStatefulProcessor} (Databricks real-time mode docs): counts records per key, kept
 * redundantly in a value, a list and a map state, each with a 30 s TTL. Input: (key, source timestamp); output
 * (key, count, source timestamp) as "key,count,ts".
 */
class RtmStatefulProcessorSeedTest {

    static final class RTMStatefulProcessor extends StatefulProcessor<String, Long, String> {
        private ValueState<Long> valueState;
        private MapState<Long, String> mapState;
        private ListState<String> listState;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            TtlConfig ttl = TtlConfig.of(Duration.ofMillis(30_000));
            valueState = getHandle().getValueState("value", Serdes.Long(), ttl);
            mapState = getHandle().getMapState("map", Serdes.Long(), Serdes.String(), ttl);
            listState = getHandle().getListState("list", Serdes.String(), ttl);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<Long> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                long sourceTimestamp = rows.next();
                long oldValue = valueState.getOption().orElse(0L);
                valueState.update(oldValue + 1);
                mapState.updateValue(oldValue, key);
                listState.appendValue(key);
                out.add(key + "," + (oldValue + 1) + "," + sourceTimestamp);
            }
            return out.iterator();
        }
    }

    @Test
    void shouldCountPerKeyAndForgetAfterTtlWhenPortedFromSeed003() {
        TransformWithState<String, Long, String> tws = TransformWithState.builder(
                        RTMStatefulProcessor::new, TimeMode.PROCESSING_TIME)
                .outputMode(OutputMode.UPDATE)
                .build();
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", Consumed.with(Serdes.String(), Serdes.Long()))
                .process(tws, Named.as("rtm"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "seed003");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p, Instant.ofEpochMilli(0))) {
            TestInputTopic<String, Long> in = d.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.Long().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            in.pipeInput("k1", 100L);
            in.pipeInput("k1", 101L);
            in.pipeInput("k2", 102L);
            d.advanceWallClockTime(Duration.ofSeconds(20));
            in.pipeInput("k1", 103L); // value TTL refreshed: lives until 50 s
            assertThat(out.readKeyValuesToList())
                    .containsExactly(
                            KeyValue.pair("k1", "k1,1,100"),
                            KeyValue.pair("k1", "k1,2,101"),
                            KeyValue.pair("k2", "k2,1,102"),
                            KeyValue.pair("k1", "k1,3,103"));
            d.advanceWallClockTime(Duration.ofSeconds(15)); // t=35 s: k2 expired, k1's count not
            in.pipeInput("k2", 104L);
            in.pipeInput("k1", 105L);
            assertThat(out.readValuesToList()).containsExactly("k2,1,104", "k1,4,105");
            d.advanceWallClockTime(Duration.ofSeconds(120)); // everything expired and cleaned up
            KeyValueStore<Bytes, byte[]> store = d.getKeyValueStore(tws.storeName());
            int left = 0;
            try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
                while (it.hasNext()) {
                    byte tag = it.next().key.get()[0];
                    if (tag == 1 || tag == 2) {
                        left++;
                    }
                }
            }
            assertThat(left).as("state and TTL index entries left after expiry").isZero();
            in.pipeInput("k1", 106L);
            assertThat(out.readValuesToList()).containsExactly("k1,1,106");
        }
    }
}
