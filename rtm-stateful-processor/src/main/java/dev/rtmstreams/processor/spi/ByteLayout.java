package dev.rtmstreams.processor.spi;

import java.util.Arrays;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Big-endian encoding of {@code int}s, {@code long}s and times into byte arrays, the primitives of every rtm store
 * layout (the operator store's {@code Layout}, the join's {@code Codec}). One implementation, so that the byte order of
 * every store is the same and is written down once.
 *
 * <p>Times use the order-preserving encoding: big-endian with the sign bit flipped, so that the unsigned
 * lexicographic order of RocksDB keys and of {@link org.apache.kafka.common.utils.Bytes} is the numeric order of the
 * times (negative times sort before positive ones).
 *
 * <p>All methods are allocation-free except {@link #longValue} and {@link #getLengthPrefixed}; none checks bounds
 * beyond the array's own
 * {@link ArrayIndexOutOfBoundsException}.
 */
@InterfaceStability.Unstable
public final class ByteLayout {

    private ByteLayout() {}

    /**
     * Writes {@code v} big-endian into {@code b[off..off+4)}.
     *
     * @param b the target; not null
     * @param off where the 4 bytes start
     * @param v the value
     */
    public static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    /**
     * @param b the source; not null
     * @param off where the 4 bytes start
     * @return the big-endian {@code int} at {@code b[off..off+4)}
     */
    public static int getInt(byte[] b, int off) {
        return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8) | (b[off + 3] & 0xFF);
    }

    /**
     * Writes {@code v} big-endian into {@code b[off..off+8)}.
     *
     * @param b the target; not null
     * @param off where the 8 bytes start
     * @param v the value
     */
    public static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    /**
     * @param b the source; not null
     * @param off where the 8 bytes start
     * @return the big-endian {@code long} at {@code b[off..off+8)}
     */
    public static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    /**
     * Writes {@code time} order-preserving (big-endian, sign bit flipped) into {@code b[off..off+8)}.
     *
     * @param b the target; not null
     * @param off where the 8 bytes start
     * @param time any time, negative ones included
     */
    public static void putTime(byte[] b, int off, long time) {
        putLong(b, off, time ^ Long.MIN_VALUE);
    }

    /**
     * @param b the source; not null
     * @param off where the 8 bytes start
     * @return the time written by {@link #putTime} at {@code b[off..off+8)}
     */
    public static long getTime(byte[] b, int off) {
        return getLong(b, off) ^ Long.MIN_VALUE;
    }

    /**
     * @param v the value
     * @return a new 8-byte array holding {@code v} big-endian (as {@code ByteBuffer.allocate(8).putLong(v).array()})
     */
    public static byte[] longValue(long v) {
        byte[] out = new byte[8];
        putLong(out, 0, v);
        return out;
    }

    /**
     * Writes {@code [len i32, -1 = null][bytes]} at {@code off}.
     *
     * @param out the target; not null
     * @param off where the length starts
     * @param bytes the bytes, or null
     * @return the offset after them
     */
    public static int putLengthPrefixed(byte[] out, int off, byte[] bytes) {
        if (bytes == null) {
            putInt(out, off, -1);
            return off + 4;
        }
        putInt(out, off, bytes.length);
        System.arraycopy(bytes, 0, out, off + 4, bytes.length);
        return off + 4 + bytes.length;
    }

    /**
     * @param in the source; not null
     * @param off where the length written by {@link #putLengthPrefixed} starts
     * @return a copy of the bytes, or null when a null was written; they end at {@code off + 4 + length}
     */
    public static byte[] getLengthPrefixed(byte[] in, int off) {
        int len = getInt(in, off);
        return len < 0 ? null : Arrays.copyOfRange(in, off + 4, off + 4 + len);
    }
}
