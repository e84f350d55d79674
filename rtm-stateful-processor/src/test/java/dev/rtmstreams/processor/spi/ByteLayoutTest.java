package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/** {@link ByteLayout} against {@link ByteBuffer}'s big-endian encoding, the reference the stores were written with. */
class ByteLayoutTest {

    @Property
    void shouldEncodeIntsAsByteBufferDoesWhenAtAnyOffset(@ForAll int v, @ForAll("offsets") int off) {
        byte[] b = new byte[off + 4 + 3];
        ByteLayout.putInt(b, off, v);
        assertThat(Arrays.copyOfRange(b, off, off + 4))
                .containsExactly(ByteBuffer.allocate(4).putInt(v).array());
        assertThat(ByteLayout.getInt(b, off))
                .isEqualTo(v)
                .isEqualTo(ByteBuffer.wrap(b, off, 4).getInt());
    }

    @Property
    void shouldEncodeLongsAsByteBufferDoesWhenAtAnyOffset(@ForAll long v, @ForAll("offsets") int off) {
        byte[] b = new byte[off + 8 + 3];
        ByteLayout.putLong(b, off, v);
        assertThat(Arrays.copyOfRange(b, off, off + 8))
                .containsExactly(ByteBuffer.allocate(8).putLong(v).array());
        assertThat(ByteLayout.getLong(b, off))
                .isEqualTo(v)
                .isEqualTo(ByteBuffer.wrap(b, off, 8).getLong());
        assertThat(ByteLayout.longValue(v))
                .containsExactly(ByteBuffer.allocate(8).putLong(v).array());
    }

    @Property
    void shouldOrderTimesAsNumbersWhenComparedAsUnsignedBytes(@ForAll long a, @ForAll long b) {
        byte[] ea = new byte[8];
        byte[] eb = new byte[8];
        ByteLayout.putTime(ea, 0, a);
        ByteLayout.putTime(eb, 0, b);
        assertThat(Integer.signum(Bytes.wrap(ea).compareTo(Bytes.wrap(eb)))).isEqualTo(Long.signum(Long.compare(a, b)));
        assertThat(ByteLayout.getTime(ea, 0)).isEqualTo(a);
        assertThat(ea)
                .containsExactly(
                        ByteBuffer.allocate(8).putLong(a ^ Long.MIN_VALUE).array());
    }

    @Property
    void shouldReadBackLengthPrefixedBytesWhenNullOrNot(
            @ForAll("maybeBytes") byte[] bytes, @ForAll("offsets") int off) {
        byte[] out = new byte[off + 4 + (bytes == null ? 0 : bytes.length)];
        int end = ByteLayout.putLengthPrefixed(out, off, bytes);
        assertThat(end).isEqualTo(out.length);
        assertThat(ByteLayout.getInt(out, off)).isEqualTo(bytes == null ? -1 : bytes.length);
        assertThat(ByteLayout.getLengthPrefixed(out, off)).isEqualTo(bytes);
    }

    @Test
    void shouldSortNegativeTimesBeforePositiveOnesWhenEncoded() {
        byte[] min = new byte[8];
        byte[] zero = new byte[8];
        ByteLayout.putTime(min, 0, Long.MIN_VALUE);
        ByteLayout.putTime(zero, 0, 0);
        assertThat(min).containsOnly(0);
        assertThat(zero[0]).isEqualTo((byte) 0x80);
    }

    @Provide
    Arbitrary<byte[]> maybeBytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(10).injectNull(0.2);
    }

    @Provide
    Arbitrary<Integer> offsets() {
        return Arbitraries.integers().between(0, 5);
    }
}
