package dev.rtmstreams.adattribution.pipeline;

import static dev.rtmstreams.adattribution.pipeline.Events.encode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.model.AvroDecodeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeadLetterTopologyTest {

    private static final long T = DriverFixture.START.toEpochMilli();

    @TempDir
    Path stateDir;

    private DriverFixture f;

    @BeforeEach
    void setUp() {
        f = new DriverFixture(DriverFixture.defaults(), "real-time", stateDir);
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private static String header(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldRouteUndecodableBytesToDeadLetterTopicWithHeadersAndKeepGoodRecordsWhenInterleaved() {
        byte[] garbage = "definitely not avro".getBytes(StandardCharsets.UTF_8);
        f.impressions.pipeInput("imp-1", encode(Events.impression("imp-1", T)), T); // offset 0
        f.impressions.pipeInput("imp-x", garbage, T); // offset 1
        f.impressions.pipeInput("imp-2", encode(Events.impression("imp-2", T)), T); // offset 2
        f.clicks.pipeInput("imp-1", encode(Events.click("click-1", "imp-1", T + 10)), T + 10);
        f.clicks.pipeInput("imp-2", new byte[] {(byte) 0xC3, 0x01, 1, 2, 3}, T + 10); // Avro magic, truncated
        f.clicks.pipeInput("imp-2", encode(Events.click("click-2", "imp-2", T + 20)), T + 20);

        assertThat(f.attributed.readValuesToList())
                .extracting(AttributedClick::getClickId)
                .containsExactly("click-1", "click-2");
        List<TestRecord<String, byte[]>> dead = f.dlq.readRecordsToList();
        assertThat(dead).hasSize(2);
        TestRecord<String, byte[]> first = dead.get(0);
        assertThat(first.key()).isEqualTo("imp-x");
        assertThat(first.value()).isEqualTo(garbage);
        assertThat(header(first.headers(), DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo("ad-impressions");
        assertThat(header(first.headers(), DeadLetterHeaders.SOURCE_PARTITION)).isEqualTo("0");
        assertThat(header(first.headers(), DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("1");
        assertThat(header(first.headers(), DeadLetterHeaders.ERROR_CLASS))
                .isEqualTo(AvroDecodeException.class.getName());
        assertThat(header(first.headers(), DeadLetterHeaders.ERROR_CODE)).isEqualTo("AVRO_DECODE_BAD_HEADER");
        assertThat(header(first.headers(), DeadLetterHeaders.ERROR_MESSAGE)).isNotBlank();
        assertThat(header(dead.get(1).headers(), DeadLetterHeaders.SOURCE_TOPIC))
                .isEqualTo("ad-clicks");
        assertThat(header(dead.get(1).headers(), DeadLetterHeaders.SOURCE_OFFSET))
                .isEqualTo("1");
        assertThat(f.deadLetters.snapshot()).isEqualTo(Map.of("ad-impressions", 1L, "ad-clicks", 1L));
    }

    @Test
    void shouldDeadLetterEventsFarAheadOfTheWallClockSoTheyCannotMoveTheWatermarkAndLaterPairsStillJoin() {
        long tenYears = java.time.Duration.ofDays(3650).toMillis();
        f.impressions.pipeInput("imp-far", encode(Events.impression("imp-far", T + tenYears)), T);
        f.clicks.pipeInput("imp-far", encode(Events.click("click-far", "imp-far", T + tenYears + 1)), T);
        f.requests.pipeInput("tx-far", encode(Events.request("tx-far", T)), T + tenYears); // record time ahead
        f.impressions.pipeInput("imp-1", encode(Events.impression("imp-1", T)), T);
        f.clicks.pipeInput("imp-1", encode(Events.click("click-1", "imp-1", T + 10)), T + 10);

        assertThat(f.attributed.readValuesToList())
                .extracting(AttributedClick::getClickId)
                .containsExactly("click-1");
        List<TestRecord<String, byte[]>> dead = f.dlq.readRecordsToList();
        assertThat(dead).extracting(TestRecord::key).containsExactly("imp-far", "imp-far", "tx-far");
        assertThat(dead)
                .extracting(r -> header(r.headers(), DeadLetterHeaders.ERROR_CODE))
                .containsOnly(BadInputException.EVENT_TIME_TOO_FAR_AHEAD);
        assertThat(header(dead.get(0).headers(), DeadLetterHeaders.ERROR_MESSAGE))
                .contains("rtm.max.event.time.skew.ms");
    }

    @Test
    void shouldDeadLetterRecordOfAnotherSchemaWhenItArrivesOnTheWrongTopic() {
        f.impressions.pipeInput("imp-1", encode(Events.click("click-1", "imp-1", T)), T);

        TestRecord<String, byte[]> dead = f.dlq.readRecord();
        assertThat(header(dead.headers(), DeadLetterHeaders.ERROR_CLASS))
                .isEqualTo(AvroDecodeException.class.getName());
        assertThat(header(dead.headers(), DeadLetterHeaders.ERROR_CODE)).isEqualTo("AVRO_DECODE_UNKNOWN_SCHEMA");
        assertThat(f.dlq.isEmpty()).isTrue();
    }

    @Test
    void shouldDeadLetterRecordWithoutKeyOrWithForeignKeyWhenKeyIsNotTheId() {
        f.requests.pipeInput(null, encode(Events.request("tx-1", T)), T);
        f.acks.pipeInput("tx-other", encode(Events.ack("tx-1", "delivered", T)), T);
        f.acks.pipeInput("tx-2", null, T);

        List<TestRecord<String, byte[]>> dead = f.dlq.readRecordsToList();
        assertThat(dead)
                .extracting(r -> header(r.headers(), DeadLetterHeaders.ERROR_CLASS))
                .containsOnly(BadInputException.class.getName());
        assertThat(dead)
                .extracting(r -> header(r.headers(), DeadLetterHeaders.ERROR_CODE))
                .containsExactly(
                        BadInputException.MISSING_KEY, BadInputException.KEY_MISMATCH, BadInputException.MISSING_VALUE);
        assertThat(dead)
                .extracting(r -> header(r.headers(), DeadLetterHeaders.SOURCE_TOPIC))
                .containsExactly("ad-requests", "ad-acks", "ad-acks");
        assertThat(f.logRecords.isEmpty()).isTrue();
    }
}
