package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/** {@link TransformWithState#asFixedKey()}: key-preserving wiring, no repartition downstream, same behaviour. */
class FixedKeyTest {

    static final long T0 = Harness.START.toEpochMilli();

    /** @return the names of all repartition topics of the topology built by {@code wiring} */
    private static List<String> repartitionTopics(
            Function<KStream<String, String>, KStream<String, String>> wiring,
            Consumer<KStream<String, String>> downstream,
            StreamsBuilder b) {
        downstream.accept(wiring.apply(b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))));
        List<String> topics = new ArrayList<>();
        for (TopologyDescription.Subtopology st : b.build().describe().subtopologies()) {
            for (TopologyDescription.Node n : st.nodes()) {
                if (n instanceof TopologyDescription.Sink sink
                        && sink.topic() != null
                        && sink.topic().endsWith("-repartition")) {
                    topics.add(sink.topic());
                }
            }
        }
        return topics;
    }

    private static TransformWithState<String, String, String> tws() {
        return ExecutionContractTest.builder(null).name("fixed").build();
    }

    @Test
    void shouldNotRepartitionForGroupByKeyWhenFixedKey() {
        Consumer<KStream<String, String>> count = s -> s.groupByKey().count();
        assertThat(repartitionTopics(
                        s -> s.processValues(tws().asFixedKey(), Named.as("tws")), count, new StreamsBuilder()))
                .isEmpty();
        assertThat(repartitionTopics(s -> s.process(tws(), Named.as("tws")), count, new StreamsBuilder()))
                .as("KStream#process is key-changing")
                .hasSize(1);
    }

    @Test
    void shouldNotRepartitionForTableJoinWhenFixedKey() {
        StreamsBuilder b1 = new StreamsBuilder();
        KTable<String, String> t1 = b1.table("table", Consumed.with(Serdes.String(), Serdes.String()));
        assertThat(repartitionTopics(
                        s -> s.processValues(tws().asFixedKey(), Named.as("tws")),
                        s -> s.join(t1, (l, r) -> l + r),
                        b1))
                .isEmpty();
        StreamsBuilder b2 = new StreamsBuilder();
        KTable<String, String> t2 = b2.table("table", Consumed.with(Serdes.String(), Serdes.String()));
        assertThat(repartitionTopics(s -> s.process(tws(), Named.as("tws")), s -> s.join(t2, (l, r) -> l + r), b2))
                .hasSize(1);
    }

    private record Out(String key, String value, long timestamp, List<String> headers) {
        static Out of(TestRecord<String, String> r) {
            List<String> hs = new ArrayList<>();
            r.headers().forEach(h -> hs.add(h.key() + "=" + new String(h.value())));
            return new Out(r.key(), r.value(), r.timestamp(), hs);
        }
    }

    /** Runs one script of inputs, wall-clock moves and a restore against the operator wired either way. */
    private static List<Out> run(TransformWithState<String, String, String> tws, boolean fixedKey) {
        List<Out> out = new ArrayList<>();
        try (Harness<String, String> h = new Harness<>(tws, Serdes.String(), Serdes.String(), null, fixedKey)) {
            h.pipe("a", "a1", T0 + 1, HeadersTest.lat(1, 1));
            h.pipe("a", "reg:300", T0 + 2);
            h.pipe("b", "reg:700", T0 + 3);
            h.pipe("b", "batch", T0 + 4);
            h.advanceMs(400);
            h.pipe(
                    "a",
                    "a2",
                    T0 + 5,
                    new org.apache.kafka.common.header.internals.RecordHeaders().add("x", "y".getBytes()));
            h.restartFromChangelog();
            h.pipe("b", "b1", T0 + 6);
            h.advanceMs(1000);
            h.drainRecords().forEach(r -> out.add(Out.of(r)));
        }
        return out;
    }

    @Test
    void shouldBehaveLikeKeyChangingOperatorWhenFixedKeyInRealTime() {
        List<Out> fixed = run(
                ExecutionContractTest.builder(null)
                        .name("fixed")
                        .timerResolution(Duration.ofMillis(100))
                        .build(),
                true);
        List<Out> plain = run(
                ExecutionContractTest.builder(null)
                        .name("fixed")
                        .timerResolution(Duration.ofMillis(100))
                        .build(),
                false);
        assertThat(fixed).isEqualTo(plain);
        assertThat(fixed)
                .extracting(Out::value)
                .containsExactly("a1", "batch=0", "fired:a:300@400", "a2", "b1", "fired:b:700@1400");
        assertThat(fixed.get(0).headers())
                .containsExactly("rtm.lat="
                        + new String(HeadersTest.lat(1, 1).lastHeader("rtm.lat").value()));
    }

    @Test
    void shouldBehaveLikeKeyChangingOperatorWhenFixedKeyInMicroBatch() {
        List<Out> fixed = run(
                ExecutionContractTest.builder(null)
                        .name("fixed")
                        .executionMode(ExecutionMode.MICRO_BATCH)
                        .microBatchInterval(Duration.ofMillis(200))
                        .build(),
                true);
        List<Out> plain = run(
                ExecutionContractTest.builder(null)
                        .name("fixed")
                        .executionMode(ExecutionMode.MICRO_BATCH)
                        .microBatchInterval(Duration.ofMillis(200))
                        .build(),
                false);
        assertThat(fixed).isEqualTo(plain);
        assertThat(fixed)
                .extracting(Out::value)
                .containsExactly(
                        "a1",
                        "batch=0",
                        "a2",
                        "b1",
                        "fired:a:700@1400",
                        "fired:b:1100@1400"); // rows of the batch first, then due timers
        assertThat(fixed)
                .filteredOn(o -> o.value().equals("a2"))
                .extracting(Out::headers)
                .containsExactly(List.of("x=y"));
    }
}
