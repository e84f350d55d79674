package dev.rtmstreams.processor.internals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Byte layout of the single changelogged {@code KeyValueStore<Bytes, byte[]>} of one operator.
 * Every key starts with a one-byte section tag; times are big-endian with the sign bit flipped so that the
 * unsigned lexicographic order of {@code Bytes} is the numeric order.
 *
 * <pre>
 * 0x01 STATE     [nameLen u16][name][keyLen i32][groupingKey]([mapUserKey])  -> value (see ValueCodec)
 * 0x02 TTL index [expiry i64][primary state key]                              -> empty
 * 0x03 TIMER     [time i64][groupingKey]                                      -> empty
 * 0x04 TIMER/KEY [keyLen i32][groupingKey][time i64]                          -> empty
 * 0x05 META      [id byte]                                                    -> i64 (metadata: see OperatorMetadata)
 * 0x06 BUFFER    [seq i64]                                    -> [keyLen][key][timestamp][valueLen][value]([headers])
 * 0x07 INITIAL   [groupingKey]                                                -> empty (key had initial state)
 * </pre>
 */
final class Layout {

    static final byte STATE = 0x01;
    static final byte TTL = 0x02;
    static final byte TIMER = 0x03;
    static final byte TIMER_BY_KEY = 0x04;
    static final byte META = 0x05;
    static final byte BUFFER = 0x06;
    static final byte INITIAL_STATE_SEEN = 0x07;

    static final byte META_WATERMARK = 1;
    static final byte META_BATCH_ID = 2;
    static final byte META_OPERATOR = 3;

    static final byte[] EMPTY = new byte[0];

    private Layout() {}

    /** @return {@code [STATE][nameLen][name]} */
    static byte[] statePrefix(String stateName) {
        byte[] n = stateName.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[3 + n.length];
        out[0] = STATE;
        out[1] = (byte) (n.length >>> 8);
        out[2] = (byte) n.length;
        System.arraycopy(n, 0, out, 3, n.length);
        return out;
    }

