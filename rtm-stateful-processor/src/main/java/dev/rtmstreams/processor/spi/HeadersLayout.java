package dev.rtmstreams.processor.spi;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The byte layout of record headers kept in a store with a buffered record (the operator's micro-batch buffer, the
 * join's micro-batch pending store), big-endian as {@link ByteLayout}:
 *
 * <pre>
 * [count i32] then per header [nameLen i32][name UTF-8][valueLen i32, -1 = null][value]
 * </pre>
 *
 * <p>Encoding is split into {@link #names}, {@link #size} and {@link #write} so that a caller can place the headers
 * inside a larger entry with one allocation.
 */
@InterfaceStability.Unstable
public final class HeadersLayout {

    private HeadersLayout() {}

    /**
     * @param headers the headers, or null for none
     * @return {@code headers} encoded alone ({@code [0, 0, 0, 0]} for none)
     */
    public static byte[] encode(Headers headers) {
        if (headers == null) {
            return new byte[4]; // a count of 0
        }
        Header[] hs = headers.toArray();
        byte[][] names = names(hs);
        byte[] out = new byte[size(hs, names)];
        write(out, 0, hs, names);
        return out;
    }

    /**
     * @param hs the headers; not null
     * @return each header's name in UTF-8, for {@link #size} and {@link #write}
     */
    public static byte[][] names(Header[] hs) {
        byte[][] names = new byte[hs.length][];
        for (int i = 0; i < hs.length; i++) {
            names[i] = hs[i].key().getBytes(StandardCharsets.UTF_8);
        }
        return names;
    }

    /**
     * @param hs the headers; not null
     * @param names their names, from {@link #names}
     * @return how many bytes {@link #write} writes
     */
    public static int size(Header[] hs, byte[][] names) {
        int size = 4;
        for (int i = 0; i < hs.length; i++) {
            size += 8 + names[i].length + (hs[i].value() == null ? 0 : hs[i].value().length);
        }
        return size;
    }

    /**
     * Writes the headers at {@code off}.
     *
     * @param out the target, with {@link #size} bytes free at {@code off}; not null
     * @param off where the headers start
     * @param hs the headers; not null
     * @param names their names, from {@link #names}
     * @return the offset after the headers
     */
    public static int write(byte[] out, int off, Header[] hs, byte[][] names) {
        ByteLayout.putInt(out, off, hs.length);
        int p = off + 4;
        for (int i = 0; i < hs.length; i++) {
            p = ByteLayout.putLengthPrefixed(out, p, names[i]);
            p = ByteLayout.putLengthPrefixed(out, p, hs[i].value());
        }
        return p;
    }

    /**
     * @param in the source; not null
     * @param off where the headers written by {@link #write} start
     * @return the headers, in their order (empty for a count of 0)
     */
    public static Headers read(byte[] in, int off) {
        RecordHeaders headers = new RecordHeaders();
        int n = ByteLayout.getInt(in, off);
        int p = off + 4;
        for (int i = 0; i < n; i++) {
            int nl = ByteLayout.getInt(in, p);
            String name = new String(in, p + 4, nl, StandardCharsets.UTF_8);
            p += 4 + nl;
            byte[] hv = ByteLayout.getLengthPrefixed(in, p);
            p += 4 + (hv == null ? 0 : hv.length);
            headers.add(name, hv);
        }
        return headers;
    }
}
