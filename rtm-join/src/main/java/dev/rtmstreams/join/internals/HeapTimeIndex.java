package dev.rtmstreams.join.internals;

import static dev.rtmstreams.processor.spi.ByteLayout.getInt;
import static dev.rtmstreams.processor.spi.ByteLayout.getLong;
import static dev.rtmstreams.processor.spi.ByteLayout.getTime;
import static dev.rtmstreams.processor.spi.ByteLayout.putInt;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;

/**
 * A {@link TimeIndex} on the heap without an object per row: rows are grouped by event time into segments of
 * {@link #SEGMENT_MS}, and each segment appends its rows' buffer keys to one byte array. A segment is sorted (into
 * index-key order) only when eviction reaches it, and sorted again only if rows arrived after that; rows are removed
 * by advancing a cursor, and the array is compacted at the next sort. About {@code 4 + buffer key} bytes per row
 * (the buffer key is the user key plus 21 bytes), against a put and a delete in a RocksDB instance per row for
 * {@link StoreTimeIndex}.
 *
 * <p>Not thread-safe: a task's rows are inserted and evicted by one stream thread.
 */
final class HeapTimeIndex implements TimeIndex {

    /** Event time covered by one segment. */
    static final long SEGMENT_MS = 1_000L;

    /** A new segment's array: small, as a slow input may put one row in a segment. */
    private static final int INITIAL_BYTES = 64;

    private final long segmentMs;
    private final TreeMap<Long, Segment> segments = new TreeMap<>();
    /** The segment of the last add (rows mostly arrive in time order): saves a map lookup per row. */
    private Segment lastAdded;

    private long lastAddedIndex;
    private long size;
    /** The bytes of the segments' arrays; written by the stream thread, read by metric reporters. */
    private volatile long retainedBytes;

    HeapTimeIndex() {
        this(SEGMENT_MS);
    }

    /** @param segmentMs event time covered by one segment; positive */
    HeapTimeIndex(long segmentMs) {
        if (segmentMs <= 0) {
            throw new IllegalArgumentException("segmentMs must be positive: " + segmentMs);
        }
        this.segmentMs = segmentMs;
    }

    @Override
    public void add(byte[] bufferKey, long eventTime) {
        long index = Math.floorDiv(eventTime, segmentMs);
        Segment s = lastAdded;
        if (s == null || lastAddedIndex != index) {
            s = segments.computeIfAbsent(index, i -> new Segment(this));
            lastAdded = s;
            lastAddedIndex = index;
        }
        s.append(bufferKey);
        size++;
    }

    @Override
    public boolean poll(long from, long maxTime, int max, List<Bytes> out) {
        long maxIndex = Math.floorDiv(maxTime, segmentMs);
        int taken = 0;
        Iterator<Map.Entry<Long, Segment>> it =
                segments.headMap(maxIndex, true).entrySet().iterator();
        while (taken < max && it.hasNext()) {
            Segment s = it.next().getValue();
            taken += s.take(maxTime, max - taken, out);
            if (s.isEmpty()) {
                it.remove();
                retainedBytes -= s.arena.length;
                if (s == lastAdded) {
                    lastAdded = null;
                }
            }
        }
        size -= taken;
        Map.Entry<Long, Segment> first = segments.firstEntry();
        return first != null && first.getKey() <= maxIndex && first.getValue().firstTime() <= maxTime;
    }

    @Override
    public long oldest() {
        Map.Entry<Long, Segment> first = segments.firstEntry();
        return first == null ? Long.MAX_VALUE : first.getValue().firstTime();
    }

    @Override
    public long newest() {
        Map.Entry<Long, Segment> last = segments.lastEntry();
        return last == null ? Codec.NONE : last.getValue().lastTime();
    }

    @Override
    public void clear() {
        segments.clear();
        lastAdded = null;
        size = 0;
        retainedBytes = 0;
    }

    /** @return the number of indexed rows */
    long size() {
        return size;
    }

    /** @return the bytes held by the segments' arrays; safe to call from any thread */
    long retainedBytes() {
        return retainedBytes;
    }

    /** Accounts for a segment's array growing or shrinking by {@code delta} bytes. */
    private void resized(long delta) {
        retainedBytes += delta; // one writer (the stream thread): no lost update
    }

    /**
     * The rows of one time segment: entries {@code [length:4][buffer key]} appended to {@link #arena}. Entries in
     * {@code [start, sortedEnd)} are in index-key order, those in {@code [sortedEnd, end)} in arrival order.
     */
    private static final class Segment {
        private final HeapTimeIndex owner;
        private byte[] arena = new byte[INITIAL_BYTES];
        private int start;
        private int sortedEnd;
        private int end;

        Segment(HeapTimeIndex owner) {
            this.owner = owner;
            owner.resized(INITIAL_BYTES);
        }

