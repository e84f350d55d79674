package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;

class InitialStateTest {

    /** Counts rows per key, seeded by an initial count; registers a timer from handleInitialState. */
    static final class SeededCounter extends StatefulProcessorWithInitialState<String, String, String, Long> {
        ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
        }

        @Override
        public void handleInitialState(String key, Long initialState, TimerValues timerValues) {
            count.update(initialState);
            getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + 1000);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L);
            while (rows.hasNext()) {
                rows.next();
                n++;
            }
            count.update(n);
            return List.of(key + "=" + n).iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            return List.of(key + " timer, count=" + count.get()).iterator();
        }
    }

    @Test
    void shouldSeedStateBeforeInputWhenInitialStateStreamConnected() {
        TransformWithState<String, String, String> tws = TransformWithState.builder(
                        SeededCounter::new, TimeMode.PROCESSING_TIME)
                .name("seeded")
                .build();
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, Long> initial = b.stream("initial", Consumed.with(Serdes.String(), Serdes.Long()));
        initial.process(tws.initialStateProcessor());
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(tws)
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "initial");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p, Harness.START)) {
            TestInputTopic<String, Long> init = d.createInputTopic(
                    "initial", Serdes.String().serializer(), Serdes.Long().serializer());
            TestInputTopic<String, String> in = d.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            init.pipeInput("a", 41L);
            in.pipeInput("a", "x");
            in.pipeInput("b", "x");
            assertThat(out.readValuesToList()).containsExactly("a=42", "b=1");
            d.advanceWallClockTime(java.time.Duration.ofMillis(1001)); // fires once the clock is past it (Spark: <)
            assertThat(out.readValuesToList()).containsExactly("a timer, count=42");
        }
    }

    @Test
    void shouldRejectInitialStateSupplierWhenProcessorHasNoInitialState() {
        TransformWithState<String, String, String> tws =
                TransformWithState.of(() -> new ScriptProcessor(null, null, null, null), TimeMode.NONE);
        assertThatThrownBy(tws::initialStateProcessor)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("StatefulProcessorWithInitialState");
    }
}
