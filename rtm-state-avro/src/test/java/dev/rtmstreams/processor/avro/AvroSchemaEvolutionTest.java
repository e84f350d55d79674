package dev.rtmstreams.processor.avro;

import static dev.rtmstreams.processor.avro.Profiles.rtmCause;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.avro.Profiles.Version;
import dev.rtmstreams.processor.errors.InvalidValueSchemaEvolutionException;
import dev.rtmstreams.processor.errors.KeySchemaNotCompatibleException;
import dev.rtmstreams.processor.errors.ValueSchemaEvolutionThresholdExceededException;
import dev.rtmstreams.processor.errors.ValueSchemaNotCompatibleException;
import java.util.List;
import java.util.Properties;
import java.util.function.BiConsumer;
import org.apache.avro.Schema;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Schema evolution of state variables through the Avro state encoding: rows written before a restart are read after
 * it through their writer schema, for each allowed change, after a restore from the changelog on a fresh state
 * directory; each refused change fails the restart with its error class. Ported from Spark's
 * {@code TransformWithStateAvroSuite}: "transformWithState - adding field should succeed" and "verify default values
 * during schema evolution", "upcasting should succeed", "removing field should succeed", "reordering fields should
 * succeed", "incompatible schema evolution should fail", "test that invalid schema evolution fails query for column
 * family" (long to int), "test that introducing TTL after restart fails query", "value schema threshold exceeded",
 * "verify schema files are retained through multiple evolutions".
 */
class AvroSchemaEvolutionTest {

    static final Schema PROFILE_V1 =
            parse("{\"type\":\"record\",\"name\":\"Profile\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"visits\",\"type\":\"int\"}]}");
    /** V1 plus a field with a default. */
    static final Schema PROFILE_ADDED =
            parse("{\"type\":\"record\",\"name\":\"Profile\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"visits\",\"type\":\"int\"},"
                    + "{\"name\":\"tier\",\"type\":\"string\",\"default\":\"basic\"}]}");
    /** V1 with visits widened to long. */
    static final Schema PROFILE_WIDENED =
            parse("{\"type\":\"record\",\"name\":\"Profile\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"visits\",\"type\":\"long\"}]}");
    /** V1 without name. */
    static final Schema PROFILE_REMOVED =
            parse("{\"type\":\"record\",\"name\":\"Profile\",\"fields\":[{\"name\":\"visits\",\"type\":\"int\"}]}");
    /** V1 with its fields in the other order. */
    static final Schema PROFILE_REORDERED =
            parse("{\"type\":\"record\",\"name\":\"Profile\",\"fields\":[{\"name\":\"visits\",\"type\":\"int\"},"
                    + "{\"name\":\"name\",\"type\":\"string\"}]}");
    /** V1 with name changed to an int: not readable. */
    static final Schema PROFILE_NAME_INT =
            parse("{\"type\":\"record\",\"name\":\"Profile\",\"fields\":[{\"name\":\"name\",\"type\":\"int\"},"
                    + "{\"name\":\"visits\",\"type\":\"int\"}]}");
    /** V1 plus a field without a default: not readable. */
    static final Schema PROFILE_ADDED_NO_DEFAULT =
            parse("{\"type\":\"record\",\"name\":\"Profile\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"visits\",\"type\":\"int\"},{\"name\":\"tier\",\"type\":\"string\"}]}");

    static final Schema INT = Schema.create(Schema.Type.INT);
    static final Schema LONG = Schema.create(Schema.Type.LONG);

    static Schema parse(String json) {
        return new Schema.Parser().parse(json);
    }

    static Version v(Schema profile, Schema count) {
        return Version.of(AvroStateSerde.generic(profile), AvroStateSerde.generic(count));
    }

    /** How the operator comes back: restored from its changelog on a fresh instance. */
    enum Restart {
        CHANGELOG_RESTORE(AvroHarness::restartFromChangelog);

        final BiConsumer<AvroHarness, TransformWithState<String, String, String>> how;

        Restart(BiConsumer<AvroHarness, TransformWithState<String, String, String>> how) {
            this.how = how;
        }

        void apply(AvroHarness h, Version next) {
            how.accept(h, next.operator());
        }
    }

