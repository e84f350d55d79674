package dev.rtmstreams.join.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BufferKeyFilterTest {

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldNeverDenyAKeyAddedInTheProbedRangeAndRarelyAdmitOneThatIsAbsent() {
        BufferKeyFilter filter = new BufferKeyFilter(30_000);
        SplittableRandom random = new SplittableRandom(7);
        Map<String, Long> added = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            long t = 1_000_000L + random.nextLong(600_000);
            String k = "imp-" + i;
            filter.add(key(k), t);
            added.put(k, t);
        }
        // the reference model: a key is present at its time; every probe covering that time must say "maybe"
        added.forEach((k, t) -> {
            assertThat(filter.mightContain(key(k), t, t)).isTrue();
            assertThat(filter.mightContain(key(k), t - 120_000, t + 1)).isTrue();
        });
        int falsePositives = 0;
        for (int i = 0; i < 100_000; i++) {
            long t = 1_000_000L + random.nextLong(600_000);
            if (filter.mightContain(key("absent-" + i), t - 120_000, t)) {
                falsePositives++;
            }
        }
        // every segment was created before the rate was known (random order), at the smallest size: still < 1%
        assertThat(falsePositives).isLessThan(1_000);
    }

    @Test
    void shouldSizeLaterSegmentsForTheRateSeenWhenKeysArriveInTimeOrder() {
        BufferKeyFilter filter = new BufferKeyFilter(30_000);
        SplittableRandom random = new SplittableRandom(11);
        int n = 2_000_000; // 10 minutes at 3 333 keys/s: 100 000 keys per segment, above the smallest size
        for (int i = 0; i < n; i++) {
            long t = i * 300L + random.nextLong(2_000); // a stream: in time order, up to 2 s out of order
            filter.add(key("imp-" + i), t);
            if (i % 997 == 0) {
                assertThat(filter.mightContain(key("imp-" + i), t - 120_000, t)).isTrue();
            }
        }
        int falsePositives = 0;
        for (int i = 0; i < 100_000; i++) {
            long t = 300_000L + random.nextLong(300_000); // probes over the later segments
            if (filter.mightContain(key("absent-" + i), t, t + 120_000)) {
                falsePositives++;
            }
        }
        assertThat(falsePositives).isLessThan(5_000); // ~5 segments per probe at ~1% each
    }

    @Test
    void shouldKeepFalsePositivesLowInAFirstSegmentThatOutgrowsItsSize() {
        // A fresh filter (a new task, or one rebuilt from a restored buffer) sizes its first segment before any rate
        // is known. 1.2 million keys in that one segment (40 000 keys/s for 30 s) are 46 times its first size.
        BufferKeyFilter filter = new BufferKeyFilter(30_000);
        SplittableRandom random = new SplittableRandom(13);
        int n = 1_200_000;
        for (int i = 0; i < n; i++) {
            filter.add(key("imp-" + i), random.nextLong(30_000));
        }
        for (int i = 0; i < n; i += 101) {
            assertThat(filter.mightContain(key("imp-" + i), 0, 29_999)).isTrue();
        }
        int falsePositives = 0;
        for (int i = 0; i < 100_000; i++) {
            if (filter.mightContain(key("absent-" + i), 0, 29_999)) {
                falsePositives++;
            }
        }
        // a slice per growth step (~1% each when full): 4 slices; one Bloom filter of the first size says "maybe" to
        // all
        assertThat(falsePositives).isLessThan(5_000);
        assertThat(filter.sliceCount(0)).isEqualTo(4);
    }

    @Test
    void shouldDenyKeysOutsideTheProbedTimesAndAfterTheirSegmentsWereDropped() {
        BufferKeyFilter filter = new BufferKeyFilter(1000);
        filter.add(key("a"), 5_500);
        filter.add(key("b"), 9_200);

        assertThat(filter.mightContain(key("a"), 5_000, 5_999)).isTrue();
        assertThat(filter.mightContain(key("a"), 7_000, 9_999)).isFalse(); // no row in segments 7-9 holds it... or any
        assertThat(filter.mightContain(key("a"), 10_000, 20_000)).isFalse(); // no segment there at all
        assertThat(filter.mightContain(key("a"), 6_000, 5_000)).isFalse(); // empty range

        filter.dropBefore(9_000); // every row before 9 000 was evicted: segments up to [8 000, 9 000) go
        assertThat(filter.segmentCount()).isEqualTo(1);
        assertThat(filter.mightContain(key("a"), 0, 9_100)).isFalse();
        assertThat(filter.mightContain(key("b"), 9_000, 9_999)).isTrue();
        assertThat(filter.mightContain(key("b"), Long.MIN_VALUE, Long.MAX_VALUE))
                .isTrue();
    }

    @Test
    void shouldSizeSegmentsForAboutTwoPerJoinBoundAndTwoPerLiveSpan() {
        assertThat(BufferKeyFilter.segmentMsFor(0, 120_000)).isEqualTo(60_000);
        assertThat(BufferKeyFilter.segmentMsFor(-10, 10)).isEqualTo(1000);
        assertThat(BufferKeyFilter.segmentMsFor(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(24L * 3600 * 1000);
        // the attribution join's impressions: 5 minutes of watermark delay + 2 minutes of window
        assertThat(BufferKeyFilter.segmentMsForLiveSpan(420_000, 60_000)).isEqualTo(210_000);
        assertThat(BufferKeyFilter.segmentMsForLiveSpan(1_000, 60_000)).isEqualTo(60_000);
        assertThat(BufferKeyFilter.segmentMsForLiveSpan(Long.MAX_VALUE, 60_000)).isEqualTo(24L * 3600 * 1000);
    }

    @Test
    void shouldAnswerLikeAModelOfSegmentsCreatedInAnyOrderAndDroppedFromTheOldest() {
        // model: every added (key, time) that has not been dropped; a probe must say "maybe" whenever the model holds
        // the key in the probed range, and "no" whenever no segment overlapping the range was ever created
        BufferKeyFilter filter = new BufferKeyFilter(1_000);
        SplittableRandom random = new SplittableRandom(17);
        Map<Integer, java.util.List<Long>> model = new HashMap<>();
        long dropped = Long.MIN_VALUE;
        for (int step = 0; step < 20_000; step++) {
            int k = random.nextInt(500);
            if (random.nextInt(100) == 0) {
                long before = dropped == Long.MIN_VALUE ? 10_000 : dropped + random.nextLong(3_000);
                filter.dropBefore(before);
                long firstKept = Math.floorDiv(before, 1_000) * 1_000;
                dropped = Math.max(dropped, firstKept);
                long limit = dropped;
                model.values().forEach(times -> times.removeIf(t -> t < limit));
            } else {
                long t = (dropped == Long.MIN_VALUE ? 0 : dropped) + random.nextLong(40_000);
                filter.add(key("k" + k), t);
                model.computeIfAbsent(k, x -> new java.util.ArrayList<>()).add(t);
            }
            long from = random.nextLong(200_000) - 20_000;
            long to = from + random.nextLong(8_000);
            boolean held = model.getOrDefault(k, java.util.List.of()).stream().anyMatch(t -> t >= from && t <= to);
            if (held) {
                assertThat(filter.mightContain(key("k" + k), from, to))
                        .as("step %d", step)
                        .isTrue();
            }
        }
        assertThat(filter.segmentCount()).isLessThanOrEqualTo(41);
        assertThat(filter.mightContain(key("k1"), dropped - 100_000, dropped - 1))
                .isFalse();
    }

    @Test
    void shouldHashAKeyIdPairApartFromEveryOtherSplitOfTheSameBytes() {
        byte[] ab = "ab".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] c = "c".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] a = "a".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] bc = "bc".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(BufferKeyFilter.hash(ab, c)).isNotEqualTo(BufferKeyFilter.hash(a, bc));
        assertThat(BufferKeyFilter.hash(ab, c)).isEqualTo(BufferKeyFilter.hash(ab.clone(), c.clone()));

        BufferKeyFilter filter = new BufferKeyFilter(1000);
        filter.add(BufferKeyFilter.hash(ab, c), 5_000);
        assertThat(filter.mightContain(BufferKeyFilter.hash(ab, c), Long.MIN_VALUE, Long.MAX_VALUE))
                .isTrue();
        filter.dropBefore(6_000);
        assertThat(filter.mightContain(BufferKeyFilter.hash(ab, c), Long.MIN_VALUE, Long.MAX_VALUE))
                .isFalse();
    }
}
