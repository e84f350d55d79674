package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Repartitioned;

/** Slot accounting of random repartition chains against a naive model of Kafka Streams' task rules. */
class SlotAccountingPropertyTest {

    @Property(tries = 200)
    void shouldMatchModelWhenChainOfRepartitions(
            @ForAll @IntRange(min = 1, max = 64) int sourcePartitions,
            @ForAll @Size(max = 4) List<@IntRange(min = 0, max = 32) Integer> steps,
            @ForAll @IntRange(min = 1, max = 8) int threads,
            @ForAll @IntRange(min = 1, max = 8) int instances,
            @ForAll @IntRange(min = 1, max = 4) int tasksPerSlot) {
        // step value 0 = repartition without an explicit count (inherits the upstream task count)
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> s = b.stream("src", Consumed.with(Serdes.String(), Serdes.String()));
        List<Integer> modelTasks = new ArrayList<>();
        modelTasks.add(sourcePartitions);
        for (int i = 0; i < steps.size(); i++) {
            Repartitioned<String, String> r = Repartitioned.<String, String>as("step" + i)
                    .withKeySerde(Serdes.String())
                    .withValueSerde(Serdes.String());
            int n = steps.get(i);
            s = s.repartition(n == 0 ? r : r.withNumberOfPartitions(n));
            modelTasks.add(n == 0 ? modelTasks.get(modelTasks.size() - 1) : n);
        }
        s.to("sink");

        SizingReport report =
                SlotAccounting.compute(b.build(), Map.of("src", sourcePartitions), threads, instances, tasksPerSlot);

        int total = modelTasks.stream().mapToInt(Integer::intValue).sum();
        int required = (total + tasksPerSlot - 1) / tasksPerSlot;
        assertThat(report.subtopologies()).extracting(SubtopologySizing::tasks).isEqualTo(modelTasks);
        assertThat(report.totalTasks()).isEqualTo(total);
        assertThat(report.requiredSlots()).isEqualTo(required);
        assertThat(report.sufficient()).isEqualTo(threads * instances >= required);
    }
}