        void append(byte[] bufferKey) {
            int need = end + 4 + bufferKey.length;
            if (need > arena.length) {
                int length = Math.max(need, arena.length + (arena.length >> 1));
                owner.resized(length - arena.length);
                arena = Arrays.copyOf(arena, length);
            }
            putInt(arena, end, bufferKey.length);
            System.arraycopy(bufferKey, 0, arena, end + 4, bufferKey.length);
            end = need;
        }

        boolean isEmpty() {
            return start == end;
        }

        /** Moves up to {@code max} rows at or below {@code maxTime} to {@code out}, in order; @return how many */
        int take(long maxTime, int max, List<Bytes> out) {
            sort();
            int taken = 0;
            while (taken < max && start < end) {
                int len = getInt(arena, start);
                if (time(arena, start) > maxTime) {
                    break;
                }
                out.add(Bytes.wrap(Arrays.copyOfRange(arena, start + 4, start + 4 + len)));
                start += 4 + len;
                taken++;
            }
            sortedEnd = Math.max(sortedEnd, start);
            return taken;
        }

        long firstTime() {
            sort();
            return time(arena, start);
        }

        long lastTime() {
            sort();
            int off = start;
            int last = start;
            while (off < end) {
                last = off;
                off += 4 + getInt(arena, off);
            }
            return time(arena, last);
        }

        /** Puts the live entries in index-key order, into a new array without the removed ones. */
        private void sort() {
            if (sortedEnd == end) {
                return;
            }
            int n = 0;
            for (int off = start; off < end; off += 4 + getInt(arena, off)) {
                n++;
            }
            int[] offsets = new int[n];
            int i = 0;
            for (int off = start; off < end; off += 4 + getInt(arena, off)) {
                offsets[i++] = off;
            }
            byte[] a = arena;
            OffsetSort.sort(offsets, (x, y) -> compare(a, x, y));
            byte[] sorted = new byte[Math.max(INITIAL_BYTES, end - start)];
            int to = 0;
            for (int off : offsets) {
                int entry = 4 + getInt(a, off);
                System.arraycopy(a, off, sorted, to, entry);
                to += entry;
            }
            owner.resized(sorted.length - arena.length);
            arena = sorted;
            start = 0;
            sortedEnd = to;
            end = to;
        }
    }

    /** @return the event time of the entry at {@code off} */
    private static long time(byte[] arena, int off) {
        int len = getInt(arena, off);
        return getTime(arena, off + 4 + len - 16);
    }

    /**
     * Index-key order of two entries ({@link Codec#indexKeyFromBufferKey}: time, key length, key bytes unsigned,
     * sequence unsigned), read from their buffer keys {@code [0x00][keyLen:4][key][time:8][seq:8]}.
     */
    static int compare(byte[] arena, int a, int b) {
        int c = Long.compare(time(arena, a), time(arena, b));
        if (c != 0) {
            return c;
        }
        int keyA = getInt(arena, a + 5);
        int keyB = getInt(arena, b + 5);
        c = Integer.compare(keyA, keyB);
        if (c != 0) {
            return c;
        }
        c = Arrays.compareUnsigned(arena, a + 9, a + 9 + keyA, arena, b + 9, b + 9 + keyB);
        if (c != 0) {
            return c;
        }
        return Long.compareUnsigned(getLong(arena, a + 4 + 5 + keyA + 8), getLong(arena, b + 4 + 5 + keyB + 8));
    }

    /** A stable merge sort of int offsets by a comparator, without boxing. */
    static final class OffsetSort {
        /** Compares the entries at two offsets. */
        @FunctionalInterface
        interface Order {
            int compare(int a, int b);
        }

        private OffsetSort() {}

        static void sort(int[] a, Order order) {
            boolean sorted = true;
            for (int i = 1; i < a.length && sorted; i++) {
                sorted = order.compare(a[i - 1], a[i]) <= 0;
            }
            if (!sorted) {
                mergeSort(a, a.clone(), 0, a.length, order);
            }
        }

        /** Sorts {@code dst[from, to)}, using {@code src} (a copy of the same range) as scratch. */
        private static void mergeSort(int[] dst, int[] src, int from, int to, Order order) {
            if (to - from <= 16) {
                for (int i = from + 1; i < to; i++) {
                    int v = dst[i];
                    int j = i - 1;
                    while (j >= from && order.compare(dst[j], v) > 0) {
                        dst[j + 1] = dst[j];
                        j--;
                    }
                    dst[j + 1] = v;
                }
                return;
            }
            int mid = (from + to) >>> 1;
            // sort both halves of src (using dst as scratch), then merge them into dst
            mergeSort(src, dst, from, mid, order);
            mergeSort(src, dst, mid, to, order);
            int i = from;
            int j = mid;
            for (int k = from; k < to; k++) {
                if (j >= to || (i < mid && order.compare(src[i], src[j]) <= 0)) {
                    dst[k] = src[i++];
                } else {
                    dst[k] = src[j++];
                }
            }
        }
    }
}
