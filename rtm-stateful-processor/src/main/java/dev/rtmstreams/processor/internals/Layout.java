package dev.rtmstreams.processor.internals;

import static dev.rtmstreams.processor.spi.ByteLayout.getInt;
import static dev.rtmstreams.processor.spi.ByteLayout.getLengthPrefixed;
import static dev.rtmstreams.processor.spi.ByteLayout.getLong;
import static dev.rtmstreams.processor.spi.ByteLayout.getTime;
import static dev.rtmstreams.processor.spi.ByteLayout.putInt;
import static dev.rtmstreams.processor.spi.ByteLayout.putLengthPrefixed;
import static dev.rtmstreams.processor.spi.ByteLayout.putLong;
import static dev.rtmstreams.processor.spi.ByteLayout.putTime;

import dev.rtmstreams.processor.spi.HeadersLayout;
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
 *
 * <p>This table, {@link ValueCodec} and the list records are version {@link OperatorMetadata#VERSION} of the
 * operator's state format (the metadata record's first byte): a change to any of them raises that version, keeps a
 * reader for the old one and adds golden fixtures (docs/upgrading.md).
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

    /**
     * The per-key timer entry of a time-ordered timer entry: the same timer, listed under its key. The per-key index is
     * not changelogged but derived from the time-ordered one (at task start, and by the state reader from a changelog).
     *
     * @param timerKey {@code [TIMER][time][groupingKey]}
     * @return {@code [TIMER/KEY][keyLen][groupingKey][time]}
     */
    static byte[] timerByKeyOfTimerKey(byte[] timerKey) {
        return timerByKey(suffixOfTimeKey(timerKey), timeOf(timerKey));
    }

    /** @return {@code [tag]}: the lowest key of the section {@code tag} (every key of it starts with it) */
    static byte[] sectionStart(byte tag) {
        return new byte[] {tag};
    }

    /**
     * @return {@code [tag + 1]}: the lowest key after the section {@code tag}; a store's {@code range} includes its
     *     upper bound, so a scan up to it skips keys that do not start with {@code tag}
     */
    static byte[] sectionEnd(byte tag) {
        return new byte[] {(byte) (tag + 1)};
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
    static byte[] encodeBufferEntry(BufferEntry e) {
        return encodeBufferEntry(e.key(), e.timestamp(), e.value(), e.headers());
    }

    static byte[] encodeBufferEntry(byte[] key, long timestamp, byte[] value, Headers headers) {
        Header[] hs = headers == null ? new Header[0] : headers.toArray();
        byte[][] names = HeadersLayout.names(hs);
        int size = 4 + key.length + 8 + 4 + (value == null ? 0 : value.length);
        if (hs.length > 0) {
            size += HeadersLayout.size(hs, names);
        }
        byte[] out = new byte[size];
        int p = 0;
        putInt(out, p, key.length);
        System.arraycopy(key, 0, out, p + 4, key.length);
        p += 4 + key.length;
        putLong(out, p, timestamp);
        p += 8;
        p = putLengthPrefixed(out, p, value);
        if (hs.length > 0) {
            HeadersLayout.write(out, p, hs, names);
        }
        return out;
    }

    static BufferEntry decodeBufferEntry(byte[] e) {
        int kl = getInt(e, 0);
        byte[] key = Arrays.copyOfRange(e, 4, 4 + kl);
        long ts = getLong(e, 4 + kl);
        int p = 12 + kl;
        byte[] value = getLengthPrefixed(e, p);
        p += 4 + (value == null ? 0 : value.length);
        Headers headers = p < e.length ? HeadersLayout.read(e, p) : new RecordHeaders();
        return new BufferEntry(key, ts, value, headers);
    }
}
