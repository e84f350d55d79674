package dev.rtmstreams.processor;

import static dev.rtmstreams.processor.RtmAssertions.assertOperatorCode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.errors.StateFormatVersionTooNewException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * The operator's state format version and the downgrade guard: the version is the first byte of the operator's
 * metadata record (store key {@code [0x05][3]}), written at start; a restart that finds a version this release does not
 * read (state written by a newer release) refuses to start with {@code STATE_STORE_FORMAT_VERSION_TOO_NEW}, through the
 * restore path a real restart takes (the changelog restored into the store before the processor's init).
 */
class FormatVersionTest {

    private static final Bytes METADATA_KEY = Bytes.wrap(new byte[] {0x05, 3});

    /** Counts rows per key in a value state. */
    static final class Counter extends StatefulProcessor<String, String, String> {
        private ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L);
            while (rows.hasNext()) {
                rows.next();
                n++;
            }
            count.update(n);
            return List.of(key + "=" + n).iterator();
        }
    }

    private static Harness<String, String> started() {
        Harness<String, String> h =
                Harness.strings(TransformWithState.<String, String, String>builder(Counter::new, TimeMode.NONE)
                        .name("counter")
                        .build());
        h.pipe("a", "x");
        assertThat(h.drainValues()).containsExactly("a=1");
        return h;
    }

    private static byte[] lastMetadata(Harness<String, String> h) {
        List<KeyValue<Bytes, byte[]>> changelog = h.changelogSoFar();
        byte[] last = null;
        for (KeyValue<Bytes, byte[]> kv : changelog) {
            if (kv.key.equals(METADATA_KEY)) {
                last = kv.value;
            }
        }
        assertThat(last).as("the operator's metadata record in its changelog").isNotNull();
        return last;
    }

    @Test
    void shouldWriteTheCurrentFormatVersionInTheMetadataRecordWhenTheOperatorStarts() {
        try (Harness<String, String> h = started()) {
            assertThat(lastMetadata(h)[0]).isEqualTo((byte) 2);
        }
    }

    @Test
    void shouldRestoreStateWhenTheMetadataRecordIsOfFormatVersionOne() {
        // version 1 (no key serde, no retired variables): [1][timeMode][outputMode][variables], UTF strings
        byte[] v1 = new byte[] {
            1, 0, 4, 'N', 'O', 'N', 'E', 0, 6, 'U', 'P', 'D', 'A', 'T', 'E', 0, 0, 0, 1, 0, 5, 'c', 'o', 'u', 'n', 't',
            0, 10, 'V', 'a', 'l', 'u', 'e', 'S', 't', 'a', 't', 'e', 0, 0, 1, '?'
        };
        try (Harness<String, String> h = started()) {
            h.appendToChangelog(METADATA_KEY, v1);
            h.restartFromChangelog();
            h.pipe("a", "y");
            assertThat(h.drainValues()).containsExactly("a=2");
            assertThat(lastMetadata(h)[0])
                    .as("rewritten in the lowest version that holds it (no evolvable variable: 2)")
                    .isEqualTo((byte) 2);
        }
    }

    @Test
    void shouldRefuseToStartWhenTheStoreHoldsANewerFormatVersion() {
        try (Harness<String, String> h = started()) {
            byte[] newer = lastMetadata(h);
            newer = Arrays.copyOf(newer, newer.length);
            newer[0] = 4;
            h.appendToChangelog(METADATA_KEY, newer);
            assertOperatorCode(
                    h::restartFromChangelog,
                    "counter",
                    StateFormatVersionTooNewException.CODE,
                    "storeName",
                    "counter-state",
                    "foundVersion",
                    "4",
                    "maxSupportedVersion",
                    "3",
                    "supportedVersions",
                    "1, 2, 3");
        }
    }
}
