package dev.rtmstreams.processor;

import static dev.rtmstreams.processor.RtmAssertions.assertOperatorCode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.errors.InvalidValueSchemaEvolutionException;
import dev.rtmstreams.processor.errors.StateFormatVersionNotWritableException;
import dev.rtmstreams.processor.errors.ValueSchemaEvolutionThresholdExceededException;
import dev.rtmstreams.processor.errors.ValueSchemaNotCompatibleException;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * The evolvable state encoding in the core, with a test serde ({@link VersionedTextSerde}; the Avro one is tested in
 * rtm-state-avro): the format version it writes, values of an earlier schema read through it after a restart, the
 * refused restarts.
 */
class EvolvableStateTest {

    private static final Bytes METADATA_KEY = Bytes.wrap(new byte[] {0x05, 3});

    /** Keeps the last row per key in a value state of {@code serde}. */
    static final class Last extends StatefulProcessor<String, String, String> {
        private final Serde<String> serde;
        private ValueState<String> last;

        Last(Serde<String> serde) {
            this.serde = serde;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            last = getHandle().getValueState("last", serde);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            String before = last.get();
            while (rows.hasNext()) {
                last.update(rows.next());
            }
            return List.of(key + " was " + before).iterator();
        }
    }

    static TransformWithState<String, String, String> last(Serde<String> serde) {
        return TransformWithState.<String, String, String>builder(() -> new Last(serde), TimeMode.NONE)
                .name("last")
                .build();
    }

    private static byte metadataVersion(Harness<String, String> h) {
        byte v = 0;
        for (KeyValue<Bytes, byte[]> kv : h.changelogSoFar()) {
            if (kv.key.equals(METADATA_KEY)) {
                v = kv.value[0];
            }
        }
        return v;
    }

    @Test
    void shouldWriteFormatVersionThreeAndReadOldValuesThroughTheirSchemaWhenTheSchemaEvolves() {
        try (Harness<String, String> h = Harness.strings(last(new VersionedTextSerde(1)))) {
            h.pipe("a", "x");
            h.pipe("b", "y");
            assertThat(metadataVersion(h)).isEqualTo((byte) 3);
            h.restartFromChangelog(last(new VersionedTextSerde(2)));
            h.pipe("a", "z");
            h.pipe("a", "w");
            assertThat(h.drainValues()).containsExactly("a was null", "b was null", "a was v1:x", "a was z");
            assertThat(StateReader.of(h.store())
                            .withSerde("last", new VersionedTextSerde(2))
                            .read("b".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                            .orElseThrow()
                            .variables()
                            .get("last"))
                    .containsExactly(new StateReader.StoredValue(null, "v1:y", null));
        }
    }

    @Test
    void shouldRefuseTheRestartWhenTheNewSchemaCannotReadAStoredOne() {
        try (Harness<String, String> h = Harness.strings(last(new VersionedTextSerde(2)))) {
            h.pipe("a", "x");
            assertOperatorCode(
                    () -> h.restartFromChangelog(last(new VersionedTextSerde(1))),
                    "last",
                    InvalidValueSchemaEvolutionException.CODE,
                    "oldValueSchema",
                    "v2",
                    "newValueSchema",
                    "v1");
        }
    }

    @Test
    void shouldRefuseTheRestartWhenAPlainVariableSwitchesToTheEvolvableEncoding() {
        try (Harness<String, String> h = Harness.strings(last(Serdes.String()))) {
            h.pipe("a", "x");
            assertOperatorCode(
                    () -> h.restartFromChangelog(last(new VersionedTextSerde(1))),
                    "last",
                    ValueSchemaNotCompatibleException.CODE,
                    "storedValueSchema",
                    "last: value: org.apache.kafka.common.serialization.StringSerializer",
                    "newValueSchema",
                    "last: value: evolvable:text");
        }
    }

    @Test
    void shouldRefuseTheRestartWhenTheEvolutionsExceedTheConfiguredThreshold() {
        Properties p = new Properties();
        p.put(RtmProcessorConfig.VALUE_SCHEMA_EVOLUTION_THRESHOLD_CONFIG, 1);
        try (Harness<String, String> h = Harness.strings(last(new VersionedTextSerde(1)), p)) {
            h.pipe("a", "x");
            h.restartFromChangelog(last(new VersionedTextSerde(2)));
            h.pipe("a", "y");
            h.restartFromChangelog(last(new VersionedTextSerde(2)));
            h.pipe("a", "z");
            assertThat(h.drainValues())
                    .as("a restart with a recorded schema is no new evolution")
                    .containsExactly("a was null", "a was v1:x", "a was y");
            assertOperatorCode(
                    () -> h.restartFromChangelog(last(new VersionedTextSerde(3))),
                    "last",
                    ValueSchemaEvolutionThresholdExceededException.CODE,
                    "numSchemaEvolutions",
                    "2",
                    "maxSchemaEvolutions",
                    "1",
                    "colFamilyName",
                    "last");
        }
    }

    /** The first phase of a rolling upgrade from a release that reads only format versions 1 and 2. */
    @Test
    void shouldRefuseToWriteFormatVersionThreeWhenTheWriteFormatVersionIsTwo() {
        Properties p = new Properties();
        p.put(RtmProcessorConfig.STATE_WRITE_FORMAT_VERSION_CONFIG, "2");
        try (Harness<String, String> h = Harness.strings(last(Serdes.String()), p)) {
            h.pipe("a", "x");
            assertThat(h.drainValues())
                    .as("plain state is written in version 2")
                    .containsExactly("a was null");
            assertThat(metadataVersion(h)).isEqualTo((byte) 2);
        }
        assertOperatorCode(
                () -> Harness.strings(last(new VersionedTextSerde(1)), p).close(),
                "last",
                StateFormatVersionNotWritableException.CODE,
                "storeName",
                "last-state",
                "requiredVersion",
                "3",
                "writeVersion",
                "2",
                "variables",
                "last");
    }

    @Test
    void shouldRejectTheWriteFormatVersionWhenItIsNotOneThisReleaseWrites() {
        Properties p = new Properties();
        p.put(RtmProcessorConfig.STATE_WRITE_FORMAT_VERSION_CONFIG, "4");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> Harness.strings(last(Serdes.String()), p).close())
                .hasStackTraceContaining("rtm.state.write.format.version must be at most 3")
                .hasStackTraceContaining(": 4");
    }

    /** Declares no state: every variable of an earlier run is retired. */
    static final class Stateless extends StatefulProcessor<String, String, String> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            return List.of(key + " stateless").iterator();
        }
    }

    @Test
    void shouldCheckARetiredVariableAgainstItsSchemasWhenDeclaredAgain() {
        try (Harness<String, String> h = Harness.strings(last(new VersionedTextSerde(2)))) {
            h.pipe("a", "x");
            h.restartFromChangelog(TransformWithState.<String, String, String>builder(Stateless::new, TimeMode.NONE)
                    .name("last")
                    .build());
            h.pipe("a", "y");
            assertThat(metadataVersion(h))
                    .as("a retired evolvable variable keeps version 3")
                    .isEqualTo((byte) 3);
            assertOperatorCode(
                    () -> h.restartFromChangelog(last(new VersionedTextSerde(1))),
                    "last",
                    InvalidValueSchemaEvolutionException.CODE,
                    "oldValueSchema",
                    "v2",
                    "newValueSchema",
                    "v1");
            h.restartFromChangelog(last(new VersionedTextSerde(3)));
            h.pipe("a", "z");
            assertThat(h.drainValues()).containsExactly("a was null", "a stateless", "a was v2:x");
        }
    }
}
