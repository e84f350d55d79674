package dev.rtmstreams.join.internals;

import static dev.rtmstreams.processor.spi.ByteLayout.getInt;
import static dev.rtmstreams.processor.spi.ByteLayout.getLong;
import static dev.rtmstreams.processor.spi.ByteLayout.getTime;
import static dev.rtmstreams.processor.spi.ByteLayout.putInt;
import static dev.rtmstreams.processor.spi.ByteLayout.putLong;
import static dev.rtmstreams.processor.spi.ByteLayout.putTime;

import dev.rtmstreams.processor.spi.TimeQueue;
import dev.rtmstreams.processor.spi.Watermarks;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;

/**
 * Byte layouts of the join's stores. Times are stored big-endian with the sign bit flipped, so the unsigned
 * lexicographic order of RocksDB and of {@link Bytes} equals numeric order ({@link
 * dev.rtmstreams.processor.spi.ByteLayout#putTime}, as in the operator store).
 *
 * <p>Each side has a changelogged buffer store of rows and a time index (not changelogged, rebuilt from the rows when
 * a task starts): the operator shell's {@link TimeQueue} of the rows' buffer keys ({@link #INDEX_ENTRIES}), on the heap
 * (in index-key order) or in a local store (with {@code EvictionIndex.STATE_STORE}, one index key per row):
 * <ul>
 *   <li>row key (buffer store): {@code [0x00][keyLen:int][key bytes][eventTime:8][seq:8]} - a range scan over one key
 *       and a time interval finds candidate matches (length prefix: no key is a prefix-collision of another);</li>
 *   <li>segmented row key (buffer store, with {@code EvictionIndex.SEGMENTS} instead of the row key):
 *       {@code [0x04][segmentStart:8][keyLen:int][key bytes][eventTime:8][seq:8]}, where {@code segmentStart} is the
 *       event time rounded down to a multiple of the segment length: a side's rows sorted by time segment first, so
 *       that a segment is evicted with one range deletion and the store's files split by time (no time index);</li>
 *   <li>row value: {@code [flags:1][recordTimestamp:8][value bytes]}, flag bit 0 = matched (outer joins);</li>
 *   <li>index key (index store, and the order of the heap index): {@code [0x01][eventTime:8][keyLen:int][key bytes][seq:8]}, empty value -
 *       time-ordered, for incremental eviction; written and deleted with its row. (Buffers written before the index
 *       had its own store hold index keys too; the rebuild at task start deletes them.)</li>
 *   <li>eviction marker (buffer store, key {@code [0x02]}, changelogged): {@code [evictedThrough:8]} - every row of
 *       the side with an event time at or below it has been evicted, and none can be inserted any more (it never
 *       exceeds the global watermark); rows are evicted without a changelog tombstone, so a restore deletes the rows
 *       at or below the marker itself ({@code BufferRestorer}, and the index rebuild at task start);</li>
 *   <li>row batch (buffer store, key {@code [0x03][firstSeq:8]}, only in the changelog and in a copy being
 *       restored): rows written locally at once and to the changelog together before the next commit
 *       ({@link RowBatch}); a restore expands it into the rows;</li>
 *   <li>meta value: {@code [leftMax:8][rightMax:8][globalWatermark:8][seqHigh:8]};</li>
 *   <li>micro-batch pending entry (written by {@link MicroBatchInputs}): key {@code [seq:8]}, value
 *       {@code [side:1][recordTimestamp:8][eventTime:8][keyLen:int][key][headersLen:int][headers][value]}, the headers
 *       as {@link dev.rtmstreams.processor.spi.HeadersLayout}.</li>
 * </ul>
 *
 * <p>These layouts are version {@link JoinMeta#FORMAT_VERSION} of the join's state format, recorded in the meta store
 * ({@link JoinMeta#checkFormatVersion}): a change to any of them raises that version and keeps a reader for the old
 * one (docs/upgrading.md).
 */
final class Codec {

