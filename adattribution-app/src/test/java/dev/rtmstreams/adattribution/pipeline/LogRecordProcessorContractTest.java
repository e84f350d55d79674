package dev.rtmstreams.adattribution.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.topology.testing.ContractReport;
import dev.rtmstreams.topology.testing.ModeContractChecker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * The "per-row trap" check of seed 002 on the LogRecordProcessor: under the micro-batch contract (all of a key's rows
 * in one call) it must emit what the real-time contract (one call per row) emits, with rtm-topology's
 * {@link ModeContractChecker}. Batches mix requests, early acks, duplicate requests and several acks per key.
 * {@code matched_at} is processing time, which legitimately differs between the contracts (a micro-batch runs at its
 * end), so it is zeroed; the window is long enough that no state expires during the test.
 */
class LogRecordProcessorContractTest {

    /** The processor under test with matched_at set to 0 in its output. */
    static final class WithoutMatchTime extends StatefulProcessor<String, CorrelationEvent, LogRecord> {
        private final LogRecordProcessor inner = new LogRecordProcessor(Duration.ofHours(1));

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            inner.setHandle(getHandle());
            inner.init(outputMode, timeMode);
        }

        @Override
        public Iterator<LogRecord> handleInputRows(
                String key, Iterator<CorrelationEvent> rows, TimerValues timerValues) {
            return zeroed(inner.handleInputRows(key, rows, timerValues));
        }

        @Override
        public Iterator<LogRecord> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            return zeroed(inner.handleExpiredTimer(key, timerValues, info));
        }

        private static Iterator<LogRecord> zeroed(Iterator<LogRecord> out) {
            List<LogRecord> list = new ArrayList<>();
            out.forEachRemaining(r ->
                    list.add(LogRecord.newBuilder(r).setMatchedAt(Instant.EPOCH).build()));
            return list.iterator();
        }
    }

    @Test
    void shouldEmitSameLogRecordsUnderBothContractsWhenBatchesMixRequestsAndAcksOfOneKey() {
        long t = DriverFixture.START.toEpochMilli();
        Random random = new Random(7);
        List<List<KeyValue<String, CorrelationEvent>>> batches = new ArrayList<>();
        for (int b = 0; b < 12; b++) {
            List<KeyValue<String, CorrelationEvent>> batch = new ArrayList<>();
            for (int r = 0; r < 8; r++) {
                String tx = "tx-" + random.nextInt(5);
                long time = t + b * 1000L + r;
                CorrelationEvent e = random.nextInt(3) == 0
                        ? CorrelationEvent.ofRequest(Events.request(tx, time), time)
                        : CorrelationEvent.ofAck(
                                Events.ack(tx, random.nextBoolean() ? "delivered" : "clicked", time), time);
                batch.add(KeyValue.pair(tx, e));
            }
            batches.add(batch);
        }

        ContractReport<String, LogRecord> report = ModeContractChecker.builder(
                        WithoutMatchTime::new,
                        TimeMode.PROCESSING_TIME,
                        Serdes.String(),
                        CorrelationEvent.serde(),
                        AdAttributionSerdes.logRecord())
                .equivalence(ModeContractChecker.Equivalence.PER_ROW)
                .microBatchInterval(Duration.ofSeconds(1))
                .build()
                .check(batches);

        assertThat(report.realTimeOutput()).as("the input produces matches").hasSizeGreaterThan(10);
        assertThat(report.differences()).as(report.toString()).isEmpty();
    }
}
