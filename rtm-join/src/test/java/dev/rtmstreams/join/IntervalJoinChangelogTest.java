package dev.rtmstreams.join;

import static dev.rtmstreams.join.JoinHarness.t;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.StoreBackend;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What an interval join writes to its buffer changelogs: evicted rows get no tombstone (the changelog keeps them for
 * a bounded time, like a windowed store's), and one eviction marker per pass records up to where every row is gone.
 */
class IntervalJoinChangelogTest {

    private static final byte[] MARKER_KEY = {2};

    private static List<Long> markers(List<TestRecord<byte[], byte[]>> records) {
        return records.stream()
                .filter(r -> java.util.Arrays.equals(r.key(), MARKER_KEY))
                .map(r -> ByteBuffer.wrap(r.value()).getLong())
                .toList();
    }

    /** @return the rows written in the changelog's row batches (key 0x03), in order */
    private static List<byte[]> batchedRows(List<TestRecord<byte[], byte[]>> records) {
        List<byte[]> rows = new java.util.ArrayList<>();
        for (TestRecord<byte[], byte[]> r : records) {
            if (r.key()[0] == 3) {
                ByteBuffer b = ByteBuffer.wrap(r.value());
                for (int n = b.getInt(); n > 0; n--) {
                    byte[] key = new byte[b.getInt()];
                    b.get(key);
                    b.position(b.position() + b.getInt());
                    rows.add(key);
                }
            }
        }
        return rows;
    }

    private static long tombstones(List<TestRecord<byte[], byte[]>> records) {
        return records.stream().filter(r -> r.value() == null).count();
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldEvictWithoutTombstonesAndMarkWhereEvictionStandsWhenTheWatermarkPassesRows(StoreBackend backend) {
        try (JoinHarness h =
                new JoinHarness(IntervalJoinTest.seed(JoinType.INNER).andThen(b -> b.storeBackend(backend)))) {
            h.left("k", "I1", t(Duration.ZERO));
            h.left("k", "I2", t(ofSeconds(10)));
            h.left("k", "I3", t(ofSeconds(20)));
            h.right("k", "C1", t(ofMinutes(1)));
            // global watermark min(8m, 8m) - 5m = 3m: I1..I3 (t + 2m < 3m) and C1 (1m < 3m) are evictable
            h.left("n", "I4", t(ofMinutes(8)));
            h.right("n", "C4", t(ofMinutes(8)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("I1,C1", "I2,C1", "I3,C1", "I4,C4");
            assertThat(h.leftRows()).isEqualTo(1);
            assertThat(h.rightRows()).isEqualTo(1);

            List<TestRecord<byte[], byte[]>> left = h.changelog(h.join.leftBufferStoreName());
            List<TestRecord<byte[], byte[]>> right = h.changelog(h.join.rightBufferStoreName());
            assertThat(tombstones(left)).isZero();
            assertThat(tombstones(right)).isZero();
            // every row was written once, in a row batch (the driver commits after each input: one row per batch), none
            // on its own; the markers: left rows gone through 1m - 1 ms (the latest evictable left time at a 3 min
            // watermark, t + 2m < 3m), right rows through 3m - 1 ms
            assertThat(left).filteredOn(r -> r.key()[0] == 0).isEmpty();
            assertThat(batchedRows(left)).hasSize(4);
            assertThat(batchedRows(right)).hasSize(2);
            assertThat(markers(left)).containsExactly(t(ofMinutes(1)) - 1);
            assertThat(markers(right)).containsExactly(t(ofMinutes(3)) - 1);
        }
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldDeleteThroughTheChangelogWhenARowIsEvictedAboveTheWatermark(StoreBackend backend) {
        // right.time in [left.time - 3m, left.time - 1m]: a left row is evictable once wm > t - 1m, so a row up to
        // 1 min ahead of the watermark can be evicted; the marker never passes the watermark (a later row may still be
        // inserted there), so such a row's delete goes through the changelog
        try (JoinHarness h = new JoinHarness(b -> b.lowerBound(ofMinutes(-3))
                .upperBound(ofMinutes(-1))
                .leftWatermarkDelay(ofMinutes(5))
                .rightWatermarkDelay(ofMinutes(5))
                .joinType(JoinType.LEFT_OUTER)
                .storeBackend(backend))) {
            h.left("a", "A", t(ofMinutes(1)));
            h.right("b", "B", t(ofMinutes(1)));
            // watermark 10m - 5m = 5m: A (1m) is behind it; a left row at 5m + 30s is not late but already evictable
            h.left("x", "X", t(ofMinutes(10)));
            h.right("x", "X'", t(ofMinutes(10)));
            h.left("e", "E", t(ofMinutes(5).plusSeconds(30)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("A,null", "E,null");

            List<TestRecord<byte[], byte[]>> left = h.changelog(h.join.leftBufferStoreName());
            assertThat(tombstones(left)).isEqualTo(1); // E's: above the watermark
            assertThat(markers(left)).last().isEqualTo(t(ofMinutes(5)));
        }
    }
}
