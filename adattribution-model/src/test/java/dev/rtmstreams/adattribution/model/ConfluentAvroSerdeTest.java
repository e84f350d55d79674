package dev.rtmstreams.adattribution.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.testkit.SchemaRegistryStandIn;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Confluent framing against {@link SchemaRegistryStandIn}, a stand-in for a Schema Registry (not a real one). */
class ConfluentAvroSerdeTest {

    private static final Instant T0 = Instant.ofEpochMilli(1_764_000_000_123L);
    private static final String SUBJECT = "ad-clicks-value";

    private final SchemaRegistryStandIn registry = SchemaRegistryStandIn.start();
    private final SchemaRegistryClient client =
            SchemaRegistryClient.builder(registry.url()).build();

    @AfterEach
    void stop() {
        registry.close();
    }

    @Test
    void shouldFrameWithMagicByteAndBigEndianIdWhenEncoding() throws Exception {
        registry.register("other-value", Impression.getClassSchema()); // id 1: the click gets id 2
        AvroWireSerde<Click> serde = AvroWire.confluent(client).serde(Click.class, "ad-clicks");
        Click click = AvroSerdeTest.click();

        byte[] bytes = serde.encode(click);

        assertThat(bytes[0]).isZero();
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(2);
        assertThat(ConfluentAvroSerde.schemaIdOf(bytes)).isEqualTo(2);
        assertThat(Arrays.copyOfRange(bytes, 5, bytes.length)).isEqualTo(binary(Click.getClassSchema(), click));
        assertThat(client.latest(SUBJECT).schema()).isEqualTo(Click.getClassSchema());
        assertThat(serde.decode(bytes)).isEqualTo(click);
        assertThat(serde.deserializer().deserialize("ad-clicks", null)).isNull();
        assertThat(serde.encode(null)).isNull();
    }

    @Test
    void shouldAskRegistryOncePerIdWhenDecodingMany() {
        AvroWireSerde<Click> writer = AvroWire.confluent(client).serde(Click.class, "ad-clicks");
        byte[] bytes = writer.encode(AvroSerdeTest.click());
        // a fresh client: nothing cached from the register call
        AvroWireSerde<Click> reader = AvroWire.confluent(
                        SchemaRegistryClient.builder(registry.url()).build())
                .serde(Click.class, "ad-clicks");

        for (int i = 0; i < 100; i++) {
            assertThat(reader.decode(bytes)).isEqualTo(AvroSerdeTest.click());
        }

        assertThat(registry.requests("GET /schemas/ids/1")).isEqualTo(1);
    }

    @Test
    void shouldRegisterOnceWhenEncodingMany() {
        AvroWireSerde<Click> writer = AvroWire.confluent(client).serde(Click.class, "ad-clicks");

        for (int i = 0; i < 100; i++) {
            writer.encode(AvroSerdeTest.click());
        }

        assertThat(registry.requests("POST /subjects/" + SUBJECT + "/versions")).isEqualTo(1);
    }

    @Test
    void shouldReadOlderWriterSchemaIntoCurrentWhenEvolved() throws Exception {
        // version 1 of the subject carried a referrer; the current Click dropped it (BACKWARD compatible)
        Schema v1 = AvroSerdeTest.clickWithReferrer();
        int oldId = registry.register(SUBJECT, v1);
        AvroWireSerde<Click> serde = AvroWire.confluent(client).serde(Click.class, "ad-clicks");
        byte[] current = serde.encode(AvroSerdeTest.click()); // registers version 2
        GenericRecord old = new GenericData.Record(v1);
        old.put("click_id", "click-9");
        old.put("impression_id", "imp-9");
        old.put("user_id", "user-9");
        old.put("click_time", T0.toEpochMilli());
        old.put("referrer", "https://example.org");

        Click decoded = serde.decode(framed(oldId, v1, old));

        assertThat(ConfluentAvroSerde.schemaIdOf(current)).isNotEqualTo(oldId);
        assertThat(client.latest(SUBJECT).version()).isEqualTo(2);
        assertThat(decoded).isEqualTo(new Click("click-9", "imp-9", "user-9", T0));
    }

