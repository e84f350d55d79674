package dev.rtmstreams.processor.seeds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.ValueState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;

/**
 * Port of seed 000's {@code LogRecordProcessor} (ad request / ack correlation): the request sits in a value state,
 * acks that arrive before their request wait in a list state, and a processing-time timer registered when the first
 * row of a transaction arrives clears the key after the attribution window so state stays bounded.
 */
class LogRecordProcessorSeedTest {

    /** An input row: a request or an ack of one transaction. */
    record InputRow(String transactionId, String type, String payload) {
        static final Serde<InputRow> SERDE = Serdes.serdeFrom(
                (t, r) -> r == null
                        ? null
                        : (r.transactionId + "|" + r.type + "|" + r.payload).getBytes(StandardCharsets.UTF_8),
                (t, b) -> {
                    if (b == null) {
                        return null;
                    }
                    String[] s = new String(b, StandardCharsets.UTF_8).split("\\|", 3);
                    return new InputRow(s[0], s[1], s[2]);
                });
    }

    static final class LogRecordProcessor extends StatefulProcessor<String, InputRow, String> {
        private final long timeoutMs;
        private ValueState<String> requestLogRecordState;
        private ListState<String> ackLogRecordListState;

        LogRecordProcessor(long timeoutMs) {
            this.timeoutMs = timeoutMs;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            requestLogRecordState = getHandle().getValueState("request", Serdes.String());
            ackLogRecordListState = getHandle().getListState("acks", Serdes.String());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<InputRow> inputRows, TimerValues timerValues) {
            if (!requestLogRecordState.exists() && !ackLogRecordListState.exists()) {
                getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + timeoutMs);
            }
            List<String> out = new ArrayList<>();
            while (inputRows.hasNext()) {
                InputRow row = inputRows.next();
                if (row.type().equals("request")) {
                    requestLogRecordState.update(row.payload());
                    Iterator<String> acks = ackLogRecordListState.get();
                    while (acks.hasNext()) {
                        out.add("LogRecord(" + key + ", request=" + row.payload() + ", ack=" + acks.next() + ")");
                    }
                    ackLogRecordListState.clear();
                } else if (requestLogRecordState.exists()) {
                    out.add("LogRecord(" + key + ", request=" + requestLogRecordState.get() + ", ack=" + row.payload()
                            + ")");
                } else {
                    ackLogRecordListState.appendValue(row.payload());
                }
            }
            return out.iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            requestLogRecordState.clear();
            ackLogRecordListState.clear();
            return Collections.emptyIterator();
        }
    }

    @Test
    void shouldCorrelateRequestsAndAcksAndClearAfterWindowWhenPortedFromSeed000() {
        long timeout = Duration.ofMinutes(5).toMillis();
        TransformWithState<String, InputRow, String> tws = TransformWithState.builder(
                        () -> new LogRecordProcessor(timeout), TimeMode.PROCESSING_TIME)
                .outputMode(OutputMode.APPEND)
                .build();
        StreamsBuilder b = new StreamsBuilder();
        b.stream("ad-events", Consumed.with(Serdes.String(), InputRow.SERDE))
                .process(tws)
                .to("ad-log-records", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "seed000");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p, Instant.ofEpochMilli(0))) {
            TestInputTopic<String, InputRow> in =
                    d.createInputTopic("ad-events", Serdes.String().serializer(), InputRow.SERDE.serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "ad-log-records",
                    Serdes.String().deserializer(),
                    Serdes.String().deserializer());
            // request first, then its ack: matched on the ack
            in.pipeInput("t1", new InputRow("t1", "request", "req1"));
            in.pipeInput("t1", new InputRow("t1", "ack", "ack1"));
            // acks first: they wait in the list until the request comes
            in.pipeInput("t2", new InputRow("t2", "ack", "ackA"));
            in.pipeInput("t2", new InputRow("t2", "ack", "ackB"));
            assertThat(out.readValuesToList()).containsExactly("LogRecord(t1, request=req1, ack=ack1)");
            in.pipeInput("t2", new InputRow("t2", "request", "req2"));
            assertThat(out.readValuesToList())
                    .containsExactly("LogRecord(t2, request=req2, ack=ackA)", "LogRecord(t2, request=req2, ack=ackB)");
            // an orphan ack, then the window passes with no input: the timer clears the key
            in.pipeInput("t3", new InputRow("t3", "ack", "orphan"));
            // a processing-time timer fires once the clock reaches it (timer time <= batch time, as Spark)
            d.advanceWallClockTime(Duration.ofMillis(timeout + 1));
            in.pipeInput("t1", new InputRow("t1", "ack", "late-ack"));
            in.pipeInput("t3", new InputRow("t3", "request", "late-req"));
            assertThat(out.readValuesToList())
                    .as("state of t1 and t3 was cleared by their timers")
                    .isEmpty();
        }
    }
}
