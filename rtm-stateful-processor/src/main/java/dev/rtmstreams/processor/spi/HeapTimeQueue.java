package dev.rtmstreams.processor.spi;

import static dev.rtmstreams.processor.spi.ByteLayout.getInt;
import static dev.rtmstreams.processor.spi.ByteLayout.putInt;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;

/**
 * A {@link TimeQueue} on the heap without an object per entry: entries are grouped by time into segments of
 * {@link #SEGMENT_MS}, and each segment appends its entries to one byte array. A segment is sorted (into store-key
 * order: time, then {@link TimeQueue.EntryCodec#compareSameTime}) only when eviction reaches it, and sorted again only
 * if entries arrived after that; entries are removed by advancing a cursor, and the array is compacted at the next
 * sort. About {@code 4 + entry} bytes per entry (the interval join's entry, a buffer key, is the user key plus 21
 * bytes), against a put and a delete in a RocksDB instance per entry for {@link StoreTimeQueue}.
 *
 * <p>Not thread-safe: a task's entries are added and polled by one stream thread; {@link #retainedBytes} may be read
 * by metric reporters.
 */
final class HeapTimeQueue implements TimeQueue {

    /** Time covered by one segment. */
    static final long SEGMENT_MS = 1_000L;

    /** A new segment's array: small, as a slow input may put one entry in a segment. */
    private static final int INITIAL_BYTES = 64;

    private final EntryCodec codec;
    private final long segmentMs;
    private final TreeMap<Long, Segment> segments = new TreeMap<>();
    private final TimeBound bound = new TimeBound();
    /** The segment of the last add (entries mostly arrive in time order): saves a map lookup per entry. */
    private Segment lastAdded;

    private long lastAddedIndex;
    private long size;
    /** The bytes of the segments' arrays; written by the stream thread, read by metric reporters. */
    private volatile long retainedBytes;

    /** @param segmentMs time covered by one segment; positive */
    HeapTimeQueue(EntryCodec codec, long segmentMs) {
        if (segmentMs <= 0) {
            throw new IllegalArgumentException("segmentMs must be positive: " + segmentMs);
        }
        this.codec = codec;
        this.segmentMs = segmentMs;
    }

    @Override
    public void add(byte[] entry, long time) {
        long index = Math.floorDiv(time, segmentMs);
        Segment s = lastAdded;
        if (s == null || lastAddedIndex != index) {
            s = segments.computeIfAbsent(index, i -> new Segment(this));
            lastAdded = s;
            lastAddedIndex = index;
        }
        s.append(entry);
        size++;
        bound.added(time);
    }

    @Override
    public boolean poll(long maxTime, int budget, List<Bytes> out) {
        bound.startPass();
        long maxIndex = Math.floorDiv(maxTime, segmentMs);
        int taken = 0;
        Iterator<Map.Entry<Long, Segment>> it =
                segments.headMap(maxIndex, true).entrySet().iterator();
        while (taken < budget && it.hasNext()) {
            Segment s = it.next().getValue();
            taken += s.take(maxTime, budget - taken, out);
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
        boolean more =
                first != null && first.getKey() <= maxIndex && first.getValue().firstTime() <= maxTime;
        long lastTime = Long.MIN_VALUE;
        if (taken > 0) {
            byte[] last = out.get(out.size() - 1).get();
            lastTime = codec.time(last, 0, last.length);
        }
        bound.passed(new TimeSection.Pass(maxTime, taken, lastTime, more, Long.MAX_VALUE));
        return more;
    }

    @Override
    public long lowerBound() {
        return bound.get();
    }

    @Override
    public void seekLowerBound() {
        bound.set(oldest());
    }

    @Override
    public long oldest() {
        Map.Entry<Long, Segment> first = segments.firstEntry();
        return first == null ? Long.MAX_VALUE : first.getValue().firstTime();
    }

    @Override
    public long newest() {
        Map.Entry<Long, Segment> last = segments.lastEntry();
        return last == null ? Long.MIN_VALUE : last.getValue().lastTime();
    }

    @Override
    public void clear() {
        segments.clear();
        lastAdded = null;
        size = 0;
        retainedBytes = 0;
        bound.set(Long.MIN_VALUE);
    }

    /** @return the number of entries */
    long size() {
        return size;
    }

    @Override
    public long retainedBytes() {
        return retainedBytes;
    }

    /** Accounts for a segment's array growing or shrinking by {@code delta} bytes. */
    private void resized(long delta) {
        retainedBytes += delta; // one writer (the stream thread): no lost update
    }

    /** @return the time of the entry at {@code off} of an arena ({@code [length:4][entry]}) */
    private long time(byte[] arena, int off) {
        return codec.time(arena, off + 4, getInt(arena, off));
    }

    /** Store-key order of two entries of an arena: time, then the codec's order of entries of one time. */
    private int compare(byte[] arena, int a, int b) {
        int c = Long.compare(time(arena, a), time(arena, b));
        if (c != 0) {
            return c;
        }
        return codec.compareSameTime(arena, a + 4, getInt(arena, a), arena, b + 4, getInt(arena, b));
    }

    /**
     * The entries of one time segment: {@code [length:4][entry]} appended to {@link #arena}. Entries in
     * {@code [start, sortedEnd)} are in store-key order, those in {@code [sortedEnd, end)} in arrival order.
     */
    private static final class Segment {
        private final HeapTimeQueue owner;
        private byte[] arena = new byte[INITIAL_BYTES];
        private int start;
        private int sortedEnd;
        private int end;

        Segment(HeapTimeQueue owner) {
            this.owner = owner;
            owner.resized(INITIAL_BYTES);
        }

        void append(byte[] entry) {
            int need = end + 4 + entry.length;
            if (need > arena.length) {
                int length = Math.max(need, arena.length + (arena.length >> 1));
                owner.resized(length - arena.length);
                arena = Arrays.copyOf(arena, length);
            }
            putInt(arena, end, entry.length);
            System.arraycopy(entry, 0, arena, end + 4, entry.length);
            end = need;
        }

        boolean isEmpty() {
            return start == end;
        }

        /** Moves up to {@code max} entries at or below {@code maxTime} to {@code out}, in order; @return how many */
        int take(long maxTime, int max, List<Bytes> out) {
            sort();
            int taken = 0;
            while (taken < max && start < end) {
                int len = getInt(arena, start);
                if (owner.time(arena, start) > maxTime) {
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
            return owner.time(arena, start);
        }

        long lastTime() {
            sort();
            int off = start;
            int last = start;
            while (off < end) {
                last = off;
                off += 4 + getInt(arena, off);
            }
            return owner.time(arena, last);
        }

        /** Puts the live entries in store-key order, into a new array without the removed ones. */
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
            OffsetSort.sort(offsets, (x, y) -> owner.compare(a, x, y));
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