    @Test
    void shouldReportIncompatibleSchemaWhenWriterLacksRequiredField() throws Exception {
        Schema noUser = AvroSerdeTest.clickWithoutUser();
        int id = registry.register("old-clicks-value", noUser);
        GenericRecord old = new GenericData.Record(noUser);
        old.put("click_id", "c");
        old.put("impression_id", "i");
        old.put("click_time", 1L);
        AvroWireSerde<Click> serde = AvroWire.confluent(client).serde(Click.class, "ad-clicks");

        assertThatThrownBy(() -> serde.decode(framed(id, noUser, old)))
                .isInstanceOfSatisfying(AvroDecodeException.class, e -> {
                    assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.INCOMPATIBLE_SCHEMA);
                    assertThat(e.schemaId()).contains(id);
                });
    }

    @Test
    void shouldReportUnknownSchemaWhenRegistryLacksTheId() {
        AvroWireSerde<Click> serde = AvroWire.confluent(client).serde(Click.class, "ad-clicks");
        byte[] bytes = {0, 0, 0, 0, 42, 2, 'x'};

        assertThatThrownBy(() -> serde.deserializer().deserialize("ad-clicks", bytes))
                .isInstanceOfSatisfying(AvroDecodeException.class, e -> {
                    assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.UNKNOWN_SCHEMA);
                    assertThat(e.errorCode()).isEqualTo("AVRO_DECODE_UNKNOWN_SCHEMA");
                    assertThat(e.parameters()).containsEntry("schemaId", "42").containsEntry("topic", "ad-clicks");
                });
    }

    @Test
    void shouldReportBadHeaderWhenMagicByteIsNotZero() {
        AvroWireSerde<Click> serde = AvroWire.confluent(client).serde(Click.class, "ad-clicks");
        byte[] singleObject = AvroSerde.of(Click.class).encode(AvroSerdeTest.click());

        assertThatThrownBy(() -> serde.decode(singleObject))
                .isInstanceOfSatisfying(
                        AvroDecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.BAD_HEADER));
        assertThatThrownBy(() -> serde.decode(new byte[] {0, 0, 1}))
                .isInstanceOfSatisfying(
                        AvroDecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.BAD_HEADER));
        assertThat(registry.requests()).isZero();
    }

    @Test
    void shouldReportMalformedPayloadWhenBodyIsTruncated() {
        AvroWireSerde<Click> serde = AvroWire.confluent(client).serde(Click.class, "ad-clicks");
        byte[] bytes = serde.encode(AvroSerdeTest.click());

        assertThatThrownBy(() -> serde.decode(Arrays.copyOf(bytes, 8)))
                .isInstanceOfSatisfying(
                        AvroDecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.MALFORMED_PAYLOAD));
    }

    @Test
    void shouldThrowRegistryErrorNotDecodeErrorWhenRegistryIsDown() {
        AvroWireSerde<Click> serde = AvroWire.confluent(client).serde(Click.class, "ad-clicks");
        registry.close();

        assertThatThrownBy(() -> serde.decode(new byte[] {0, 0, 0, 0, 1, 2, 'x'}))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.status()).isEqualTo(-1));
    }

    @Test
    void shouldRoundTripEveryTypeWhenConfluentFramed() {
        AvroWire wire = AvroWire.confluent(client);
        for (SpecificRecord record : AvroSerdeTest.everyType()) {
            @SuppressWarnings("unchecked")
            AvroWireSerde<SpecificRecord> serde = wire.serde(
                    (Class<SpecificRecord>) record.getClass(),
                    record.getSchema().getName());
            assertThat(serde.decode(serde.encode(record))).isEqualTo(record);
        }
    }

    @Test
    void shouldGiveSingleObjectSerdeWhenWireIsDefault() {
        AvroWireSerde<Click> serde = AvroWire.singleObject().serde(Click.class, "ad-clicks");

        assertThat(serde).isInstanceOf(AvroSerde.class);
        assertThat(AvroWire.singleObject().format()).isEqualTo(WireFormat.SINGLE_OBJECT);
        assertThat(AvroWire.singleObject().registry()).isEmpty();
    }

    @Test
    void shouldParseWireFormatAndNameBadValue() {
        assertThat(WireFormat.parse("confluent")).isEqualTo(WireFormat.CONFLUENT);
        assertThat(WireFormat.parse("Single_Object")).isEqualTo(WireFormat.SINGLE_OBJECT);
        assertThatThrownBy(() -> WireFormat.parse("protobuf"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'protobuf'");
    }

    static byte[] framed(int id, Schema writer, GenericRecord record) throws Exception {
        byte[] body = binary(writer, record);
        return ByteBuffer.allocate(5 + body.length)
                .put((byte) 0)
                .putInt(id)
                .put(body)
                .array();
    }

    private static byte[] binary(Schema writer, Object record) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        GenericData model = record instanceof SpecificRecord
                ? org.apache.avro.specific.SpecificData.getForSchema(writer)
                : GenericData.get();
        new GenericDatumWriter<Object>(writer, model).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
