package dev.rtmstreams.processor.avro;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.reflect.AvroDefault;
import org.junit.jupiter.api.Test;

/** The Avro serde alone: its three factories, Avro's schema resolution, and the incompatibilities it reports. */
class AvroStateSerdeTest {

    /** Version 1 of a value type as a Java record (Avro reflect). */
    static final class V1 {
        record Visit(String page, int count) {}
    }

    /** Version 2: count widened, a field with a default added. */
    static final class V2 {
        record Visit(
                String page,
                long count,
                @AvroDefault("\"web\"") String channel) {}
    }

    @Test
    void shouldReadAJavaRecordOfTheOldVersionWhenAFieldWidensAndAnotherIsAddedWithADefault() {
        AvroStateSerde<V1.Visit> v1 = AvroStateSerde.reflect(V1.Visit.class);
        AvroStateSerde<V2.Visit> v2 = AvroStateSerde.reflect(V2.Visit.class);
        byte[] old = v1.serializer().serialize("t", new V1.Visit("/home", 3));

        assertThat(v1.deserializer().deserialize("t", old)).isEqualTo(new V1.Visit("/home", 3));
        assertThat(v2.incompatibilityWith(v1.schema())).isNull();
        assertThat(v2.deserialize(old, v1.schema())).isEqualTo(new V2.Visit("/home", 3L, "web"));
        assertThat(v1.incompatibilityWith(v2.schema()))
                .as("narrowing long to int")
                .contains("TYPE_MISMATCH", "reader type: INT not compatible with writer type: LONG");
    }

    @Test
    void shouldRoundTripAGeneratedClassWhenBuiltWithSpecific() {
        AvroStateSerde<Counter> s = AvroStateSerde.specific(Counter.class);
        byte[] b = s.serializer().serialize("t", new Counter(42));
        assertThat(s.deserializer().deserialize("t", b).get(0)).isEqualTo(42L);
        assertThat(s.schema()).isEqualTo(Counter.SCHEMA$.toString());
        assertThat(s.format()).isEqualTo("avro");
    }

    @Test
    void shouldWidenFloatToDoubleAndReadStringsAsBytesWhenTheWriterSchemaIsOlder() {
        Schema f = Schema.create(Schema.Type.FLOAT);
        Schema d = Schema.create(Schema.Type.DOUBLE);
        byte[] written = AvroStateSerde.<Float>generic(f).serializer().serialize("t", 1.5f);
        assertThat(AvroStateSerde.<Double>generic(d).deserialize(written, f.toString()))
                .isEqualTo(1.5d);
        Schema str = Schema.create(Schema.Type.STRING);
        Schema bytes = Schema.create(Schema.Type.BYTES);
        assertThat(AvroStateSerde.generic(bytes).incompatibilityWith(str.toString()))
                .isNull();
    }

    @Test
    void shouldReadAsWrittenWhenAskedForTheWriterSchema() {
        Schema v1 = AvroSchemaEvolutionTest.PROFILE_V1;
        AvroStateSerde<GenericRecord> s1 = AvroStateSerde.generic(v1);
        AvroStateSerde<GenericRecord> s2 = AvroStateSerde.generic(AvroSchemaEvolutionTest.PROFILE_ADDED);
        GenericRecord r = new org.apache.avro.generic.GenericRecordBuilder(v1)
                .set("name", "a")
                .set("visits", 1)
                .build();
        byte[] b = s1.serializer().serialize("t", r);
        assertThat(s2.deserialize(b, v1.toString()).toString())
                .isEqualTo("{\"name\": \"a\", \"visits\": 1, \"tier\": \"basic\"}");
        assertThat(s2.deserializeAsWritten(b, v1.toString()).toString()).isEqualTo("{\"name\": \"a\", \"visits\": 1}");
    }

    @Test
    void shouldNameEveryIncompatibilityWhenTheNewSchemaCannotReadTheOld() {
        AvroStateSerde<GenericRecord> s = AvroStateSerde.generic(AvroSchemaEvolutionTest.PROFILE_ADDED_NO_DEFAULT);
        assertThat(s.incompatibilityWith(AvroSchemaEvolutionTest.PROFILE_V1.toString()))
                .isEqualTo("READER_FIELD_MISSING_DEFAULT_VALUE at /fields/2: tier");
    }
}
