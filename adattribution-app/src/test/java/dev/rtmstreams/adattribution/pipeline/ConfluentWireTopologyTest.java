package dev.rtmstreams.adattribution.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.model.AvroDecodeException;
import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.model.SchemaRegistryClient;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.testkit.SchemaRegistryStandIn;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service topology with {@code --wire-format confluent}, against {@link SchemaRegistryStandIn}: an in-process
 * stand-in for a Schema Registry (the documented subset of its REST API), not a real registry.
 */
class ConfluentWireTopologyTest {

    private static final long T = DriverFixture.START.toEpochMilli();

    @TempDir
    Path stateDir;

    private SchemaRegistryStandIn registry;
    private DriverFixture f;
    private AvroWire producer;

    @BeforeEach
    void setUp() {
        registry = SchemaRegistryStandIn.start().basicAuth("rtm", "s3cret");
        AppConfig config = AppConfig.builder()
                .bootstrapServers("dummy:9092")
                .wireFormat(WireFormat.CONFLUENT)
                .schemaRegistryUrl(registry.url())
                .schemaRegistryCredentials("rtm", "s3cret")
                .build();
        f = new DriverFixture(config, "real-time", stateDir);
        producer = AvroWire.confluent(SchemaRegistryClient.builder(registry.url())
                .basicAuth("rtm", "s3cret")
                .build());
    }

    @AfterEach
    void tearDown() {
        f.close();
        registry.close();
    }

    private byte[] impression(String id, long t) {
        return producer.serde(Impression.class, "ad-impressions").encode(Events.impression(id, t));
    }

    private byte[] click(String clickId, String impressionId, long t) {
        return producer.serde(Click.class, "ad-clicks").encode(Events.click(clickId, impressionId, t));
    }

    private static String header(TestRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldAttributeAndCorrelateWhenEveryTopicIsConfluentFramed() {
        f.impressions.pipeInput("imp-1", impression("imp-1", T), T);
        f.clicks.pipeInput("imp-1", click("click-1", "imp-1", T + 10), T + 10);
        f.requests.pipeInput(
                "tx-1", producer.serde(AdRequest.class, "ad-requests").encode(Events.request("tx-1", T)), T);
        f.acks.pipeInput(
                "tx-1", producer.serde(AdAck.class, "ad-acks").encode(Events.ack("tx-1", "delivered", T + 5)), T + 5);

        // the fixture reads the outputs with the Confluent deserializer: single-object bytes would fail here
        assertThat(f.attributed.readValuesToList())
                .extracting(AttributedClick::getClickId)
                .containsExactly("click-1");
        assertThat(f.logRecords.readValuesToList())
                .extracting(LogRecord::getTransactionId)
                .containsExactly("tx-1");
        assertThat(f.dlq.isEmpty()).isTrue();
        // the service registered its output schemas under the outputs' subjects
        assertThat(registry.requests("POST /subjects/attributed-clicks-value/versions"))
                .isEqualTo(1);
        assertThat(registry.requests("POST /subjects/ad-log-records-value/versions"))
                .isEqualTo(1);
    }

    @Test
    void shouldDeadLetterUnknownSchemaIdAndBadMagicByteWithErrorHeaders() {
        byte[] unknownId = {0, 0, 0, 0, 99, 2, 'x'};
        byte[] singleObject = Events.encode(Events.click("click-2", "imp-1", T)); // C3 01 header
        f.clicks.pipeInput("imp-1", unknownId, T);
        f.clicks.pipeInput("imp-1", singleObject, T);
        f.impressions.pipeInput("imp-1", impression("imp-1", T), T);
        f.clicks.pipeInput("imp-1", click("click-1", "imp-1", T + 10), T + 10);

        List<TestRecord<String, byte[]>> dead = f.dlq.readRecordsToList();
        assertThat(dead).extracting(TestRecord::value).containsExactly(unknownId, singleObject);
        assertThat(dead)
                .extracting(r -> header(r, DeadLetterHeaders.ERROR_CLASS))
                .containsOnly(AvroDecodeException.class.getName());
        assertThat(dead)
                .extracting(r -> header(r, DeadLetterHeaders.ERROR_CODE))
                .containsExactly("AVRO_DECODE_UNKNOWN_SCHEMA", "AVRO_DECODE_BAD_HEADER");
        assertThat(header(dead.get(0), DeadLetterHeaders.ERROR_MESSAGE)).contains("writer schema id 99");
        assertThat(dead)
                .extracting(r -> header(r, DeadLetterHeaders.SOURCE_TOPIC))
                .containsOnly("ad-clicks");
        assertThat(f.attributed.readValuesToList())
                .extracting(AttributedClick::getClickId)
                .containsExactly("click-1");
    }

    @Test
    void shouldReadClicksOfAnOlderProducerSchemaIntoTheCurrentOne() throws Exception {
        // version 1 of ad-clicks-value had a referrer field, the current Click dropped it (BACKWARD compatible)
        Schema v1 = SchemaBuilder.record("Click")
                .namespace("dev.rtmstreams.adattribution.avro")
                .fields()
                .requiredString("click_id")
                .requiredString("impression_id")
                .requiredString("user_id")
                .name("click_time")
                .type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG)))
                .noDefault()
                .requiredString("referrer")
                .endRecord();
        int v1Id = registry.register("ad-clicks-value", v1);
        GenericRecord old = new GenericData.Record(v1);
        old.put("click_id", "click-old");
        old.put("impression_id", "imp-1");
        old.put("user_id", "user-1");
        old.put("click_time", T + 10);
        old.put("referrer", "https://example.org");

        f.impressions.pipeInput("imp-1", impression("imp-1", T), T);
        f.clicks.pipeInput("imp-1", framed(v1Id, v1, old), T + 10);
        f.clicks.pipeInput("imp-1", click("click-new", "imp-1", T + 20), T + 20); // registers version 2

        assertThat(f.dlq.isEmpty()).isTrue();
        assertThat(f.attributed.readValuesToList())
                .extracting(AttributedClick::getClickId)
                .containsExactly("click-old", "click-new");
    }

    private static byte[] framed(int id, Schema writer, GenericRecord record) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(writer).write(record, encoder);
        encoder.flush();
        byte[] body = out.toByteArray();
        return ByteBuffer.allocate(5 + body.length)
                .put((byte) 0)
                .putInt(id)
                .put(body)
                .array();
    }
}
