package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.LongFunction;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * {@link HeapTimeQueue} (and {@link StoreTimeQueue}) against a reference model: a sorted set of the entries' store
 * keys, the order the store-backed queue keeps, polled up to a time with a budget as eviction does.
 */
class HeapTimeQueueTest {

    /**
     * A layout whose store key is not the entry: entry {@code [key][time:8]}, store key {@code [0x01][time:8][key]}, so
     * the heap queue must order equal times by the codec, not by the entry's bytes.
     */
    static final TimeQueue.EntryCodec CODEC = new TimeQueue.EntryCodec() {
        @Override
        public byte tag() {
            return 1;
        }

        @Override
        public long time(byte[] a, int off, int len) {
            return ByteLayout.getTime(a, off + len - 8);
        }

        @Override
        public int compareSameTime(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
            return Arrays.compareUnsigned(a, aOff, aOff + aLen - 8, b, bOff, bOff + bLen - 8);
        }

        @Override
        public Bytes storeKey(byte[] entry) {
            byte[] k = new byte[entry.length + 1];
            k[0] = 1;
            System.arraycopy(entry, entry.length - 8, k, 1, 8);
            System.arraycopy(entry, 0, k, 9, entry.length - 8);
            return Bytes.wrap(k);
        }

        @Override
        public Bytes entry(byte[] storeKey) {
            byte[] e = new byte[storeKey.length - 1];
            System.arraycopy(storeKey, 9, e, 0, storeKey.length - 9);
            System.arraycopy(storeKey, 1, e, e.length - 8, 8);
            return Bytes.wrap(e);
        }
    };

    /** The model: store keys in byte order, as in a store. */
    private static final class Model {
        final TreeSet<Bytes> keys = new TreeSet<>();

        void add(byte[] entry) {
            keys.add(CODEC.storeKey(entry));
        }

        boolean poll(long maxTime, int max, List<Bytes> out) {
            Iterator<Bytes> it =
                    keys.headSet(Bytes.wrap(TimeSection.end((byte) 1, maxTime))).iterator();
            int n = 0;
            while (n < max && it.hasNext()) {
                out.add(CODEC.entry(it.next().get()));
                it.remove();
                n++;
            }
            return it.hasNext();
        }

        long oldest() {
            return keys.isEmpty()
                    ? Long.MAX_VALUE
                    : ByteLayout.getTime(keys.first().get(), 1);
        }

        long newest() {
            return keys.isEmpty()
                    ? Long.MIN_VALUE
                    : ByteLayout.getTime(keys.last().get(), 1);
        }
    }

