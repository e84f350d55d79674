package dev.rtmstreams.adattribution.pipeline;

import static dev.rtmstreams.adattribution.pipeline.Events.encode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.LogRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CorrelationTopologyTest {

    private static final long T = DriverFixture.START.toEpochMilli();

    @TempDir
    Path stateDir;

    private DriverFixture f;

    private void open(String mode) {
        f = new DriverFixture(DriverFixture.defaults(), mode, stateDir);
    }

    @AfterEach
    void tearDown() {
        if (f != null) {
            f.close();
        }
    }

    private void request(String tx, long recordTime) {
        f.requests.pipeInput(tx, encode(Events.request(tx, recordTime)), recordTime);
    }

    private void ack(String tx, String status, long recordTime) {
        f.acks.pipeInput(tx, encode(Events.ack(tx, status, recordTime)), recordTime);
    }

    private List<String> statuses() {
        return f.logRecords.readValuesToList().stream()
                .map(r -> r.getTransactionId() + ":" + r.getAck().getStatus())
                .toList();
    }

    @Test
    void shouldEmitLogRecordWithBothRecordTimesWhenAckFollowsRequest() {
        open("real-time");
        request("tx-1", T + 5);
        f.advance(Duration.ofSeconds(2));
        ack("tx-1", "delivered", T + 1007);

        List<KeyValue<String, LogRecord>> out = f.logRecords.readKeyValuesToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).key).isEqualTo("tx-1");
        LogRecord r = out.get(0).value;
        assertThat(r.getTransactionId()).isEqualTo("tx-1");
        assertThat(r.getRequest()).isEqualTo(Events.request("tx-1", T + 5));
        assertThat(r.getAck()).isEqualTo(Events.ack("tx-1", "delivered", T + 1007));
        assertThat(r.getRequestRecordTime()).isEqualTo(Instant.ofEpochMilli(T + 5));
        assertThat(r.getAckRecordTime()).isEqualTo(Instant.ofEpochMilli(T + 1007));
        assertThat(r.getMatchedAt()).isEqualTo(Instant.ofEpochMilli(f.now()));
    }

    @Test
    void shouldEmitEveryWaitingAckWhenRequestArrivesAfterTheAcks() {
        open("real-time");
        ack("tx-1", "delivered", T);
        ack("tx-1", "clicked", T + 1);
        assertThat(f.logRecords.isEmpty()).isTrue();

        request("tx-1", T + 2);
        ack("tx-1", "skipped", T + 3);

        assertThat(statuses()).containsExactly("tx-1:delivered", "tx-1:clicked", "tx-1:skipped");
    }

    @Test
    void shouldKeepTransactionsApartWhenKeysDiffer() {
        open("real-time");
        request("tx-1", T);
        ack("tx-2", "delivered", T + 1);
        ack("tx-1", "clicked", T + 2);

        assertThat(statuses()).containsExactly("tx-1:clicked");
    }

    @Test
    void shouldKeepFirstRequestWhenRequestIsDuplicated() {
        open("real-time");
        request("tx-1", T);
        request("tx-1", T + 50);
        ack("tx-1", "delivered", T + 100);

        List<LogRecord> out = f.logRecords.readValuesToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).getRequestRecordTime()).isEqualTo(Instant.ofEpochMilli(T));
    }

    @Test
    void shouldMatchAckJustBeforeCorrelationWindowEndsWhenRequestCameFirst() {
        open("real-time");
        request("tx-1", T);
        f.advance(Duration.ofMinutes(5).minusSeconds(1));
        ack("tx-1", "delivered", T + 299_000);

        assertThat(statuses()).containsExactly("tx-1:delivered");
    }

    @Test
    void shouldFindNothingWhenAckArrivesAfterCorrelationWindowExpiredTheRequest() {
        open("real-time");
        request("tx-1", T);
        f.advance(Duration.ofMinutes(5).plusSeconds(1));
        ack("tx-1", "delivered", T + 301_000);

        assertThat(f.logRecords.isEmpty()).isTrue();
    }

    @Test
    void shouldDropWaitingAcksWhenTheirRequestComesAfterTheWindow() {
        open("real-time");
        ack("tx-1", "delivered", T);
        f.advance(Duration.ofMinutes(5).plusSeconds(1));
        request("tx-1", T + 301_000);

        assertThat(f.logRecords.isEmpty()).isTrue();
        // The request starts a new window: a new ack matches it.
        ack("tx-1", "clicked", T + 302_000);
        assertThat(statuses()).containsExactly("tx-1:clicked");
    }

    @Test
    void shouldMeasureWindowFromFirstSightingWhenLaterRecordsArrive() {
        open("real-time");
        request("tx-1", T);
        f.advance(Duration.ofMinutes(3));
        ack("tx-1", "delivered", T + 180_000); // does not extend the window
        f.advance(Duration.ofMinutes(2).plusSeconds(1));
        ack("tx-1", "clicked", T + 301_000);

        assertThat(statuses()).containsExactly("tx-1:delivered");
    }

    @Test
    void shouldMatchAckProducedDuringAnOutageLongerThanTheWindowWhenTheBacklogArrives() {
        open("real-time");
        request("tx-1", T);
        // the service is down for twice the window: its clock runs on and the key's timer comes due
        // before the backlog arrives, but no record of the window's end has been seen yet
        f.advance(Duration.ofMinutes(10));
        ack("tx-1", "delivered", T + 10_000); // produced 10 s after the request, during the outage
        request("tx-2", T + 20_000);

        assertThat(statuses()).containsExactly("tx-1:delivered");
    }

    @Test
    void shouldWaitForTheAcksWhenTheRequestsBacklogIsReadAheadOfThem() {
        open("real-time");
        request("tx-1", T);
        ack("tx-0", "delivered", T);
        f.advance(Duration.ofMinutes(2));
        ack("tx-0", "clicked", T + 120_000); // the acks input delivers, but is behind tx-1's window
        f.advance(Duration.ofMinutes(2));
        // after an outage the requests backlog is read ahead of the acks': the requests input is past tx-1's window
        request("tx-2", T + 301_000);
        f.advance(Duration.ofMinutes(1).plusSeconds(1)); // tx-1's timer fires: the acks input is neither past nor idle
        ack("tx-1", "delivered", T + 10_000); // produced 10 s after its request, read now

        assertThat(statuses()).containsExactly("tx-1:delivered");
    }

    @Test
    void shouldClearStateOnceBothInputsArePastTheKeysWindow() {
        open("real-time");
        request("tx-1", T);
        ack("tx-0", "delivered", T);
        f.advance(Duration.ofMinutes(4));
        request("tx-2", T + 301_000);
        ack("tx-3", "delivered", T + 302_000); // both inputs are past tx-1's window
        f.advance(Duration.ofMinutes(1).plusSeconds(1)); // tx-1's timer fires and clears it
        ack("tx-1", "delivered", T + 299_000); // an ack from within tx-1's window, arriving after the clear

        assertThat(f.logRecords.isEmpty()).as("tx-1's request is gone").isTrue();
    }

    @Test
    void shouldClearStateOnceTheInputIsPastTheKeysWindowSoStateStaysBounded() {
        open("real-time");
        request("tx-1", T);
        f.advance(Duration.ofMinutes(1));
        request("tx-2", T + 301_000); // the task's input is now past tx-1's window
        f.advance(Duration.ofMinutes(5)); // tx-1's timer fires and clears it
        ack("tx-1", "delivered", T + 299_000); // an ack from within tx-1's window, arriving after the clear

        assertThat(f.logRecords.isEmpty()).as("tx-1's request is gone").isTrue();
        ack("tx-2", "clicked", T + 302_000);
        assertThat(statuses()).containsExactly("tx-2:clicked");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"real-time", "micro-batch"})
    void shouldEmitSameLogRecordsInBothExecutionModesWhenOneBatchHoldsRequestAndAcks(String mode) {
        open(mode);
        ack("tx-1", "delivered", T);
        request("tx-1", T + 1);
        ack("tx-1", "clicked", T + 2);
        request("tx-2", T + 3);
        request("tx-2", T + 4);
        ack("tx-2", "skipped", T + 5);
        f.advance(Duration.ofSeconds(2)); // closes a micro-batch

        assertThat(statuses()).containsExactlyInAnyOrder("tx-1:delivered", "tx-1:clicked", "tx-2:skipped");
    }
}