    static final byte MATCHED = 1;
    static final long NONE = Long.MIN_VALUE;
    static final byte ROW = 0;
    static final byte INDEX = 1;
    static final byte MARKER = 2;
    static final byte ROW_BATCH = 3;
    static final byte SEGMENT_ROW = 4;
    private static final Bytes EVICTION_MARKER_KEY = Bytes.wrap(new byte[] {MARKER});

    /**
     * The time index's entries: a row's buffer key, stored under its index key ({@link #indexKeyFromBufferKey}), so
     * rows of equal time come in index-key order (key length, key bytes unsigned, sequence unsigned) on the heap as
     * in the index store.
     */
    static final TimeQueue.EntryCodec INDEX_ENTRIES = new IndexEntries();

    private Codec() {}

    /** @return {@code [0x00][keyLen][key][flip(eventTime)][seq]} */
    static Bytes bufferKey(byte[] key, long eventTime, long seq) {
        byte[] b = new byte[1 + 4 + key.length + 16];
        b[0] = ROW;
        putInt(b, 1, key.length);
        System.arraycopy(key, 0, b, 5, key.length);
        putTime(b, 5 + key.length, eventTime);
        putLong(b, 13 + key.length, seq);
        return Bytes.wrap(b);
    }

    /** @return {@code [0x04][flip(segmentStart)][keyLen][key][flip(eventTime)][seq]} */
    static Bytes segmentRowKey(long segmentStart, byte[] key, long eventTime, long seq) {
        byte[] b = new byte[9 + 4 + key.length + 16];
        b[0] = SEGMENT_ROW;
        putTime(b, 1, segmentStart);
        putInt(b, 9, key.length);
        System.arraycopy(key, 0, b, 13, key.length);
        putTime(b, 13 + key.length, eventTime);
        putLong(b, 21 + key.length, seq);
        return Bytes.wrap(b);
    }

    /**
     * @return a key sorting before every segmented row key of a segment starting at {@code segmentStart} or later, and
     *     after every row of an earlier segment: {@code [0x04][flip(segmentStart)]}
     */
    static Bytes segmentBound(long segmentStart) {
        byte[] b = new byte[9];
        b[0] = SEGMENT_ROW;
        putTime(b, 1, segmentStart);
        return Bytes.wrap(b);
    }

    /** @return the segment start of a segmented row key */
    static long segmentStart(byte[] segmentRowKey) {
        return getTime(segmentRowKey, 1);
    }

    static boolean isSegmentRowKey(byte[] storeKey) {
        return storeKey.length > 0 && storeKey[0] == SEGMENT_ROW;
    }

    /**
     * @return the key of a side's eviction marker in its buffer store: {@code [0x02]}, sorting after every row and
     *     index key
     */
    static Bytes evictionMarkerKey() {
        return EVICTION_MARKER_KEY;
    }

    /** @return whether a store key is a row key of either layout (plain or segmented) */
    static boolean isRowKey(byte[] storeKey) {
        return storeKey.length > 0 && (storeKey[0] == ROW || storeKey[0] == SEGMENT_ROW);
    }

    static long bufferKeyTime(byte[] bufferKey) {
        return getTime(bufferKey, bufferKey.length - 16);
    }

    /** @return the user key of a row key of either layout */
    static byte[] bufferKeyUserKey(byte[] bufferKey) {
        int at = bufferKey[0] == SEGMENT_ROW ? 9 : 1;
        int len = getInt(bufferKey, at);
        return Arrays.copyOfRange(bufferKey, at + 4, at + 4 + len);
    }

    /** @return the sequence number of a row key of either layout */
    static long bufferKeySeq(byte[] bufferKey) {
        return getLong(bufferKey, bufferKey.length - 8);
    }

    /** @return the index key of a row key: {@code [0x01][time][keyLen][key][seq]} */
    static Bytes indexKeyFromBufferKey(byte[] bufferKey) {
        int n = bufferKey.length;
        byte[] b = new byte[n];
        b[0] = INDEX;
        System.arraycopy(bufferKey, n - 16, b, 1, 8); // time
        System.arraycopy(bufferKey, 1, b, 9, n - 17); // keyLen + key
        System.arraycopy(bufferKey, n - 8, b, n - 8, 8); // seq
        return Bytes.wrap(b);
    }