    static byte[] entry(String key, long time) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] e = Arrays.copyOf(k, k.length + 8);
        ByteLayout.putTime(e, k.length, time);
        return e;
    }

    static KeyValueStore<Bytes, byte[]> store() {
        KeyValueStore<Bytes, byte[]> store =
                Stores.inMemoryKeyValueStore("queue").get();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }

    @Test
    void shouldPollEntriesInStoreKeyOrderAsTheReferenceModelAcrossRandomAddsAndPollsOnTheHeapAndInAStore() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            long segmentMs = 1 + random.nextLong(3_000);
            check(seed, random, s -> new HeapTimeQueue(CODEC, segmentMs));
            check(seed, new SplittableRandom(seed), s -> new StoreTimeQueue(store(), CODEC));
        }
    }

    private static void check(long seed, SplittableRandom random, LongFunction<TimeQueue> make) {
        TimeQueue queue = make.apply(seed);
        Model model = new Model();
        long seq = 0;
        long watermark = -5_000 + random.nextLong(10_000); // negative times too
        for (int step = 0; step < 400; step++) {
            int adds = random.nextInt(60);
            for (int i = 0; i < adds; i++) {
                // mostly ahead of the watermark, some far ahead, some at the same time and key
                long t = watermark + random.nextLong(-200, 8_000);
                // unique entries; one key's entries of one time are ordered by their suffix's bytes, not by arrival
                String k = (random.nextInt(4) == 0 ? "k" : "key-" + random.nextInt(50)) + "#" + seq++;
                byte[] e = entry(k, t);
                queue.add(e, t);
                model.add(e);
                assertThat(queue.lowerBound()).isLessThanOrEqualTo(t);
            }
            watermark += random.nextLong(0, 400);
            int budget = 1 + random.nextInt(80);
            List<Bytes> got = new ArrayList<>();
            List<Bytes> expected = new ArrayList<>();
            boolean more = queue.poll(watermark, budget, got);
            boolean expectedMore = model.poll(watermark, budget, expected);
            assertThat(got).as("seed %d step %d", seed, step).isEqualTo(expected);
            assertThat(more).as("seed %d step %d: more", seed, step).isEqualTo(expectedMore);
            assertThat(queue.oldest()).isEqualTo(model.oldest());
            assertThat(queue.newest()).isEqualTo(model.newest());
            // the bound never passes an entry, and a complete poll moves it past what it removed
            assertThat(queue.lowerBound()).isLessThanOrEqualTo(model.oldest());
            if (!more) {
                assertThat(queue.lowerBound()).isGreaterThan(watermark);
            }
            if (queue instanceof HeapTimeQueue heap) {
                assertThat(heap.size()).isEqualTo(model.keys.size());
            }
        }
    }

    @Test
    void shouldOrderEntriesOfOneTimeByTheCodecNotByTheirBytes() {
        HeapTimeQueue queue = new HeapTimeQueue(CODEC, HeapTimeQueue.SEGMENT_MS);
        // by the entries' own bytes ([key][time]) "ab" would come before "a"; by store key, time then key bytes
        queue.add(entry("b", 5), 5);
        queue.add(entry("a", 5), 5);
        queue.add(entry("c", 4), 4);
        queue.add(entry("ab", 5), 5);
        List<Bytes> out = new ArrayList<>();
        assertThat(queue.poll(5, 10, out)).isFalse();
        assertThat(out)
                .containsExactly(
                        Bytes.wrap(entry("c", 4)),
                        Bytes.wrap(entry("a", 5)),
                        Bytes.wrap(entry("ab", 5)),
                        Bytes.wrap(entry("b", 5)));
        assertThat(queue.oldest()).isEqualTo(Long.MAX_VALUE);
        assertThat(queue.newest()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void shouldKeepEntriesAddedToASegmentAfterItWasPartlyPolled() {
        HeapTimeQueue queue = new HeapTimeQueue(CODEC, 1_000);
        queue.add(entry("a", 100), 100);
        queue.add(entry("a", 900), 900);
        List<Bytes> out = new ArrayList<>();
        assertThat(queue.poll(500, 10, out)).isFalse();
        assertThat(out).containsExactly(Bytes.wrap(entry("a", 100)));
        assertThat(queue.lowerBound()).isEqualTo(501);
        queue.add(entry("b", 600), 600);
        out.clear();
        assertThat(queue.poll(1_000, 1, out)).isTrue();
        assertThat(out).containsExactly(Bytes.wrap(entry("b", 600)));
        assertThat(queue.lowerBound()).isEqualTo(600);
        out.clear();
        assertThat(queue.poll(1_000, 1, out)).isFalse();
        assertThat(out).containsExactly(Bytes.wrap(entry("a", 900)));
        assertThat(queue.lowerBound()).isEqualTo(1_001);
    }

    @Test
    void shouldHoldAnEntryInAboutItsBytesPlusFour() {
        HeapTimeQueue queue = new HeapTimeQueue(CODEC, HeapTimeQueue.SEGMENT_MS);
        int rows = 100_000;
        String key = "imp-0123456789abcdef"; // 20 bytes
        for (int i = 0; i < rows; i++) {
            long t = i / 10; // 10 000 entries per second of time: 10 segments
            queue.add(entry(key + (i % 10), t), t);
        }
        // 4 (length) + 21 (key) + 8 (time) = 33 bytes, plus the arrays' growth slack
        long perRow = queue.retainedBytes() / rows;
        assertThat(perRow).isBetween(33L, 50L);
        // sorting for eviction compacts a segment to its entries
        queue.poll(999, 1, new ArrayList<>());
        assertThat(queue.retainedBytes()).isLessThanOrEqualTo((long) rows * 50);
    }

    @Test
    void shouldForgetEverythingOnClearAndSeekTheBoundToTheOldestEntry() {
        HeapTimeQueue queue = new HeapTimeQueue(CODEC, HeapTimeQueue.SEGMENT_MS);
        queue.add(entry("a", 1), 1);
        queue.clear();
        assertThat(queue.size()).isZero();
        assertThat(queue.retainedBytes()).isZero();
        assertThat(queue.oldest()).isEqualTo(Long.MAX_VALUE);
        assertThat(queue.lowerBound()).isEqualTo(Long.MIN_VALUE);
        queue.add(entry("b", 7), 7);
        queue.add(entry("c", 3), 3);
        queue.seekLowerBound();
        assertThat(queue.lowerBound()).isEqualTo(3);
        List<Bytes> out = new ArrayList<>();
        queue.poll(7, 10, out);
        assertThat(out).containsExactly(Bytes.wrap(entry("c", 3)), Bytes.wrap(entry("b", 7)));
    }

    @Test
    void shouldClearOnlyItsOwnSectionOfAStore() {
        KeyValueStore<Bytes, byte[]> store = store();
        Bytes other = Bytes.wrap(new byte[] {2, 0, 0});
        store.put(other, new byte[0]);
        TimeQueue queue = TimeQueue.inStore(store, CODEC);
        queue.add(entry("a", 5), 5);
        assertThat(queue.oldest()).isEqualTo(5);
        queue.clear();
        assertThat(queue.oldest()).isEqualTo(Long.MAX_VALUE);
        assertThat(store.get(other)).isNotNull();
        assertThat(store.approximateNumEntries()).isEqualTo(1);
    }

    @Test
    void shouldWriteABulkRunsAddsToTheStoreOnEachFlushAndKeepTheRunOpen() {
        KeyValueStore<Bytes, byte[]> store = store();
        TimeQueue queue = TimeQueue.inStore(store, CODEC);
        queue.seekLowerBound(); // empty: no entry is older than any time
        queue.startBulk();
        queue.add(entry("a", 5), 5);
        queue.add(entry("b", 3), 3);
        assertThat(store.approximateNumEntries()).isZero();
        assertThat(queue.lowerBound()).isEqualTo(3); // the bound follows the adds before they are written
        queue.flushBulk();
        assertThat(store.approximateNumEntries()).isEqualTo(2);
        queue.add(entry("c", 9), 9);
        assertThat(store.approximateNumEntries()).isEqualTo(2); // the run is still open
        queue.flushBulk();
        queue.flushBulk(); // nothing pending: nothing written
        assertThat(queue.newest()).isEqualTo(9);
        queue.endBulk();
        queue.add(entry("d", 11), 11);
        assertThat(store.approximateNumEntries()).isEqualTo(4); // outside a run, an add is written at once
        List<Bytes> out = new ArrayList<>();
        queue.poll(9, 10, out);
        assertThat(out)
                .containsExactly(Bytes.wrap(entry("b", 3)), Bytes.wrap(entry("a", 5)), Bytes.wrap(entry("c", 9)));
    }

    @Test
    void shouldRefuseANonPositiveSegment() {
        assertThatThrownBy(() -> new HeapTimeQueue(CODEC, 0)).hasMessageContaining("segmentMs must be positive: 0");
    }

    @Test
    void shouldSortOffsetsAsASortedListWould() {
        SplittableRandom random = new SplittableRandom(3);
        for (int n : new int[] {0, 1, 2, 15, 16, 17, 100, 1_000}) {
            int[] a = new int[n];
            for (int i = 0; i < n; i++) {
                a[i] = random.nextInt(50);
            }
            int[] expected = a.clone();
            Arrays.sort(expected);
            HeapTimeQueue.OffsetSort.sort(a, Integer::compare);
            assertThat(a).containsExactly(expected);
        }
    }
}
