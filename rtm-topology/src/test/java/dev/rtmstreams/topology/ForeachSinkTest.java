package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

class ForeachSinkTest {

    /** Records every call; optionally fails in process or close, or skips epochs. */
    static final class RecordingSink implements ForeachSink<String, String> {
        final List<String> calls;
        String failOnValue;
        boolean failClose;
        boolean accept = true;

        RecordingSink(List<String> calls) {
            this.calls = calls;
        }

        @Override
        public boolean open(long partitionId, long epochId) {
            calls.add("open(" + partitionId + "," + epochId + ")");
            return accept;
        }

        @Override
        public void process(Record<String, String> row) {
            if (row.value().equals(failOnValue)) {
                throw new IllegalStateException("boom on " + row.value());
            }
            calls.add(row.key() + "=" + row.value() + "@" + row.timestamp());
        }

        @Override
        public void close(Throwable errorOrNull) {
            calls.add("close(" + (errorOrNull == null ? "null" : errorOrNull.getMessage()) + ")");
            if (failClose && errorOrNull == null) {
                throw new IllegalStateException("close failed");
            }
        }
    }

    private static TopologyTestDriver driver(RecordingSink sink) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(ForeachSink.processor("sink", () -> sink), Named.as("sink"));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "foreach-sink-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        return new TopologyTestDriver(b.build(), RtmStreams.configFor(p, Trigger.realTime(Duration.ofSeconds(1))));
    }

    private static TestInputTopic<String, String> input(TopologyTestDriver d) {
        return d.createInputTopic(
                "in", Serdes.String().serializer(), Serdes.String().serializer());
    }

    @Test
    void shouldOpenProcessAndCloseOncePerEpochWhenTheTaskCommits() {
        List<String> calls = new ArrayList<>();
        try (TopologyTestDriver d = driver(new RecordingSink(calls))) {
            TestInputTopic<String, String> in = input(d);
            // TopologyTestDriver commits the task after every piped record: one epoch per record
            in.pipeInput("k1", "a", Instant.ofEpochMilli(5));
            in.pipeInput("k2", "b", Instant.ofEpochMilli(6));
        }

        assertThat(calls).containsExactly("open(0,0)", "k1=a@5", "close(null)", "open(0,1)", "k2=b@6", "close(null)");
    }

    @Test
    void shouldCloseWithTheErrorAndRethrowWhenProcessFails() {
        List<String> calls = new ArrayList<>();
        RecordingSink sink = new RecordingSink(calls);
        sink.failOnValue = "bad";
        try (TopologyTestDriver d = driver(sink)) {
            TestInputTopic<String, String> in = input(d);
            in.pipeInput("k1", "a");

            assertThatThrownBy(() -> in.pipeInput("k2", "bad")).hasRootCauseMessage("boom on bad");
        }

        assertThat(calls)
                .containsExactly(
                        "open(0,0)",
                        "k1=a@" + calls.get(1).split("@")[1],
                        "close(null)",
                        "open(0,1)",
                        "close(boom on bad)");
    }

    @Test
    void shouldFailTheCommitWhenCloseFails() {
        List<String> calls = new ArrayList<>();
        RecordingSink sink = new RecordingSink(calls);
        sink.failClose = true;
        try (TopologyTestDriver d = driver(sink)) {
            TestInputTopic<String, String> in = input(d);

            assertThatThrownBy(() -> in.pipeInput("k1", "a")).hasStackTraceContaining("close failed");
        } catch (RuntimeException closing) {
            // the driver's own close commits again; the epoch is already closed, nothing more is called
        }
        assertThat(calls).startsWith("open(0,0)", "k1=a@" + calls.get(1).split("@")[1], "close(null)");
    }

    @Test
    void shouldSkipTheRowsButStillCloseWhenOpenReturnsFalse() {
        List<String> calls = new ArrayList<>();
        RecordingSink sink = new RecordingSink(calls);
        sink.accept = false;
        try (TopologyTestDriver d = driver(sink)) {
            input(d).pipeInput("k1", "a");
        }

        assertThat(calls).containsExactly("open(0,0)", "close(null)");
    }

    @Test
    void shouldRejectABlankName() {
        assertThatThrownBy(() -> ForeachSink.processor(" ", () -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("' '");
    }
}
