package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * {@link HeadersLayout} against the {@link ByteBuffer} encoder the stores were written with (the join's former
 * {@code Codec.encodeHeaders}, verbatim below): stored entries must decode as before.
 */
class HeadersLayoutTest {

    @Property
    void shouldEncodeAsTheFormerEncoderAndDecodeBackWhenHeadersAreAny(@ForAll("headers") List<Header> list) {
        Headers headers = new RecordHeaders(list.toArray(new Header[0]));

        byte[] encoded = HeadersLayout.encode(headers);

        assertThat(encoded).containsExactly(reference(headers));
        assertThat(HeadersLayout.read(encoded, 0).toArray()).containsExactly(headers.toArray());
    }

    @Property
    void shouldWriteAtAnOffsetWhatEncodeReturnsWhenPlacedInALargerEntry(@ForAll("headers") List<Header> list) {
        Header[] hs = list.toArray(new Header[0]);
        byte[][] names = HeadersLayout.names(hs);
        byte[] out = new byte[3 + HeadersLayout.size(hs, names)];

        int end = HeadersLayout.write(out, 3, hs, names);

        assertThat(end).isEqualTo(out.length);
        assertThat(java.util.Arrays.copyOfRange(out, 3, out.length))
                .containsExactly(HeadersLayout.encode(new RecordHeaders(hs)));
        assertThat(HeadersLayout.read(out, 3).toArray()).containsExactly(hs);
    }

    @Test
    void shouldEncodeNoHeadersAsACountOfZeroWhenHeadersAreNull() {
        assertThat(HeadersLayout.encode(null)).containsExactly(0, 0, 0, 0);
        assertThat(HeadersLayout.read(new byte[] {0, 0, 0, 0}, 0).toArray()).isEmpty();
    }

    @Provide
    Arbitrary<List<Header>> headers() {
        Arbitrary<String> names = Arbitraries.strings().ofMaxLength(6);
        Arbitrary<byte[]> values =
                Arbitraries.bytes().array(byte[].class).ofMaxSize(6).injectNull(0.3);
        return Combinators.combine(names, values)
                .as((n, v) -> (Header) new RecordHeader(n, v))
                .list()
                .ofMaxSize(4);
    }

    /** The join's encoder before {@link HeadersLayout}, verbatim. */
    private static byte[] reference(Headers headers) {
        if (headers == null) {
            return new byte[] {0, 0, 0, 0};
        }
        Header[] all = headers.toArray();
        int size = 4;
        byte[][] names = new byte[all.length][];
        for (int i = 0; i < all.length; i++) {
            names[i] = all[i].key().getBytes(StandardCharsets.UTF_8);
            size += 8 + names[i].length + (all[i].value() == null ? 0 : all[i].value().length);
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(all.length);
        for (int i = 0; i < all.length; i++) {
            b.putInt(names[i].length).put(names[i]);
            byte[] v = all[i].value();
            if (v == null) {
                b.putInt(-1);
            } else {
                b.putInt(v.length).put(v);
            }
        }
        return b.array();
    }
}
