package dev.rtmstreams.processor.avro;

import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.INT;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.LONG;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.PROFILE_ADDED;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.PROFILE_V1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.avro.Profiles.Version;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole change at once, in every time mode and execution mode: a processor whose value state record gains a field
 * with a default, whose map state value widens from int to long, whose list state element record gains a field, which
 * adds one state variable and drops another, restarts with all its state (restored from the changelog on a fresh
 * instance), then restores once more on another fresh instance and still reads the rows no run rewrote; the state
 * reader reads old and new rows in the current schema, or as written. With TTL in processing time (expiries kept
 * across the change). Spark: {@code TransformWithStateAvroSuite} "transformWithState - upcasting should succeed" and
 * "adding field should succeed", together, in every mode.
 */
class AvroStateEvolutionScenarioTest {

    static final Schema ROW_V1 = AvroSchemaEvolutionTest.parse(
            "{\"type\":\"record\",\"name\":\"Row\",\"fields\":[{\"name\":\"row\",\"type\":\"string\"}]}");
    static final Schema ROW_V2 = AvroSchemaEvolutionTest.parse(
            "{\"type\":\"record\",\"name\":\"Row\",\"fields\":[{\"name\":\"row\",\"type\":\"string\"},"
                    + "{\"name\":\"source\",\"type\":\"string\",\"default\":\"web\"}]}");
    static final Duration TTL = Duration.ofHours(1);

    static Stream<Arguments> modes() {
        return Stream.of(
                Arguments.of(TimeMode.NONE, ExecutionMode.REAL_TIME, false),
                Arguments.of(TimeMode.NONE, ExecutionMode.MICRO_BATCH, false),
                Arguments.of(TimeMode.PROCESSING_TIME, ExecutionMode.REAL_TIME, true),
                Arguments.of(TimeMode.PROCESSING_TIME, ExecutionMode.MICRO_BATCH, true),
                Arguments.of(TimeMode.EVENT_TIME, ExecutionMode.REAL_TIME, false),
                Arguments.of(TimeMode.EVENT_TIME, ExecutionMode.MICRO_BATCH, false));
    }

    private static Version v1(boolean ttl) {
        Version v = Version.of(AvroStateSerde.generic(PROFILE_V1), AvroStateSerde.generic(INT))
                .withRows(AvroStateSerde.generic(ROW_V1))
                .withExtra("legacy");
        return ttl ? v.withTtl(TTL) : v;
    }

    private static Version v2(boolean ttl) {
        Version v = Version.of(AvroStateSerde.generic(PROFILE_ADDED), AvroStateSerde.generic(LONG))
                .withRows(AvroStateSerde.generic(ROW_V2))
                .withExtra("added");
        return ttl ? v.withTtl(TTL) : v;
    }

    /** One row, then the wall clock moves past a micro-batch (100 ms), so every row is its own batch. */
    private static void step(AvroHarness h, String key, String row) {
        h.pipe(key, row);
        h.advance(Duration.ofMillis(250));
    }