    /** @return {@code [keyLen i32][key]} */
    static byte[] keySuffix(byte[] key) {
        byte[] out = new byte[4 + key.length];
        putInt(out, 0, key.length);
        System.arraycopy(key, 0, out, 4, key.length);
        return out;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static byte[] concat(byte[] a, byte[] b, byte[] c) {
        byte[] out = new byte[a.length + b.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        System.arraycopy(c, 0, out, a.length + b.length, c.length);
        return out;
    }

    /** @return the state name encoded in a STATE key */
    static String stateNameOf(byte[] stateKey, int offset) {
        int len = ((stateKey[offset + 1] & 0xFF) << 8) | (stateKey[offset + 2] & 0xFF);
        return new String(stateKey, offset + 3, len, StandardCharsets.UTF_8);
    }

    /** @return [TTL][expiry][primaryKey] */
    static byte[] ttlKey(long expiry, byte[] primaryKey) {
        return timeKey(TTL, expiry, primaryKey);
    }

    /** @return the time of a key of a time-ordered section ({@code [tag][time][suffix]}) */
    static long timeOf(byte[] timeKey) {
        return getTime(timeKey, 1);
    }

    /** @return the suffix of a key of a time-ordered section ({@code [tag][time][suffix]}) */
    static byte[] suffixOfTimeKey(byte[] timeKey) {
        return Arrays.copyOfRange(timeKey, 9, timeKey.length);
    }

    /** @return [TIMER][time][groupingKey] */
    static byte[] timerKey(long time, byte[] groupingKey) {
        return timeKey(TIMER, time, groupingKey);
    }

    /** @return [tag][time][suffix], the key of a section ordered by time */
    private static byte[] timeKey(byte tag, long time, byte[] suffix) {
        byte[] out = new byte[9 + suffix.length];
        out[0] = tag;
        putTime(out, 1, time);
        System.arraycopy(suffix, 0, out, 9, suffix.length);
        return out;
    }

    static byte[] timerByKeyPrefix(byte[] groupingKey) {
        byte[] out = new byte[5 + groupingKey.length];
        out[0] = TIMER_BY_KEY;
        putInt(out, 1, groupingKey.length);
        System.arraycopy(groupingKey, 0, out, 5, groupingKey.length);
        return out;
    }

    static byte[] timerByKey(byte[] groupingKey, long time) {
        byte[] out = new byte[13 + groupingKey.length];
        out[0] = TIMER_BY_KEY;
        putInt(out, 1, groupingKey.length);
        System.arraycopy(groupingKey, 0, out, 5, groupingKey.length);
        putTime(out, 5 + groupingKey.length, time);
        return out;
    }

    /** Lower bound of a section whose keys start with a time: {@code [tag][Long.MIN_VALUE]}. */
    static byte[] timeSectionStart(byte tag) {
        return timeSectionStart(tag, Long.MIN_VALUE);
    }

    /** Lower bound of the keys {@code [tag][t >= time][...]} of a section whose keys start with a time. */
    static byte[] timeSectionStart(byte tag, long time) {
        byte[] out = new byte[9];
        out[0] = tag;
        putTime(out, 1, time);
        return out;
    }

    /** Inclusive upper bound covering every key {@code [tag][t <= time][...]}. */
    static byte[] timeSectionEnd(byte tag, long time) {
        byte[] out = new byte[9 + 8];
        out[0] = tag;
        putTime(out, 1, time);
        Arrays.fill(out, 9, 17, (byte) 0xFF);
        return out;
    }

    /** @return [INITIAL_STATE_SEEN][groupingKey]: marks a key that received a row of initial state */
    static byte[] initialStateSeenKey(byte[] groupingKey) {
        byte[] out = new byte[1 + groupingKey.length];
        out[0] = INITIAL_STATE_SEEN;
        System.arraycopy(groupingKey, 0, out, 1, groupingKey.length);
        return out;
    }

    static byte[] metaKey(byte id) {
        return new byte[] {META, id};
    }

    static byte[] bufferKey(long seq) {
        byte[] out = new byte[9];
        out[0] = BUFFER;
        putTime(out, 1, seq);
        return out;
    }

    /**
     * A decoded micro-batch buffer entry.
     *
     * @param key serialized grouping key
     * @param timestamp record timestamp
     * @param value serialized row, or null for a null row
     * @param headers the record's headers (empty for entries written before headers were kept), never null
     */
    record BufferEntry(byte[] key, long timestamp, byte[] value, Headers headers) {}

    /**
     * {@code [keyLen i32][key][timestamp i64][valueLen i32, -1 = null][value]} followed, when the record has headers,
     * by {@code [count i32]} and per header {@code [nameLen i32][name utf8][valueLen i32, -1 = null][value]}. Entries
     * without the header part (the format before headers were kept) decode with empty headers.
     */
    static byte[] encodeBufferEntry(byte[] key, long timestamp, byte[] value, Headers headers) {
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
        byte[] out = new byte[size];
        int p = 0;
        putInt(out, p, key.length);
        System.arraycopy(key, 0, out, p + 4, key.length);
        p += 4 + key.length;
        putLong(out, p, timestamp);
        p += 8;
        p = putBytes(out, p, value);
        if (hs.length > 0) {
            putInt(out, p, hs.length);
            p += 4;
            for (int i = 0; i < hs.length; i++) {
                p = putBytes(out, p, names[i]);
                p = putBytes(out, p, hs[i].value());
            }
        }
        return out;
    }

    static BufferEntry decodeBufferEntry(byte[] e) {
        int kl = getInt(e, 0);
        byte[] key = Arrays.copyOfRange(e, 4, 4 + kl);
        long ts = getLong(e, 4 + kl);
        int p = 12 + kl;
        int vl = getInt(e, p);
        byte[] value = vl < 0 ? null : Arrays.copyOfRange(e, p + 4, p + 4 + vl);
        p += 4 + Math.max(vl, 0);
        RecordHeaders headers = new RecordHeaders();
        if (p < e.length) {
            int n = getInt(e, p);
            p += 4;
            for (int i = 0; i < n; i++) {
                int nl = getInt(e, p);
                String name = new String(e, p + 4, nl, StandardCharsets.UTF_8);
                p += 4 + nl;
                int hl = getInt(e, p);
                byte[] hv = hl < 0 ? null : Arrays.copyOfRange(e, p + 4, p + 4 + hl);
                p += 4 + Math.max(hl, 0);
                headers.add(name, hv);
            }
        }
        return new BufferEntry(key, ts, value, headers);
    }

    /** Writes {@code [len i32, -1 = null][bytes]} at {@code off}; @return the offset after it */
    private static int putBytes(byte[] out, int off, byte[] bytes) {
        if (bytes == null) {
            putInt(out, off, -1);
            return off + 4;
        }
        putInt(out, off, bytes.length);
        System.arraycopy(bytes, 0, out, off + 4, bytes.length);
        return off + 4 + bytes.length;
    }

    static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    static int getInt(byte[] b, int off) {
        return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8) | (b[off + 3] & 0xFF);
    }

    static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    /** Order-preserving encoding of a signed time. */
    static void putTime(byte[] b, int off, long time) {
        putLong(b, off, time ^ Long.MIN_VALUE);
    }

    static long getTime(byte[] b, int off) {
        return getLong(b, off) ^ Long.MIN_VALUE;
    }

    static byte[] longValue(long v) {
        byte[] out = new byte[8];
        putLong(out, 0, v);
        return out;
    }
}