    static long indexKeyTime(byte[] indexKey) {
        return getTime(indexKey, 1);
    }

    /** @return the row key of an index key */
    static Bytes bufferKeyFromIndexKey(byte[] indexKey) {
        int n = indexKey.length;
        byte[] b = new byte[n];
        b[0] = ROW;
        System.arraycopy(indexKey, 9, b, 1, n - 17); // keyLen + key
        System.arraycopy(indexKey, 1, b, n - 16, 8); // time
        System.arraycopy(indexKey, n - 8, b, n - 8, 8); // seq
        return Bytes.wrap(b);
    }

    /** @return a key sorting after every index key with event time {@code <= t} and before any later one */
    static Bytes indexUpperBound(long t) {
        if (t == Long.MAX_VALUE) {
            byte[] all = new byte[10];
            Arrays.fill(all, (byte) 0xFF);
            all[0] = INDEX;
            return Bytes.wrap(all);
        }
        return indexLowerBound(t + 1);
    }

    /** @return a key sorting before every index key with event time {@code >= t} and after any earlier one */
    static Bytes indexLowerBound(long t) {
        byte[] b = new byte[9];
        b[0] = INDEX;
        putTime(b, 1, t);
        return Bytes.wrap(b);
    }

    /** @return a key sorting before every index key */
    static Bytes indexLowerBound() {
        return Bytes.wrap(new byte[] {INDEX});
    }

    /**
     * @return the first key after all row keys of both layouts (rows are in {@code [rowsStart, rowsEnd)}, which also
     *     holds the eviction marker and, in buffers of the oldest layout, index keys: skip them with {@link #isRowKey})
     */
    static Bytes rowsEnd() {
        return Bytes.wrap(new byte[] {SEGMENT_ROW + 1});
    }

    /** @return a key sorting before every row key */
    static Bytes rowsStart() {
        return Bytes.wrap(new byte[] {ROW});
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
        return getLong(bufferValue, 1);
    }

    /** @return whether two row values carry the same payload (flags and record timestamp are not compared) */
    static boolean samePayload(byte[] bufferValue, byte[] otherBufferValue) {
        return Arrays.equals(bufferValue, 9, bufferValue.length, otherBufferValue, 9, otherBufferValue.length);
    }

    /** @return whether a row value carries exactly {@code payload} */
    static boolean hasPayload(byte[] bufferValue, byte[] payload) {
        return Arrays.equals(bufferValue, 9, bufferValue.length, payload, 0, payload.length);
    }

    static byte[] payload(byte[] bufferValue) {
        return Arrays.copyOfRange(bufferValue, 9, bufferValue.length);
    }

    static long saturatedAdd(long a, long b) {
        return Watermarks.saturatedAdd(a, b);
    }

    /** {@link #INDEX_ENTRIES}: buffer keys {@code [0x00][keyLen:4][key][time:8][seq:8]}, index keys in the store. */
    private static final class IndexEntries implements TimeQueue.EntryCodec {

        @Override
        public byte tag() {
            return INDEX;
        }

        @Override
        public long time(byte[] a, int off, int len) {
            return getTime(a, off + len - 16);
        }

        @Override
        public int compareSameTime(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
            int keyA = getInt(a, aOff + 1);
            int keyB = getInt(b, bOff + 1);
            int c = Integer.compare(keyA, keyB);
            if (c != 0) {
                return c;
            }
            c = Arrays.compareUnsigned(a, aOff + 5, aOff + 5 + keyA, b, bOff + 5, bOff + 5 + keyB);
            if (c != 0) {
                return c;
            }
            return Long.compareUnsigned(getLong(a, aOff + aLen - 8), getLong(b, bOff + bLen - 8));
        }

        @Override
        public Bytes storeKey(byte[] entry) {
            return indexKeyFromBufferKey(entry);
        }

        @Override
        public Bytes entry(byte[] storeKey) {
            return bufferKeyFromIndexKey(storeKey);
        }
    }
}
