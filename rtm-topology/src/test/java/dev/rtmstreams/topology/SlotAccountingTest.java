package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.junit.jupiter.api.Test;

class SlotAccountingTest {

    /** The seed's two-stage stateful pipeline: 8 source partitions, then a shuffle into 20 partitions. */
    static Topology seedTopologyWithExplicitShuffle() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("payments", Consumed.with(Serdes.String(), Serdes.String()))
                .map((k, v) -> KeyValue.pair(v, v))
                .repartition(Repartitioned.<String, String>as("by-card")
                        .withNumberOfPartitions(20)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.String()))
                .groupByKey()
                .count(Materialized.as("counts"))
                .toStream()
                .to("flags", Produced.with(Serdes.String(), Serdes.Long()));
        return b.build();
    }

    static Topology seedTopologyWithGroupBy() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("payments", Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy((k, v) -> v, Grouped.with("by-card", Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"))
                .toStream()
                .to("flags", Produced.with(Serdes.String(), Serdes.Long()));
        return b.build();
    }

    @Test
    void shouldCount28SlotsWhenEightSourcePartitionsShuffleIntoTwentyPartitions() {
        SizingReport r = SlotAccounting.compute(seedTopologyWithExplicitShuffle(), Map.of("payments", 8), 4, 4, 1);

        assertThat(r.subtopologies()).extracting(SubtopologySizing::tasks).containsExactly(8, 20);
        assertThat(r.subtopologies())
                .extracting(SubtopologySizing::repartitionStage)
                .containsExactly(false, true);
        assertThat(r.totalTasks()).isEqualTo(28);
        assertThat(r.requiredSlots()).isEqualTo(28);
        assertThat(r.availableSlots()).isEqualTo(16);
        assertThat(r.sufficient()).isFalse();
        assertThat(r.toString())
                .contains("28 slots required")
                .contains("16 available")
                .contains("INSUFFICIENT");
    }

    @Test
    void shouldUseGivenRepartitionCountWhenGroupByShuffles() {
        Map<String, Integer> counts = Map.of("payments", 8, "by-card-repartition", 20);

        SizingReport r = SlotAccounting.compute(seedTopologyWithGroupBy(), counts, 7, 4, 1);

        assertThat(r.totalTasks()).isEqualTo(28);
        assertThat(r.subtopologies().get(1).sourcePartitions()).containsEntry("by-card-repartition", 20);
        assertThat(r.sufficient()).isTrue();
    }

    @Test
    void shouldInferRepartitionCountFromUpstreamWhenNotGiven() {
        SizingReport r = SlotAccounting.compute(seedTopologyWithGroupBy(), Map.of("payments", 8), 1, 1, 1);

        assertThat(r.subtopologies()).extracting(SubtopologySizing::tasks).containsExactly(8, 8);
        assertThat(r.totalTasks()).isEqualTo(16);
    }

    @Test
    void shouldAcceptPrefixedRepartitionNameWhenGiven() {
        Map<String, Integer> counts = Map.of("payments", 8, "my-app-by-card-repartition", 12);

        SizingReport r = SlotAccounting.compute(seedTopologyWithGroupBy(), counts, 1, 1, 1);

        assertThat(r.totalTasks()).isEqualTo(20);
    }

    @Test
    void shouldPackTasksWhenTasksPerSlotIsTwo() {
        SizingReport r = SlotAccounting.compute(seedTopologyWithExplicitShuffle(), Map.of("payments", 8), 4, 4, 2);

        assertThat(r.requiredSlots()).isEqualTo(14);
        assertThat(r.sufficient()).isTrue();
    }

    @Test
    void shouldRoundRequiredSlotsUpWhenPackingDoesNotDivide() {
        SizingReport r = SlotAccounting.compute(seedTopologyWithExplicitShuffle(), Map.of("payments", 8), 1, 1, 3);

        assertThat(r.requiredSlots()).isEqualTo(10);
    }

    @Test
    void shouldUseLargestSourceWhenSubtopologyReadsSeveralTopics() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(java.util.List.of("a", "b"), Consumed.with(Serdes.String(), Serdes.String()))
                .to("out");

        SizingReport r = SlotAccounting.compute(b.build(), Map.of("a", 3, "b", 5), 1, 1, 1);

        assertThat(r.totalTasks()).isEqualTo(5);
    }

    @Test
    void shouldRejectWhenSourcePartitionCountIsUnknown() {
        assertThatThrownBy(() -> SlotAccounting.compute(seedTopologyWithGroupBy(), Map.of(), 1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("payments");
    }

    @Test
    void shouldRejectWhenNumbersAreBelowOne() {
        Topology t = seedTopologyWithGroupBy();
        Map<String, Integer> c = Map.of("payments", 8);
        assertThatThrownBy(() -> SlotAccounting.compute(t, c, 0, 1, 1))
                .hasMessageContaining("threads must be at least 1: 0");
        assertThatThrownBy(() -> SlotAccounting.compute(t, c, 1, 0, 1)).hasMessageContaining("instances");
        assertThatThrownBy(() -> SlotAccounting.compute(t, c, 1, 1, 0)).hasMessageContaining("tasksPerSlot");
        assertThatThrownBy(() -> SlotAccounting.compute(t, Map.of("payments", 0), 1, 1, 1))
                .hasMessageContaining("payments");
    }
}