    /** Runs {@code before}, writes a row for a and two for b, restarts with {@code after}, returns its outputs. */
    private static List<String> evolve(Version before, Version after, Restart restart, String... afterRows) {
        try (AvroHarness h = new AvroHarness(before.operator())) {
            h.pipe("a", "x");
            h.pipe("b", "x");
            h.pipe("b", "y");
            assertThat(h.drain()).hasSize(3);
            restart.apply(h, after);
            for (int i = 0; i < afterRows.length; i += 2) {
                h.pipe(afterRows[i], afterRows[i + 1]);
            }
            return h.drain();
        }
    }

    /** Spark: "transformWithState - adding field should succeed", "verify default values during schema evolution". */
    @ParameterizedTest
    @EnumSource(Restart.class)
    void shouldReadOldRowsWithTheDefaultWhenTheValueRecordGainsAFieldWithADefault(Restart restart) {
        assertThat(evolve(v(PROFILE_V1, INT), v(PROFILE_ADDED, INT), restart, "a", "x", "a", "z", "c", "x"))
                .containsExactly(
                        "a profile={\"name\": \"a\", \"visits\": 1, \"tier\": \"basic\"} counts={x=1i}",
                        "a profile={\"name\": \"a\", \"visits\": 2, \"tier\": \"basic\"} counts={x=2i}",
                        "c profile=null counts={}");
    }

    /** Spark: "transformWithState - upcasting should succeed" (int to long), for a record field and a map value. */
    @ParameterizedTest
    @EnumSource(Restart.class)
    void shouldWidenIntToLongWhenARecordFieldAndAMapValueWiden(Restart restart) {
        assertThat(evolve(v(PROFILE_V1, INT), v(PROFILE_WIDENED, LONG), restart, "b", "x", "b", "x"))
                .containsExactly(
                        "b profile={\"name\": \"b\", \"visits\": 2} counts={x=1L, y=1L}",
                        "b profile={\"name\": \"b\", \"visits\": 3} counts={x=2L, y=1L}");
    }

    /** Spark: "transformWithState - removing field should succeed". */
    @ParameterizedTest
    @EnumSource(Restart.class)
    void shouldDropTheFieldWhenAFieldIsRemoved(Restart restart) {
        assertThat(evolve(v(PROFILE_V1, INT), v(PROFILE_REMOVED, INT), restart, "b", "x"))
                .containsExactly("b profile={\"visits\": 2} counts={x=1i, y=1i}");
    }

    /** Spark: "transformWithState - reordering fields should succeed". */
    @ParameterizedTest
    @EnumSource(Restart.class)
    void shouldReadByFieldNameWhenFieldsAreReordered(Restart restart) {
        assertThat(evolve(v(PROFILE_V1, INT), v(PROFILE_REORDERED, INT), restart, "a", "x", "a", "x"))
                .containsExactly(
                        "a profile={\"visits\": 1, \"name\": \"a\"} counts={x=1i}",
                        "a profile={\"visits\": 2, \"name\": \"a\"} counts={x=2i}");
    }

    private static RtmException refused(Version before, Version after, Restart restart) {
        try (AvroHarness h = new AvroHarness(before.operator())) {
            h.pipe("a", "x");
            h.drain();
            return rtmCause(catchThrowable(() -> restart.apply(h, after)));
        }
    }

    /** Spark: "transformWithState - incompatible schema evolution should fail" (a field's type changed). */
    @ParameterizedTest
    @EnumSource(Restart.class)
    void shouldRefuseTheRestartWhenAFieldChangesToAnIncompatibleType(Restart restart) {
        RtmException e = refused(v(PROFILE_V1, INT), v(PROFILE_NAME_INT, INT), restart);
        assertThat(e.errorCode()).isEqualTo(InvalidValueSchemaEvolutionException.CODE);
        assertThat(e.parameters())
                .containsExactly(
                        java.util.Map.entry("oldValueSchema", PROFILE_V1.toString()),
                        java.util.Map.entry("newValueSchema", PROFILE_NAME_INT.toString()));
        assertThat(e.context()).containsEntry("operator", "profiles").containsEntry("stateName", "profile");
        assertThat(e.getMessage()).contains("profile", "TYPE_MISMATCH", "/fields/0/type");
    }

