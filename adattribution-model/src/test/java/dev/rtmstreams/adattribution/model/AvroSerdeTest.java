package dev.rtmstreams.adattribution.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Device;
import dev.rtmstreams.adattribution.avro.Geo;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.avro.User;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {

    private static final Instant T0 = Instant.ofEpochMilli(1_764_000_000_123L);

    static Impression impression() {
        return new Impression("imp-1", "user-1", "camp-1", "ad-1", "pub-1", 1_250_000L, T0);
    }

    static Click click() {
        return new Click("click-1", "imp-1", "user-1", T0.plusSeconds(30));
    }

    static AdRequest request() {
        return new AdRequest(
                "tx-1",
                "ad-1",
                "camp-1",
                0.75,
                new User("user-1", new Geo("NL", "Amsterdam")),
                new Device("android", "Pixel 8"),
                T0);
    }

    static AdAck ack() {
        return new AdAck("tx-1", "ad-1", "delivered", T0.plusMillis(42));
    }

    static List<SpecificRecord> everyType() {
        return List.of(
                impression(),
                click(),
                new AttributedClick(
                        "click-1",
                        "imp-1",
                        "user-1",
                        "camp-1",
                        "ad-1",
                        "pub-1",
                        1_250_000L,
                        T0,
                        T0.plusSeconds(30),
                        T0.plusSeconds(31)),
                request(),
                ack(),
                new LogRecord("tx-1", request(), ack(), T0, T0.plusMillis(40), T0.plusMillis(45)));
    }

    @SuppressWarnings("unchecked")
    @Test
    void shouldRoundTripEveryTypeWhenEncodedAndDecoded() {
        for (SpecificRecord record : everyType()) {
            Serde<SpecificRecord> serde = AvroSerde.of((Class<SpecificRecord>) record.getClass());

            byte[] bytes = serde.serializer().serialize("topic", record);
            SpecificRecord back = serde.deserializer().deserialize("topic", bytes);

            assertThat(bytes[0]).isEqualTo((byte) 0xC3);
            assertThat(bytes[1]).isEqualTo((byte) 0x01);
            assertThat(back).isEqualTo(record).isNotSameAs(record);
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void shouldWriteAndReadExactlyAvrosSingleObjectEncodingWhenComparedWithAvrosOwnCodec() throws Exception {
        for (SpecificRecord record : everyType()) {
            Class<SpecificRecord> type = (Class<SpecificRecord>) record.getClass();
            AvroSerde<SpecificRecord> serde = AvroSerde.of(type);
            SpecificData model = SpecificData.getForClass(type);
            BinaryMessageEncoder<SpecificRecord> avroEncoder = new BinaryMessageEncoder<>(model, serde.schema());
            BinaryMessageDecoder<SpecificRecord> avroDecoder = new BinaryMessageDecoder<>(model, serde.schema());

            byte[] ours = serde.encode(record);
            byte[] avros = avroEncoder.encode(record).array();

            assertThat(ours).isEqualTo(avros);
            assertThat(avroDecoder.decode(ours)).isEqualTo(record);
            // twice on one thread: the reused per-thread buffers must not leak bytes from one record into the next
            assertThat(serde.decode(serde.encode(record))).isEqualTo(record);
        }
    }

    @Test
    void shouldProvideSerdeForEveryTopicWhenUsingFactory() {
        assertThat(AdAttributionSerdes.impression()
                        .decode(AdAttributionSerdes.impression().encode(impression())))
                .isEqualTo(impression());
        assertThat(AdAttributionSerdes.click().type()).isEqualTo(Click.class);
        assertThat(AdAttributionSerdes.attributedClick().type()).isEqualTo(AttributedClick.class);
        assertThat(AdAttributionSerdes.adRequest().type()).isEqualTo(AdRequest.class);
        assertThat(AdAttributionSerdes.adAck().type()).isEqualTo(AdAck.class);
        assertThat(AdAttributionSerdes.logRecord().schema()).isEqualTo(LogRecord.getClassSchema());
    }

    @Test
    void shouldPassNullsThroughWhenTombstone() {
        AvroSerde<Click> serde = AvroSerde.of(Click.class);

        assertThat(serde.serializer().serialize("t", null)).isNull();
        assertThat(serde.deserializer().deserialize("t", null)).isNull();
    }

    @Test
    void shouldReportBadHeaderWhenBytesAreGarbage() {
        AvroSerde<Click> serde = AvroSerde.of(Click.class);
        byte[] garbage = "definitely not avro".getBytes(java.nio.charset.StandardCharsets.UTF_8);

        assertThatThrownBy(() -> serde.deserializer().deserialize("ad-clicks", garbage))
                .isInstanceOfSatisfying(AvroDecodeException.class, e -> {
                    assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.BAD_HEADER);
                    assertThat(e.errorCode()).isEqualTo("AVRO_DECODE_BAD_HEADER");
                    assertThat(e.topic()).contains("ad-clicks");
                    assertThat(e.fingerprint()).isEmpty();
                    assertThat(e.parameters())
                            .containsEntry("targetType", Click.class.getName())
                            .containsEntry("payloadSize", Integer.toString(garbage.length))
                            .containsEntry("topic", "ad-clicks");
                })
                .isInstanceOf(SerializationException.class);
    }

    @Test
    void shouldReportBadHeaderWhenPayloadIsEmpty() {
        assertThatThrownBy(() -> AvroSerde.of(Click.class).decode(new byte[0]))
                .isInstanceOfSatisfying(
                        AvroDecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.BAD_HEADER));
    }

    @Test
    void shouldReportUnknownSchemaWhenPayloadIsAnotherType() {
        byte[] impressionBytes = AvroSerde.of(Impression.class).encode(impression());

        assertThatThrownBy(() -> AvroSerde.of(Click.class).decode(impressionBytes))
                .isInstanceOfSatisfying(AvroDecodeException.class, e -> {
                    assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.UNKNOWN_SCHEMA);
                    assertThat(e.fingerprint())
                            .contains(String.format(
                                    "%016x",
                                    AvroSerde.fingerprintOf(impressionBytes).orElseThrow()));
                    assertThat(e.topic()).isEmpty();
                });
    }

    @Test
    void shouldReportMalformedPayloadWhenBodyIsTruncated() {
        AvroSerde<Impression> serde = AvroSerde.of(Impression.class);
        byte[] bytes = serde.encode(impression());
        byte[] truncated = Arrays.copyOf(bytes, 14);

        assertThatThrownBy(() -> serde.decode(truncated))
                .isInstanceOfSatisfying(
                        AvroDecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.MALFORMED_PAYLOAD));
    }

    /** A newer producer added a field with a default; the current reader must still read it. */
    static Schema clickWithReferrer() {
        return SchemaBuilder.record("Click")
                .namespace("dev.rtmstreams.adattribution.avro")
                .fields()
                .requiredString("click_id")
                .requiredString("impression_id")
                .requiredString("user_id")
                .name("click_time")
                .type(timestampMillis())
                .noDefault()
                .name("referrer")
                .type()
                .stringType()
                .stringDefault("")
                .endRecord();
    }

    /** An old producer that did not send user_id: the current reader cannot fill it (no default). */
    static Schema clickWithoutUser() {
        return SchemaBuilder.record("Click")
                .namespace("dev.rtmstreams.adattribution.avro")
                .fields()
                .requiredString("click_id")
                .requiredString("impression_id")
                .name("click_time")
                .type(timestampMillis())
                .noDefault()
                .endRecord();
    }

    private static Schema timestampMillis() {
        return org.apache.avro.LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
    }

    private static byte[] writeWith(Schema writer, GenericRecord record) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record, out);
        return out.toByteArray();
    }

    private static GenericRecord evolvedClick() {
        GenericRecord record = new GenericData.Record(clickWithReferrer());
        record.put("click_id", "click-9");
        record.put("impression_id", "imp-9");
        record.put("user_id", "user-9");
        record.put("click_time", T0.toEpochMilli());
        record.put("referrer", "https://example.org");
        return record;
    }

    @Test
    void shouldDecodeEvolvedWriterSchemaWhenRegistered() throws Exception {
        byte[] bytes = writeWith(clickWithReferrer(), evolvedClick());
        AvroSerde<Click> serde =
                AvroSerde.builder(Click.class).writerSchema(clickWithReferrer()).build();

        Click decoded = serde.deserializer().deserialize("ad-clicks", bytes);

        assertThat(decoded).isEqualTo(new Click("click-9", "imp-9", "user-9", T0));
    }

    @Test
    void shouldDecodeEvolvedWriterSchemaWhenFoundInSchemaStore() throws Exception {
        byte[] bytes = writeWith(clickWithReferrer(), evolvedClick());
        SchemaStore.Cache store = new SchemaStore.Cache();
        store.addSchema(clickWithReferrer());
        AvroSerde<Click> serde =
                AvroSerde.builder(Click.class).schemaStore(store).build();

        assertThat(serde.decode(bytes)).isEqualTo(new Click("click-9", "imp-9", "user-9", T0));
    }

    @Test
    void shouldReportUnknownSchemaWhenEvolvedWriterIsNotRegistered() throws Exception {
        byte[] bytes = writeWith(clickWithReferrer(), evolvedClick());

        assertThatThrownBy(() -> AvroSerde.of(Click.class).decode(bytes))
                .isInstanceOfSatisfying(
                        AvroDecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.UNKNOWN_SCHEMA));
    }

    @Test
    void shouldReportIncompatibleSchemaWhenWriterLacksRequiredField() throws Exception {
        GenericRecord old = new GenericData.Record(clickWithoutUser());
        old.put("click_id", "c");
        old.put("impression_id", "i");
        old.put("click_time", 1L);
        byte[] bytes = writeWith(clickWithoutUser(), old);
        AvroSerde<Click> serde =
                AvroSerde.builder(Click.class).writerSchema(clickWithoutUser()).build();

        assertThatThrownBy(() -> serde.decode(bytes))
                .isInstanceOfSatisfying(
                        AvroDecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(AvroDecodeException.Reason.INCOMPATIBLE_SCHEMA));
    }

    @Test
    void shouldRejectWriterSchemaWhenItNamesAnotherRecord() {
        assertThatThrownBy(() -> AvroSerde.builder(Click.class)
                        .writerSchema(Impression.getClassSchema())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dev.rtmstreams.adattribution.avro.Impression");
    }

    @Test
    void shouldFailClearlyWhenRequiredFieldIsNullOnEncode() {
        Click broken = new Click("c", null, "u", T0);

        assertThatThrownBy(() -> AvroSerde.of(Click.class).encode(broken))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(Click.class.getName());
    }
}
