package dev.rtmstreams.processor.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;

class LayoutTest {

    @Property
    void shouldListATimerUnderItsKeyWhenDerivedFromItsTimeOrderedEntry(
            @ForAll long time, @ForAll @Size(max = 12) byte[] groupingKey) {
        assertThat(Layout.timerByKeyOfTimerKey(Layout.timerKey(time, groupingKey)))
                .containsExactly(Layout.timerByKey(groupingKey, time));
    }

    @Property
    void shouldBoundEveryKeyOfASectionWhenItsStartAndEndAreUsed(
            @ForAll long time, @ForAll @Size(max = 12) byte[] groupingKey) {
        Bytes key = Bytes.wrap(Layout.timerKey(time, groupingKey));
        assertThat(key.compareTo(Bytes.wrap(Layout.sectionStart(Layout.TIMER)))).isGreaterThan(0);
        assertThat(key.compareTo(Bytes.wrap(Layout.sectionEnd(Layout.TIMER)))).isLessThan(0);
    }

    /** Micro-batch buffer entries encode byte for byte as before the headers part moved to {@code HeadersLayout}. */
    @Property
    void shouldEncodeBufferEntriesAsTheFormerEncoderWhenAnyHeadersAreGiven(
            @ForAll @Size(max = 6) byte[] key,
            @ForAll long timestamp,
            @ForAll @Size(max = 6) byte[] value,
            @ForAll boolean nullValue,
            @ForAll @Size(max = 3) List<@StringLength(max = 4) String> headerNames) {
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < headerNames.size(); i++) {
            headers.add(headerNames.get(i), i % 2 == 0 ? null : new byte[] {(byte) i});
        }
        byte[] v = nullValue ? null : value;

        byte[] encoded = Layout.encodeBufferEntry(key, timestamp, v, headers);

        assertThat(encoded).containsExactly(formerEncodeBufferEntry(key, timestamp, v, headers));
        Layout.BufferEntry decoded = Layout.decodeBufferEntry(encoded);
        assertThat(decoded.key()).containsExactly(key);
        assertThat(decoded.timestamp()).isEqualTo(timestamp);
        assertThat(decoded.value()).isEqualTo(v);
        assertThat(decoded.headers().toArray()).containsExactly(headers.toArray());
    }

    /** {@code Layout.encodeBufferEntry} before the change, verbatim (its byte helpers inlined as ByteBuffer puts). */
    private static byte[] formerEncodeBufferEntry(byte[] key, long timestamp, byte[] value, Headers headers) {
        Header[] hs = headers == null ? new Header[0] : headers.toArray();
        byte[][] names = new byte[hs.length][];
        int size = 4 + key.length + 8 + 4 + (value == null ? 0 : value.length);
        if (hs.length > 0) {
            size += 4;
            for (int i = 0; i < hs.length; i++) {
                names[i] = hs[i].key().getBytes(StandardCharsets.UTF_8);
                size += 8 + names[i].length + (hs[i].value() == null ? 0 : hs[i].value().length);
            }
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(key.length).put(key).putLong(timestamp);
        putBytes(out, value);
        if (hs.length > 0) {
            out.putInt(hs.length);
            for (int i = 0; i < hs.length; i++) {
                putBytes(out, names[i]);
                putBytes(out, hs[i].value());
            }
        }
        return out.array();
    }

    private static void putBytes(ByteBuffer out, byte[] bytes) {
        if (bytes == null) {
            out.putInt(-1);
        } else {
            out.putInt(bytes.length).put(bytes);
        }
    }
}
