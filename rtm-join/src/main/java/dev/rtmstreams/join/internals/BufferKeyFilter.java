package dev.rtmstreams.join.internals;

import java.util.Arrays;

/**
 * Which keys (or, for {@code distinctBy}, which (key, id) pairs, {@link #hash(byte[], byte[])}) one side's buffer may
 * hold, per event-time segment: a Bloom filter per segment of {@code segmentMs}. A probe of the other side asks
 * {@link #mightContain} before it opens a RocksDB iterator; "no" is certain (a Bloom filter has no false negatives),
 * so a probe that can find nothing costs a few memory accesses instead of a seek across every memtable and SST file.
 * In a steady state most inputs of a typical attribution join probe a side that holds no row for their key (an
 * impression probes the clicks), and those seeks were half the join's CPU.
 *
 * <p>Like the time index, the filter is derived from the changelogged rows: it starts empty with every task incarnation
 * and is rebuilt from the buffer, and every later insert adds to it. Rows are never removed one by one: a segment is
 * dropped as a whole once eviction has passed its end ({@link #dropBefore}); until then evicted rows only make false
 * positives (a seek that finds nothing, as without the filter). Each new segment is sized for the number of keys the
 * largest segment so far held (at least 12 bits per key, 5 hash functions; at least 32 KiB), so the filter follows the
 * input rate. The Bloom filters are blocked: all of a key's bits lie in one 64-bit word, so that asking a segment costs
 * one memory access (a cache miss, as the filters of a busy join do not fit in the cache) instead of up to one per hash
 * function; with 12 bits per key that gives ~1% false positives when a segment holds the keys it was sized for, as a
 * classic Bloom filter gives with 10. Segments are kept in an array in time order (no boxed keys, no tree walk per
 * probe) and asked newest first: a probe that finds its key usually finds it among the recent rows.
 *
 * <p>A segment that receives more keys than it was sized for grows as a scalable Bloom filter: once its newest slice is
 * full, a slice four times larger takes the further keys, and a probe asks every slice. Without that, the first segment
 * of a fresh filter (a new task, or one rebuilt from a restored buffer after a restart) was made at the smallest size
 * before any rate was known and at a high rate saturated: it answered "maybe" to every probe until eviction dropped it,
 * one horizon later.
 */
final class BufferKeyFilter {

    private static final int HASHES = 5;
    private static final int BITS_PER_KEY = 12;
    private static final int MIN_BITS = 1 << 18;
    private static final int MAX_BITS = 1 << 25;
    /** How much larger each further slice of a segment that outgrew its size is. */
    private static final int GROWTH = 4;

    private static final long MAX_SEGMENT_MS = 24L * 3600 * 1000;

    private final long segmentMs;
    /** The live segments' indexes ({@code floorDiv(eventTime, segmentMs)}), ascending; {@code count} of them. */
    private long[] indexes = new long[8];
    /** The live segments, in the order of {@link #indexes}. */
    private Segment[] segments = new Segment[8];

    private int count;
    /** The segment of the last {@link #add} (inserts come in near time order), or null. */
    private Segment lastAdded;

    private long lastAddedIndex;
    private int expectedKeys;

    /** @param segmentMs the event-time span of one segment; positive */
    BufferKeyFilter(long segmentMs) {
        if (segmentMs <= 0) {
            throw new IllegalArgumentException("segmentMs must be positive: " + segmentMs);
        }
        this.segmentMs = segmentMs;
    }

    /**
     * A segment span for the key filter of a join: a probe covers its time bound, so about two segments per bound (a
     * probe asks two or three); at least 1 s.
     *
     * @param lowerMs the join's lower bound
     * @param upperMs the join's upper bound
     * @return the segment span in ms
     */
    static long segmentMsFor(long lowerMs, long upperMs) {
        long width = lowerMs == Long.MIN_VALUE ? Long.MAX_VALUE : Codec.saturatedAdd(upperMs, -lowerMs);
        return Math.max(1000L, Math.min(width / 2, MAX_SEGMENT_MS));
    }

    /**
     * A segment span for a filter asked over all of a side's live rows (the (key, id) filter of {@code distinctBy}):
     * about two segments per live span, and never shorter than the key filter's.
     *
     * @param liveSpanMs how much event time a side's live rows span (its watermark delay plus how long a row stays
     *     after the watermark passed it)
     * @param keySegmentMs the key filter's span ({@link #segmentMsFor})
     * @return the segment span in ms
     */
    static long segmentMsForLiveSpan(long liveSpanMs, long keySegmentMs) {
        return Math.max(keySegmentMs, Math.min(liveSpanMs / 2, MAX_SEGMENT_MS));
    }

    /** Records that the buffer holds a row of {@code key} at {@code eventTime}. */
    void add(byte[] key, long eventTime) {
        add(hash(key), eventTime);
    }

    /** Records that the buffer holds a row whose {@link #hash} is {@code h} at {@code eventTime}. */
    void add(long h, long eventTime) {
        long index = Math.floorDiv(eventTime, segmentMs);
        Segment s = lastAdded != null && lastAddedIndex == index ? lastAdded : segment(index);
        lastAdded = s;
        lastAddedIndex = index;
        s.add(h);
        if (s.keys > expectedKeys) {
            expectedKeys = s.keys;
        }
    }

