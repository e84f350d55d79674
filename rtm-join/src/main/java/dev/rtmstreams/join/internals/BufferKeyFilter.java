package dev.rtmstreams.join.internals;

import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Which keys (or, for {@code distinctBy}, which (key, id) pairs, {@link #hash(byte[], byte[])}) one side's buffer may
 * hold, per event-time segment: a Bloom filter per segment of {@code segmentMs}. A
 * probe of the other side asks {@link #mightContain} before it opens a RocksDB iterator; "no" is certain (a Bloom
 * filter has no false negatives), so a probe that can find nothing costs a few hash lookups instead of a seek across
 * every memtable and SST file. In a steady state most inputs of a typical attribution join probe a side that holds no
 * row for their key (an impression probes the clicks), and those seeks were half the join's CPU.
 *
 * <p>Like the time index, the filter is derived from the changelogged rows: it starts empty with every task incarnation
 * and is rebuilt from the buffer, and every later insert adds to it. Rows are never removed one by one: a segment is
 * dropped as a whole once eviction has passed its end ({@link #dropBefore}); until then evicted rows only make false
 * positives (a seek that finds nothing, as without the filter). Each new segment is sized for the number of keys the
 * largest segment so far held (about 10 bits per key, 4 hash functions: ~1% false positives; at least 32 KiB), so the
 * filter follows the input rate. A segment that receives more keys than it was sized for grows as a scalable Bloom
 * filter: once its newest slice is full, a slice four times larger takes the further keys, and a probe asks every
 * slice. Without that, the first segment of a fresh filter (a new task, or one rebuilt from a restored buffer after a
 * restart) was made at the smallest size before any rate was known and at a high rate saturated: it answered "maybe"
 * to every probe until eviction dropped it, one horizon later.
 */
final class BufferKeyFilter {

    private static final int HASHES = 4;
    private static final int BITS_PER_KEY = 10;
    private static final int MIN_BITS = 1 << 18;
    private static final int MAX_BITS = 1 << 25;
    /** How much larger each further slice of a segment that outgrew its size is. */
    private static final int GROWTH = 4;

    private final long segmentMs;
    private final NavigableMap<Long, Segment> segments = new TreeMap<>();
    private int expectedKeys;

    /** @param segmentMs the event-time span of one segment; positive */
    BufferKeyFilter(long segmentMs) {
        if (segmentMs <= 0) {
            throw new IllegalArgumentException("segmentMs must be positive: " + segmentMs);
        }
        this.segmentMs = segmentMs;
    }

    /**
     * A segment span for a join: a probe covers its time bound, so about four segments per bound; at least 1 s.
     *
     * @param lowerMs the join's lower bound
     * @param upperMs the join's upper bound
     * @return the segment span in ms
     */
    static long segmentMsFor(long lowerMs, long upperMs) {
        long width = lowerMs == Long.MIN_VALUE ? Long.MAX_VALUE : Codec.saturatedAdd(upperMs, -lowerMs);
        return Math.max(1000L, Math.min(width / 4, 24L * 3600 * 1000));
    }

    /** Records that the buffer holds a row of {@code key} at {@code eventTime}. */
    void add(byte[] key, long eventTime) {
        add(hash(key), eventTime);
    }

    /** Records that the buffer holds a row whose {@link #hash} is {@code h} at {@code eventTime}. */
    void add(long h, long eventTime) {
        long index = Math.floorDiv(eventTime, segmentMs);
        Segment s = segments.get(index);
        if (s == null) {
            s = new Segment(bitsFor(expectedKeys));
            segments.put(index, s);
        }
        s.add(h);
        if (s.keys > expectedKeys) {
            expectedKeys = s.keys;
        }
    }

    /** @return false only when the buffer certainly holds no row of {@code key} with event time in [from, to] */
    boolean mightContain(byte[] key, long from, long to) {
        return mightContain(hash(key), from, to);
    }

    /** @return false only when the buffer certainly holds no row of hash {@code h} with event time in [from, to] */
    boolean mightContain(long h, long from, long to) {
        if (from > to) {
            return false;
        }
        Map<Long, Segment> range =
                segments.subMap(Math.floorDiv(from, segmentMs), true, Math.floorDiv(to, segmentMs), true);
        if (range.isEmpty()) {
            return false;
        }
        for (Segment s : range.values()) {
            if (s.mightContain(h)) {
                return true;
            }
        }
        return false;
    }

    /** Drops every segment that ends at or before {@code time}: the buffer holds no row older than it. */
    void dropBefore(long time) {
        long firstKept = Math.floorDiv(time, segmentMs);
        segments.headMap(firstKept, false).clear();
    }

    /** @return the number of live segments (for tests) */
    int segmentCount() {
        return segments.size();
    }

    /** @return the number of Bloom slices of the segment holding {@code eventTime}, 0 if none (for tests) */
    int sliceCount(long eventTime) {
        Segment s = segments.get(Math.floorDiv(eventTime, segmentMs));
        return s == null ? 0 : s.sliceCount();
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

    /** One Bloom filter: a power-of-two bit set probed by double hashing. */
    private static final class Slice {
        private final long[] words;
        private final int mask;
        private int keys;

        Slice(int bits) {
            this.words = new long[bits >>> 6];
            this.mask = bits - 1;
        }

        int bits() {
            return mask + 1;
        }

        /** @return the number of keys this slice is sized for: ~1% false positives when it holds them */
        int capacity() {
            return bits() / BITS_PER_KEY;
        }

        void add(long h) {
            int h1 = (int) h;
            int h2 = (int) (h >>> 32) | 1;
            for (int i = 0; i < HASHES; i++) {
                int bit = (h1 + i * h2) & mask;
                words[bit >>> 6] |= 1L << bit;
            }
            keys++;
        }

        boolean mightContain(long h) {
            int h1 = (int) h;
            int h2 = (int) (h >>> 32) | 1;
            for (int i = 0; i < HASHES; i++) {
                int bit = (h1 + i * h2) & mask;
                if ((words[bit >>> 6] & (1L << bit)) == 0) {
                    return false;
                }
            }
            return true;
        }
    }
}
