package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.ExecutionMode;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.junit.jupiter.api.Test;

class DeduplicateTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static TopologyTestDriver driver(ProcessorSupplier<String, String, String, String> dedup) throws Exception {
        StreamsBuilder sb = new StreamsBuilder();
        sb.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(dedup, Named.as("dedup"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "dedup-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory("rtm-dedup-test").toString());
        return new TopologyTestDriver(sb.build(), p, T0);
    }

    private static long t(Duration d) {
        return T0.plus(d).toEpochMilli();
    }

    @Test
    void shouldDropRepeatedKeysWithinTheTtlAndPassThemAgainAfterItWhenDedupByKey() throws Exception {
        try (TopologyTestDriver d = driver(Deduplicate.<String, String>byKey()
                .withinTtl(Duration.ofMinutes(10))
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .build())) {
            TestInputTopic<String, String> in = d.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            in.pipeInput("imp1", "first", t(Duration.ZERO));
            in.pipeInput("imp1", "dup", t(Duration.ZERO));
            in.pipeInput("imp2", "other", t(Duration.ZERO));
            d.advanceWallClockTime(Duration.ofMinutes(9));
            in.pipeInput("imp1", "dup-after-9m", t(Duration.ofMinutes(9)));
            assertThat(out.readValuesToList()).containsExactly("first", "other");

            d.advanceWallClockTime(Duration.ofMinutes(2)); // 11 min after the first: expired (duplicates do not extend)
            in.pipeInput("imp1", "again", t(Duration.ofMinutes(11)));
            assertThat(out.readValuesToList()).containsExactly("again");
        }
    }

    @Test
    void shouldDedupByIdScopedToTheKeyWhenIdExtractorIsGiven() throws Exception {
        // values "clickId:payload", keyed by impression id
        try (TopologyTestDriver d = driver(
                Deduplicate.<String, String, String>byId((k, v) -> v.substring(0, v.indexOf(':')), Serdes.String())
                        .withinTtl(Duration.ofMinutes(10))
                        .keySerde(Serdes.String())
                        .valueSerde(Serdes.String())
                        .build())) {
            TestInputTopic<String, String> in = d.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            in.pipeInput("imp1", "c1:a", t(Duration.ZERO));
            in.pipeInput("imp1", "c2:b", t(Duration.ZERO));
            in.pipeInput("imp1", "c1:dup", t(Duration.ZERO));
            in.pipeInput("imp2", "c1:same-id-other-key", t(Duration.ZERO));
            assertThat(out.readValuesToList()).containsExactly("c1:a", "c2:b", "c1:same-id-other-key");
        }
    }

    @Test
    void shouldDropDuplicatesWithinTheWatermarkHorizonAndForgetThemAfterWhenWithinWatermark() throws Exception {
        try (TopologyTestDriver d = driver(Deduplicate.<String, String>byKey()
                .withinWatermark((k, v, ts) -> ts, Duration.ofMinutes(5))
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .build())) {
            TestInputTopic<String, String> in = d.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            in.pipeInput("imp1", "first", t(Duration.ZERO));
            in.pipeInput("imp1", "dup-4m", t(Duration.ofMinutes(4)));
            // watermark 5m-1ms: imp1 (expiry 0 + 5m) kept while wm < 5m
            in.pipeInput("x", "x", t(Duration.ofMinutes(10).minusMillis(1)));
            in.pipeInput("imp1", "at-wm", t(Duration.ofMinutes(5).minusMillis(1))); // == wm: late (Spark: t <= wm)
            in.pipeInput("imp1", "dup-5m", t(Duration.ofMinutes(5))); // not late, still a duplicate
            assertThat(out.readValuesToList()).containsExactly("first", "x");

            in.pipeInput("x", "x2", t(Duration.ofMinutes(10))); // wm 5m >= expiry 5m: imp1 forgotten (Spark)
            in.pipeInput("imp1", "late", t(Duration.ofMinutes(5))); // at the watermark: dropped as late
            in.pipeInput("imp1", "new", t(Duration.ofMinutes(5).plusMillis(1)));
            assertThat(out.readValuesToList()).containsExactly("new");
            assertThat(d.getKeyValueStore("dedup-state")).isNotNull();
        }
    }

    @Test
    void shouldDropDuplicatesInsideOneBatchWhenMicroBatch() throws Exception {
        try (TopologyTestDriver d = driver(Deduplicate.<String, String>byKey()
                .withinTtl(Duration.ofMinutes(10))
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .executionMode(ExecutionMode.MICRO_BATCH)
                .build())) {
            TestInputTopic<String, String> in = d.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            in.pipeInput("imp1", "first", t(Duration.ZERO));
            in.pipeInput("imp1", "dup", t(Duration.ZERO));
            assertThat(out.readValuesToList()).isEmpty();
            d.advanceWallClockTime(Duration.ofSeconds(2));
            List<String> values = out.readValuesToList();
            assertThat(values).containsExactly("first");
        }
    }

    @Test
    void shouldRejectMissingOrDoubleBoundsWhenBuilt() {
        assertThatThrownBy(() -> Deduplicate.<String, String>byKey().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one");
        assertThatThrownBy(() -> Deduplicate.<String, String>byKey()
                        .withinTtl(Duration.ZERO)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0S");
        assertThatThrownBy(() -> Deduplicate.<String, String>byKey()
                        .withinTtl(Duration.ofMinutes(1))
                        .withinWatermark((k, v, ts) -> ts, Duration.ofMinutes(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one");
    }
}