    /** Spark: "test that invalid schema evolution fails query for column family" (long to int). */
    @ParameterizedTest
    @EnumSource(Restart.class)
    void shouldRefuseTheRestartWhenAMapValueNarrowsFromLongToInt(Restart restart) {
        RtmException e = refused(v(PROFILE_V1, LONG), v(PROFILE_V1, INT), restart);
        assertThat(e.errorCode()).isEqualTo(InvalidValueSchemaEvolutionException.CODE);
        assertThat(e.parameters())
                .containsEntry("oldValueSchema", "\"long\"")
                .containsEntry("newValueSchema", "\"int\"");
        assertThat(e.context()).containsEntry("stateName", "counts");
    }

    @Test
    void shouldRefuseTheRestartWhenAFieldIsAddedWithoutADefault() {
        RtmException e = refused(v(PROFILE_V1, INT), v(PROFILE_ADDED_NO_DEFAULT, INT), Restart.CHANGELOG_RESTORE);
        assertThat(e.errorCode()).isEqualTo(InvalidValueSchemaEvolutionException.CODE);
        assertThat(e.getMessage()).contains("READER_FIELD_MISSING_DEFAULT_VALUE", "tier");
    }

    /** Spark: "test that introducing TTL after restart fails query", for an Avro-encoded variable. */
    @Test
    void shouldRefuseTheRestartWhenATtlIsAddedToAnAvroVariable() {
        try (AvroHarness h =
                new AvroHarness(v(PROFILE_V1, INT).operator(TimeMode.PROCESSING_TIME, ExecutionMode.REAL_TIME))) {
            h.pipe("a", "x");
            h.drain();
            RtmException e = rtmCause(catchThrowable(() -> h.restartFromChangelog(v(PROFILE_ADDED, INT)
                    .withTtl(java.time.Duration.ofMinutes(1))
                    .operator(TimeMode.PROCESSING_TIME, ExecutionMode.REAL_TIME))));
            assertThat(e.errorCode()).isEqualTo(ValueSchemaNotCompatibleException.CODE);
            assertThat(e.parameters())
                    .containsEntry("storedValueSchema", "profile: value: evolvable:avro")
                    .containsEntry("newValueSchema", "profile: value: evolvable:avro, ttlExpirationMs");
        }
    }

    @Test
    void shouldRefuseTheRestartWhenAVariableSwitchesFromAPlainSerdeToTheAvroEncoding() {
        Version plain = Version.of(AvroStateSerde.generic(PROFILE_V1), Serdes.Long());
        RtmException e = refused(plain, v(PROFILE_V1, LONG), Restart.CHANGELOG_RESTORE);
        assertThat(e.errorCode()).isEqualTo(ValueSchemaNotCompatibleException.CODE);
        assertThat(e.parameters())
                .containsEntry(
                        "storedValueSchema", "counts: value: org.apache.kafka.common.serialization.LongSerializer")
                .containsEntry("newValueSchema", "counts: value: evolvable:avro");
    }

    @Test
    void shouldRefuseTheRestartWhenAVariableSwitchesFromTheAvroEncodingToAPlainSerde() {
        Version plain = Version.of(AvroStateSerde.generic(PROFILE_V1), Serdes.Long());
        RtmException e = refused(v(PROFILE_V1, LONG), plain, Restart.CHANGELOG_RESTORE);
        assertThat(e.errorCode()).isEqualTo(ValueSchemaNotCompatibleException.CODE);
    }

    @Test
    void shouldRefuseTheRestartWhenAnAvroMapKeySchemaChanges() {
        Schema key1 = parse("{\"type\":\"record\",\"name\":\"K\",\"fields\":[{\"name\":\"row\",\"type\":\"string\"}]}");
        Schema key2 = parse("{\"type\":\"record\",\"name\":\"K\",\"fields\":[{\"name\":\"row\",\"type\":\"string\"},"
                + "{\"name\":\"n\",\"type\":\"int\",\"default\":0}]}");
        Version before = v(PROFILE_V1, INT).withCountKey(AvroStateSerde.generic(key1));
        Version same = v(PROFILE_V1, INT).withCountKey(AvroStateSerde.generic(key1));
        Version after = v(PROFILE_V1, INT).withCountKey(AvroStateSerde.generic(key2));
        try (AvroHarness h = new AvroHarness(before.operator())) {
            h.pipe("a", "x");
            h.drain();
            h.restartFromChangelog(same.operator());
            h.pipe("a", "x");
            assertThat(h.drain())
                    .as("keys keep their bytes with the same schema")
                    .containsExactly("a profile={\"name\": \"a\", \"visits\": 1} counts={{\"row\": \"x\"}=1i}");
            RtmException e = rtmCause(catchThrowable(() -> h.restartFromChangelog(after.operator())));
            assertThat(e.errorCode()).isEqualTo(KeySchemaNotCompatibleException.CODE);
            assertThat(e.getMessage()).contains(key1.toString(), key2.toString());
        }
    }