    /** @return the segment of {@code index}, created (sized for the largest so far) if there is none */
    private Segment segment(long index) {
        int at = Arrays.binarySearch(indexes, 0, count, index);
        if (at >= 0) {
            return segments[at];
        }
        int insertAt = -at - 1;
        if (count == indexes.length) {
            indexes = Arrays.copyOf(indexes, count * 2);
            segments = Arrays.copyOf(segments, count * 2);
        }
        System.arraycopy(indexes, insertAt, indexes, insertAt + 1, count - insertAt);
        System.arraycopy(segments, insertAt, segments, insertAt + 1, count - insertAt);
        Segment s = new Segment(bitsFor(expectedKeys));
        indexes[insertAt] = index;
        segments[insertAt] = s;
        count++;
        return s;
    }

    /** @return false only when the buffer certainly holds no row of {@code key} with event time in [from, to] */
    boolean mightContain(byte[] key, long from, long to) {
        return mightContain(hash(key), from, to);
    }

    /** @return false only when the buffer certainly holds no row of hash {@code h} with event time in [from, to] */
    boolean mightContain(long h, long from, long to) {
        if (from > to || count == 0) {
            return false;
        }
        long first = Math.floorDiv(from, segmentMs);
        long last = Math.floorDiv(to, segmentMs);
        int i = count - 1;
        if (indexes[i] > last) {
            int at = Arrays.binarySearch(indexes, 0, count, last);
            i = at >= 0 ? at : -at - 2;
        }
        for (; i >= 0 && indexes[i] >= first; i--) {
            if (segments[i].mightContain(h)) {
                return true;
            }
        }
        return false;
    }

    /** Drops every segment that ends at or before {@code time}: the buffer holds no row older than it. */
    void dropBefore(long time) {
        long firstKept = Math.floorDiv(time, segmentMs);
        int dropped = 0;
        while (dropped < count && indexes[dropped] < firstKept) {
            dropped++;
        }
        if (dropped == 0) {
            return;
        }
        System.arraycopy(indexes, dropped, indexes, 0, count - dropped);
        System.arraycopy(segments, dropped, segments, 0, count - dropped);
        Arrays.fill(segments, count - dropped, count, null);
        count -= dropped;
        if (lastAdded != null && lastAddedIndex < firstKept) {
            lastAdded = null;
        }
    }

    /** @return the number of live segments (for tests) */
    int segmentCount() {
        return count;
    }

    /** @return the number of Bloom slices of the segment holding {@code eventTime}, 0 if none (for tests) */
    int sliceCount(long eventTime) {
        int at = Arrays.binarySearch(indexes, 0, count, Math.floorDiv(eventTime, segmentMs));
        return at < 0 ? 0 : segments[at].sliceCount();
    }

    private static int bitsFor(int keys) {
        long bits = (long) keys * BITS_PER_KEY;
        if (bits <= MIN_BITS) {
            return MIN_BITS;
        }
        return (int) Math.min(MAX_BITS, Long.highestOneBit(bits - 1) << 1);
    }

    /** 64-bit hash of a key: FNV-1a over the bytes, then MurmurHash3's finalizer to spread the bits. */
    static long hash(byte[] key) {
        return mix(fnv(0xcbf29ce484222325L, key));
    }

    /**
     * 64-bit hash of a (key, id) pair: as {@link #hash(byte[])} over the key, the key's length and the id, so that no
     * two different pairs hash the same bytes.
     */
    static long hash(byte[] key, byte[] id) {
        long h = fnv(0xcbf29ce484222325L, key);
        for (int shift = 0; shift < 32; shift += 8) {
            h ^= (key.length >>> shift) & 0xff;
            h *= 0x100000001b3L;
        }
        return mix(fnv(h, id));
    }

    private static long fnv(long h, byte[] bytes) {
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /**
     * One segment's filter: a chain of Bloom slices (a scalable Bloom filter). Keys go to the newest slice; when it
     * holds as many keys as it was sized for, a slice {@value #GROWTH} times larger (up to the largest size) is added.
     */
    private static final class Segment {
        private Slice[] slices;
        private int keys;

        Segment(int bits) {
            this.slices = new Slice[] {new Slice(bits)};
        }

        void add(long h) {
            Slice last = slices[slices.length - 1];
            if (last.keys >= last.capacity()) {
                int bits = (int) Math.min(MAX_BITS, (long) last.bits() * GROWTH);
                last = new Slice(bits);
                slices = Arrays.copyOf(slices, slices.length + 1);
                slices[slices.length - 1] = last;
            }
            last.add(h);
            keys++;
        }

        boolean mightContain(long h) {
            for (Slice slice : slices) {
                if (slice.mightContain(h)) {
                    return true;
                }
            }
            return false;
        }

        int sliceCount() {
            return slices.length;
        }
    }

    /**
     * One blocked Bloom filter: a power-of-two number of 64-bit words; a key sets {@value #HASHES} bits of one word
     * (the word chosen by the hash's low bits, the bits by 6-bit groups of its high bits).
     */
    private static final class Slice {
        private final long[] words;
        private final int wordMask;
        private int keys;

        Slice(int bits) {
            this.words = new long[bits >>> 6];
            this.wordMask = words.length - 1;
        }

        int bits() {
            return words.length << 6;
        }

        /** @return the number of keys this slice is sized for: ~1% false positives when it holds them */
        int capacity() {
            return bits() / BITS_PER_KEY;
        }

        void add(long h) {
            words[(int) h & wordMask] |= pattern(h);
            keys++;
        }

        boolean mightContain(long h) {
            long pattern = pattern(h);
            return (words[(int) h & wordMask] & pattern) == pattern;
        }

        /** @return the key's bits within its word: one per hash function, from bits 34-63 of the hash */
        private static long pattern(long h) {
            long p = 0;
            for (int i = 0; i < HASHES; i++) {
                p |= 1L << (h >>> (34 + 6 * i));
            }
            return p;
        }
    }
}
