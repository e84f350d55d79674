package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;

class BrokerHopsTest {

    private static final Consumed<String, String> STRINGS = Consumed.with(Serdes.String(), Serdes.String());

    @Test
    void shouldCountOneHopForAPassThroughAndForIndependentSubtopologies() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", STRINGS).mapValues(v -> v + "!").to("out");
        b.stream("other-in", STRINGS).to("other-out");

        assertThat(BrokerHops.of(b.build().describe())).isEqualTo(1);
    }

    @Test
    void shouldCountTwoHopsForAnAggregationBehindAKeyChange() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("rows", STRINGS)
                .groupBy((k, v) -> v, Grouped.with(Serdes.String(), Serdes.String()))
                .count()
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));

        assertThat(BrokerHops.of(b.build().describe())).isEqualTo(2);
    }

    @Test
    void shouldCountTheLongestChainOfTopicsWrittenAndReadInside() {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> rows = b.stream("rows", STRINGS);
        // chain: rows -> (user topic "mid") -> repartition -> count: three sub-topologies in a row
        rows.to("mid");
        b.stream("mid", STRINGS)
                .selectKey((k, v) -> v)
                .repartition()
                .groupByKey()
                .count()
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        // a short side branch does not lower it
        rows.selectKey((k, v) -> v).repartition().to("side");

        assertThat(BrokerHops.of(b.build().describe())).isEqualTo(3);
    }

    @Test
    void shouldCountACycleOnceAround() {
        Topology t = new Topology();
        t.addSource("a-src", "a").addSink("a-sink", "b", "a-src");
        t.addSource("b-src", "b").addSink("b-sink", "a", "b-src");

        assertThat(BrokerHops.of(t.describe())).isEqualTo(2);
    }
}