    /** Spark: "transformWithState - value schema threshold exceeded" (threshold 0, one evolution). */
    @Test
    void shouldRefuseTheRestartWhenTheSchemaEvolutionsExceedTheThreshold() {
        Properties p = new Properties();
        p.put(RtmProcessorConfig.VALUE_SCHEMA_EVOLUTION_THRESHOLD_CONFIG, "0");
        try (AvroHarness h = new AvroHarness(v(PROFILE_V1, INT).operator(), p)) {
            h.pipe("a", "x");
            h.drain();
            h.restartFromChangelog(v(PROFILE_V1, INT).operator());
            h.pipe("a", "x");
            assertThat(h.drain()).as("the same schema is no evolution").hasSize(1);
            RtmException e = rtmCause(catchThrowable(
                    () -> h.restartFromChangelog(v(PROFILE_WIDENED, INT).operator())));
            assertThat(e.errorCode()).isEqualTo(ValueSchemaEvolutionThresholdExceededException.CODE);
            assertThat(e.parameters())
                    .containsEntry("numSchemaEvolutions", "1")
                    .containsEntry("maxSchemaEvolutions", "0")
                    .containsEntry("colFamilyName", "profile");
        }
    }

    /**
     * Spark: "transformWithState - verify schema files are retained through multiple evolutions": every schema stays
     * recorded, so rows written with the first one are still read after two further evolutions.
     */
    @Test
    void shouldReadRowsOfTheFirstSchemaWhenTheSchemaEvolvedTwice() {
        try (AvroHarness h = new AvroHarness(v(PROFILE_V1, INT).operator())) {
            h.pipe("a", "x");
            h.restartFromChangelog(v(PROFILE_ADDED, INT).operator());
            h.pipe("b", "x");
            h.restartFromChangelog(v(PROFILE_REMOVED, LONG).operator());
            h.pipe("a", "x");
            h.pipe("b", "x");
            h.pipe("c", "x");
            assertThat(h.drain())
                    .containsExactly(
                            "a profile=null counts={}",
                            "b profile=null counts={}",
                            "a profile={\"visits\": 1} counts={x=1L}",
                            "b profile={\"visits\": 1} counts={x=1L}",
                            "c profile=null counts={}");
            assertThat(dev.rtmstreams.processor.internals.StateScanner.declaration(h.store())
                            .valueSchemas()
                            .get("profile"))
                    .containsExactly(PROFILE_V1.toString(), PROFILE_ADDED.toString(), PROFILE_REMOVED.toString());
        }
    }

    /** A variable added and another dropped beside the evolving ones; the dropped one is retired with its state. */
    @ParameterizedTest
    @EnumSource(Restart.class)
    void shouldKeepEvolvedStateWhenAVariableIsAddedAndAnotherRemoved(Restart restart) {
        try (AvroHarness h = new AvroHarness(v(PROFILE_V1, INT).withExtra("old").operator())) {
            h.pipe("a", "x");
            assertThat(h.drain()).containsExactly("a profile=null counts={} old=0");
            restart.apply(h, v(PROFILE_ADDED, LONG).withExtra("fresh"));
            h.pipe("a", "x");
            assertThat(h.drain())
                    .containsExactly(
                            "a profile={\"name\": \"a\", \"visits\": 1, \"tier\": \"basic\"} counts={x=1L} fresh=0");
            restart.apply(h, v(PROFILE_ADDED, LONG).withExtra("old"));
            h.pipe("a", "x");
            assertThat(h.drain())
                    .as("the retired variable comes back with its state")
                    .containsExactly(
                            "a profile={\"name\": \"a\", \"visits\": 2, \"tier\": \"basic\"} counts={x=2L} old=1");
        }
    }
}
