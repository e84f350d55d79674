package dev.rtmstreams.join.internals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;

/**
 * Byte layouts of the join's stores. Times are stored big-endian with the sign bit flipped, so the unsigned
 * lexicographic order of RocksDB and of {@link Bytes} equals numeric order.
 * <ul>
 *   <li>buffer key: {@code [keyLen:int][key bytes][eventTime:8][seq:8]} - a range scan over one key and a time
 *       interval finds candidate matches (length prefix: no key is a prefix-collision of another);</li>
 *   <li>buffer value: {@code [flags:1][recordTimestamp:8][value bytes]}, flag bit 0 = matched (outer joins);</li>
 *   <li>index key: {@code [eventTime:8][keyLen:int][key bytes][seq:8]} - time-ordered, for incremental eviction;</li>
 *   <li>meta value: {@code [leftMax:8][rightMax:8][globalWatermark:8][seqHigh:8]}.</li>
 * </ul>
 */
final class Codec {

    static final byte MATCHED = 1;
    static final long NONE = Long.MIN_VALUE;

    private Codec() {
    }

    static long flip(long t) {
        return t ^ Long.MIN_VALUE;
    }

    static Bytes bufferKey(byte[] key, long eventTime, long seq) {
        ByteBuffer b = ByteBuffer.allocate(4 + key.length + 16);
        b.putInt(key.length).put(key).putLong(flip(eventTime)).putLong(seq);
        return Bytes.wrap(b.array());
    }

    static long bufferKeyTime(byte[] bufferKey) {
        return flip(ByteBuffer.wrap(bufferKey, bufferKey.length - 16, 8).getLong());
    }

    static byte[] bufferKeyUserKey(byte[] bufferKey) {
        int len = ByteBuffer.wrap(bufferKey, 0, 4).getInt();
        return Arrays.copyOfRange(bufferKey, 4, 4 + len);
    }

    static Bytes indexKeyFromBufferKey(byte[] bufferKey, long eventTime) {
        ByteBuffer b = ByteBuffer.allocate(8 + bufferKey.length - 16 + 8);
        b.putLong(flip(eventTime)).put(bufferKey, 0, bufferKey.length - 16).put(bufferKey, bufferKey.length - 8, 8);
        return Bytes.wrap(b.array());
    }

    static long indexKeyTime(byte[] indexKey) {
        return flip(ByteBuffer.wrap(indexKey, 0, 8).getLong());
    }

    static Bytes bufferKeyFromIndexKey(byte[] indexKey) {
        ByteBuffer b = ByteBuffer.allocate(indexKey.length);
        b.put(indexKey, 8, indexKey.length - 16).put(indexKey, 0, 8).put(indexKey, indexKey.length - 8, 8);
        return Bytes.wrap(b.array());
    }

    /** @return a key sorting after every index key with event time {@code <= t} and before any later one */
    static Bytes indexUpperBound(long t) {
        if (t == Long.MAX_VALUE) {
            byte[] all = new byte[9];
            Arrays.fill(all, (byte) 0xFF);
            return Bytes.wrap(all);
        }
        return Bytes.wrap(ByteBuffer.allocate(8).putLong(flip(t + 1)).array());
    }

    /** @return a key sorting before every index key with event time {@code >= t} and after any earlier one */
    static Bytes indexLowerBound(long t) {
        return Bytes.wrap(ByteBuffer.allocate(8).putLong(flip(t)).array());
    }

    static Bytes indexLowerBound() {
        return Bytes.wrap(new byte[8]);
    }

    static byte[] bufferValue(byte flags, long recordTs, byte[] value) {
        int n = value == null ? 0 : value.length;
        ByteBuffer b = ByteBuffer.allocate(9 + n);
        b.put(flags).putLong(recordTs);
        if (value != null) {
            b.put(value);
        }
        return b.array();
    }

    static boolean matched(byte[] bufferValue) {
        return (bufferValue[0] & MATCHED) != 0;
    }

    static long recordTs(byte[] bufferValue) {
        return ByteBuffer.wrap(bufferValue, 1, 8).getLong();
    }

    static byte[] payload(byte[] bufferValue) {
        return Arrays.copyOfRange(bufferValue, 9, bufferValue.length);
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }
}