    @ParameterizedTest(name = "{0} {1} ttl={2}")
    @MethodSource("modes")
    void shouldKeepAllStateWhenTheSchemasEvolveAndVariablesAreAddedAndRemoved(
            TimeMode timeMode, ExecutionMode mode, boolean ttl) {
        try (AvroHarness h = new AvroHarness(v1(ttl).operator(timeMode, mode))) {
            step(h, "a", "x");
            step(h, "b", "x");
            step(h, "b", "y");
            assertThat(h.drain())
                    .containsExactly(
                            "a profile=null counts={} rows=[] legacy=0",
                            "b profile=null counts={} rows=[] legacy=0",
                            "b profile={\"name\": \"b\", \"visits\": 1} counts={x=1i} rows=[{\"row\": \"x\"}] legacy=1");
            long firstWrites = h.now();

            // restart with the evolved declaration, restored from the changelog on a fresh state directory
            h.restartFromChangelog(v2(ttl).operator(timeMode, mode));
            step(h, "a", "z");
            assertThat(h.drain())
                    .containsExactly("a profile={\"name\": \"a\", \"visits\": 1, \"tier\": \"basic\"} counts={x=1L}"
                            + " rows=[{\"row\": \"x\", \"source\": \"web\"}] added=0");

            // the state reader: b's rows were written before the change only, a's both before and after it
            StateReader reader = StateReader.of(h.store())
                    .withSerde("profile", AvroStateSerde.generic(PROFILE_ADDED))
                    .withSerde("counts", AvroStateSerde.generic(LONG))
                    .withSerde("rows", AvroStateSerde.generic(ROW_V2));
            StateReader.KeyState b = reader.read(bytes("b")).orElseThrow();
            assertThat(b.variables().get("profile").get(0).value().toString())
                    .isEqualTo("{\"name\": \"b\", \"visits\": 2, \"tier\": \"basic\"}");
            assertThat(b.variables().get("counts"))
                    .extracting(StateReader.StoredValue::mapKey, StateReader.StoredValue::value)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("x", 1L), org.assertj.core.groups.Tuple.tuple("y", 1L));
            assertThat(b.variables().get("rows"))
                    .extracting(sv -> sv.value().toString())
                    .containsExactly("{\"row\": \"x\", \"source\": \"web\"}", "{\"row\": \"y\", \"source\": \"web\"}");
            if (ttl) {
                assertThat(b.variables().get("profile").get(0).expiresAtMs())
                        .as("the expiry written before the change (a micro-batch runs when its interval ends)")
                        .isEqualTo(
                                (mode == ExecutionMode.MICRO_BATCH ? firstWrites : firstWrites - 250) + TTL.toMillis());
            }
            StateReader.KeyState bRaw = reader.asWritten().read(bytes("b")).orElseThrow();
            assertThat(bRaw.variables().get("profile").get(0).value().toString())
                    .isEqualTo("{\"name\": \"b\", \"visits\": 2}");
            assertThat(bRaw.variables().get("counts"))
                    .extracting(StateReader.StoredValue::value)
                    .containsExactly(1, 1);
            StateReader.KeyState aRaw = reader.asWritten().read(bytes("a")).orElseThrow();
            assertThat(aRaw.variables().get("profile").get(0).value().toString())
                    .as("rewritten in the new schema by its update")
                    .isEqualTo("{\"name\": \"a\", \"visits\": 2, \"tier\": \"basic\"}");
            assertThat(aRaw.variables().get("counts"))
                    .extracting(StateReader.StoredValue::mapKey, StateReader.StoredValue::value)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("x", 1), org.assertj.core.groups.Tuple.tuple("z", 1L));
            assertThat(StateReader.of(h.store())
                            .read(bytes("b"))
                            .orElseThrow()
                            .variables()
                            .get("profile")
                            .get(0)
                            .value())
                    .as("without a serde: the payload after the schema id")
                    .isInstanceOf(StateReader.Base64Value.class);

            // another fresh instance: b's rows are still in the first schema and read in the new one
            h.restartFromChangelog(v2(ttl).operator(timeMode, mode));
            step(h, "b", "x");
            assertThat(h.drain())
                    .containsExactly(
                            "b profile={\"name\": \"b\", \"visits\": 2, \"tier\": \"basic\"} counts={x=1L, y=1L}"
                                    + " rows=[{\"row\": \"x\", \"source\": \"web\"}, {\"row\": \"y\", \"source\": \"web\"}]"
                                    + " added=0");

            // the dropped variable is retired with its state: declaring it again finds it
            h.restartFromChangelog(v2(ttl).withExtra("legacy").operator(timeMode, mode));
            step(h, "b", "y");
            assertThat(h.drain())
                    .containsExactly(
                            "b profile={\"name\": \"b\", \"visits\": 3, \"tier\": \"basic\"} counts={x=2L, y=1L}"
                                    + " rows=[{\"row\": \"x\", \"source\": \"web\"}, {\"row\": \"y\", \"source\": \"web\"},"
                                    + " {\"row\": \"x\", \"source\": \"web\"}] legacy=2");
        }
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
