package dev.rtmstreams.join.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/**
 * {@link HeapTimeIndex} against a reference model: a sorted set of the rows' index keys, the order the store-backed
 * index ({@link StoreTimeIndex}) keeps, polled up to a time with a budget as eviction does.
 */
class HeapTimeIndexTest {

    /** The model: index keys in byte order, as in the index store. */
    private static final class Model {
        final TreeSet<Bytes> keys = new TreeSet<>();

        void add(byte[] bufferKey) {
            keys.add(Codec.indexKeyFromBufferKey(bufferKey));
        }

        boolean poll(long maxTime, int max, List<Bytes> out) {
            Iterator<Bytes> it = keys.headSet(Codec.indexUpperBound(maxTime)).iterator();
            int n = 0;
            while (n < max && it.hasNext()) {
                out.add(Codec.bufferKeyFromIndexKey(it.next().get()));
                it.remove();
                n++;
            }
            return it.hasNext();
        }

        long oldest() {
            return keys.isEmpty()
                    ? Long.MAX_VALUE
                    : Codec.indexKeyTime(keys.first().get());
        }

        long newest() {
            return keys.isEmpty() ? Codec.NONE : Codec.indexKeyTime(keys.last().get());
        }
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldPollRowsInIndexKeyOrderAsTheReferenceModelAcrossRandomInsertsAndEvictions() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            long segmentMs = 1 + random.nextLong(3_000);
            HeapTimeIndex index = new HeapTimeIndex(segmentMs);
            Model model = new Model();
            long seq = 0;
            long watermark = -5_000 + random.nextLong(10_000); // negative times too
            for (int step = 0; step < 400; step++) {
                int adds = random.nextInt(60);
                for (int i = 0; i < adds; i++) {
                    // mostly ahead of the watermark, some far ahead, some at the same time and key (seq orders them)
                    long t = watermark + random.nextLong(-200, 8_000);
                    String k = random.nextInt(4) == 0 ? "k" : "key-" + random.nextInt(50);
                    byte[] bufferKey = Codec.bufferKey(key(k), t, seq++).get();
                    index.add(bufferKey, t);
                    model.add(bufferKey);
                }
                watermark += random.nextLong(0, 400);
                int budget = 1 + random.nextInt(80);
                List<Bytes> got = new ArrayList<>();
                List<Bytes> expected = new ArrayList<>();
                boolean more = index.poll(index.oldest(), watermark, budget, got);
                boolean expectedMore = model.poll(watermark, budget, expected);
                assertThat(got).as("seed %d step %d", seed, step).isEqualTo(expected);
                assertThat(more).as("seed %d step %d: more", seed, step).isEqualTo(expectedMore);
                assertThat(index.oldest()).isEqualTo(model.oldest());
                assertThat(index.newest()).isEqualTo(model.newest());
                assertThat(index.size()).isEqualTo(model.keys.size());
            }
        }
    }

    @Test
    void shouldOrderRowsOfOneTimeByKeyLengthThenKeyBytesUnsignedThenSequence() {
        HeapTimeIndex index = new HeapTimeIndex();
        byte[] high = {(byte) 0xF0};
        byte[] low = {0x10};
        byte[] longer = {0x00, 0x00};
        index.add(Codec.bufferKey(longer, 5, 1).get(), 5);
        index.add(Codec.bufferKey(high, 5, 2).get(), 5);
        index.add(Codec.bufferKey(low, 5, 4).get(), 5);
        index.add(Codec.bufferKey(low, 5, 3).get(), 5);
        index.add(Codec.bufferKey(low, 4, 9).get(), 4);
        List<Bytes> out = new ArrayList<>();
        assertThat(index.poll(Long.MIN_VALUE, 5, 10, out)).isFalse();
        assertThat(out)
                .containsExactly(
                        Codec.bufferKey(low, 4, 9),
                        Codec.bufferKey(low, 5, 3),
                        Codec.bufferKey(low, 5, 4),
                        Codec.bufferKey(high, 5, 2),
                        Codec.bufferKey(longer, 5, 1));
        assertThat(index.oldest()).isEqualTo(Long.MAX_VALUE);
        assertThat(index.newest()).isEqualTo(Codec.NONE);
    }

    @Test
    void shouldKeepRowsAddedToASegmentAfterItWasPartlyEvicted() {
        HeapTimeIndex index = new HeapTimeIndex(1_000);
        index.add(Codec.bufferKey(key("a"), 100, 1).get(), 100);
        index.add(Codec.bufferKey(key("a"), 900, 2).get(), 900);
        List<Bytes> out = new ArrayList<>();
        assertThat(index.poll(Long.MIN_VALUE, 500, 10, out)).isFalse();
        assertThat(out).containsExactly(Codec.bufferKey(key("a"), 100, 1));
        index.add(Codec.bufferKey(key("b"), 600, 3).get(), 600);
        out.clear();
        assertThat(index.poll(Long.MIN_VALUE, 1_000, 1, out)).isTrue();
        assertThat(out).containsExactly(Codec.bufferKey(key("b"), 600, 3));
        out.clear();
        assertThat(index.poll(Long.MIN_VALUE, 1_000, 1, out)).isFalse();
        assertThat(out).containsExactly(Codec.bufferKey(key("a"), 900, 2));
    }

    @Test
    void shouldHoldABufferedRowInAboutItsKeyPlusTwentyFiveBytes() {
        HeapTimeIndex index = new HeapTimeIndex();
        int rows = 100_000;
        String key = "imp-0123456789abcdef"; // 20 bytes
        for (int i = 0; i < rows; i++) {
            long t = i / 10; // 10 000 rows per second of event time: 10 segments
            index.add(Codec.bufferKey(key(key + (i % 10)), t, i).get(), t);
        }
        // 4 (length) + 1 (tag) + 4 (key length) + 21 (key) + 16 (time, seq) = 46 bytes, plus the arrays' growth slack
        long perRow = index.retainedBytes() / rows;
        assertThat(perRow).isBetween(46L, 70L);
        // sorting for eviction compacts a segment to its rows
        index.poll(Long.MIN_VALUE, 999, 1, new ArrayList<>());
        assertThat(index.retainedBytes()).isLessThanOrEqualTo((long) rows * 70);
    }

    @Test
    void shouldForgetEverythingOnClear() {
        HeapTimeIndex index = new HeapTimeIndex();
        index.add(Codec.bufferKey(key("a"), 1, 1).get(), 1);
        index.clear();
        assertThat(index.size()).isZero();
        assertThat(index.oldest()).isEqualTo(Long.MAX_VALUE);
        index.add(Codec.bufferKey(key("b"), 1, 2).get(), 1);
        List<Bytes> out = new ArrayList<>();
        index.poll(Long.MIN_VALUE, 1, 10, out);
        assertThat(out).containsExactly(Codec.bufferKey(key("b"), 1, 2));
    }

    @Test
    void shouldRefuseANonPositiveSegment() {
        assertThatThrownBy(() -> new HeapTimeIndex(0)).hasMessageContaining("segmentMs must be positive: 0");
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
            HeapTimeIndex.OffsetSort.sort(a, Integer::compare);
            assertThat(a).containsExactly(expected);
        }
    }
}
