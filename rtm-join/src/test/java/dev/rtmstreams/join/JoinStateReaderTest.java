package dev.rtmstreams.join;

import static dev.rtmstreams.join.JoinHarness.t;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.join.JoinStateReader.JoinSide;
import dev.rtmstreams.join.JoinStateReader.Row;
import dev.rtmstreams.join.JoinStateReader.Watermarks;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.spi.StoreCopies;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The join state reader (Spark's state data source with {@code joinSide}) on TopologyTestDriver stores of both
 * backends and on the replayed changelogs: rows per side with their event times, matched flags, evictions (also of
 * rows still stored at or below the eviction marker) and the watermarks.
 */
class JoinStateReaderTest {

    private static byte[] key(String k) {
        return k.getBytes(StandardCharsets.UTF_8);
    }

    private static KeyValueStore<Bytes, byte[]> store(JoinHarness h, String name) {
        return h.driver.getKeyValueStore(name);
    }

    private static JoinStateReader reader(JoinHarness h) {
        return JoinStateReader.of(
                h.join,
                store(h, h.join.leftBufferStoreName()),
                store(h, h.join.rightBufferStoreName()),
                store(h, h.join.metaStoreName()));
    }

    private static NavigableMap<Bytes, byte[]> entries(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        NavigableMap<Bytes, byte[]> m = new TreeMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            it.forEachRemaining(kv -> m.put(kv.key, kv.value));
        }
        return m;
    }

    private static List<KeyValue<Bytes, byte[]>> changelog(JoinHarness h, String store) {
        return h.changelog(store).stream()
                .map(r -> KeyValue.pair(Bytes.wrap(r.key()), r.value()))
                .toList();
    }

    private static Row row(String key, long eventTime, boolean matched, String value) {
        return new Row(key, eventTime, eventTime, matched, value); // the harness's event time is the record timestamp
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldShowEachSidesRowsWithTheirEventTimesAndTheWatermarksWhenRowsAreBuffered(StoreBackend backend) {
        try (JoinHarness h =
                new JoinHarness(IntervalJoinTest.seed(JoinType.INNER).andThen(b -> b.storeBackend(backend)))) {
            h.left("k", "I1", t(Duration.ZERO));
            h.right("k", "C1", t(ofMinutes(1)));
            h.left("n", "I2", t(ofSeconds(30)));
            assertThat(h.outValues()).containsExactly("I1,C1");

            JoinStateReader reader = reader(h);
            JoinStateReader.KeyState k = reader.read(key("k")).orElseThrow();

            assertThat(k.key()).isEqualTo("k");
            assertThat(k.left()).containsExactly(row("k", t(Duration.ZERO), false, "I1"));
            // C1 matched I1 on arrival
            assertThat(k.right()).containsExactly(row("k", t(ofMinutes(1)), true, "C1"));
            // each input's max event time, and the global watermark min(30s, 1m) - 5m
            Watermarks expected = new Watermarks(t(ofSeconds(30)), t(ofMinutes(1)), t(ofSeconds(30)) - 300_000);
            assertThat(k.watermarks()).isEqualTo(expected);
            assertThat(reader.watermarks()).contains(expected);
            assertThat(reader.rows(JoinSide.LEFT))
                    .containsExactly(row("k", t(Duration.ZERO), false, "I1"), row("n", t(ofSeconds(30)), false, "I2"));
            assertThat(reader.rows(JoinSide.RIGHT)).containsExactly(row("k", t(ofMinutes(1)), true, "C1"));
            assertThat(reader.readAll())
                    .extracting(JoinStateReader.KeyState::key)
                    .containsExactly("k", "n");
            assertThat(reader.read(key("none"))).isEmpty();
            assertThat(JoinStateReader.toJson(k))
                    .isEqualTo("{\"key\":\"k\",\"partition\":null,\"watermarks\":{\"leftMaxEventTime\":"
                            + t(ofSeconds(30)) + ",\"rightMaxEventTime\":" + t(ofMinutes(1))
                            + ",\"globalWatermark\":" + (t(ofSeconds(30)) - 300_000) + "},\"left\":[{\"eventTime\":"
                            + t(Duration.ZERO) + ",\"recordTimestamp\":" + t(Duration.ZERO)
                            + ",\"matched\":false,\"value\":\"I1\"}],\"right\":[{\"eventTime\":" + t(ofMinutes(1))
                            + ",\"recordTimestamp\":" + t(ofMinutes(1)) + ",\"matched\":true,\"value\":\"C1\"}]}");
        }
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldShowTheMatchedFlagWhenARowOfAnOuterJoinMatches(StoreBackend backend) {
        try (JoinHarness h =
                new JoinHarness(IntervalJoinTest.seed(JoinType.LEFT_OUTER).andThen(b -> b.storeBackend(backend)))) {
            h.left("k", "I1", t(Duration.ZERO));
            h.left("k", "I2", t(ofMinutes(5)));
            JoinStateReader reader = reader(h);
            assertThat(reader.rows(JoinSide.LEFT)).extracting(Row::matched).containsExactly(false, false);

            h.right("k", "C1", t(ofMinutes(1)));

            assertThat(reader.rows(JoinSide.LEFT))
                    .containsExactly(row("k", t(Duration.ZERO), true, "I1"), row("k", t(ofMinutes(5)), false, "I2"));
        }
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldNotShowEvictedRowsWhenTheWatermarkPassedThemAlsoWhileTheyAreStillStored(StoreBackend backend) {
        try (JoinHarness h =
                new JoinHarness(IntervalJoinTest.seed(JoinType.INNER).andThen(b -> b.storeBackend(backend)))) {
            h.left("k", "I1", t(Duration.ZERO));
            h.right("k", "C1", t(ofMinutes(1)));
            NavigableMap<Bytes, byte[]> leftBefore = entries(store(h, h.join.leftBufferStoreName()));
            NavigableMap<Bytes, byte[]> rightBefore = entries(store(h, h.join.rightBufferStoreName()));
            assertThat(reader(h).read(key("k"))).isPresent();

            // global watermark min(8m, 8m) - 5m = 3m: I1 (0 + 2m < 3m) and C1 (1m < 3m) are evicted
            h.left("n", "I4", t(ofMinutes(8)));
            h.right("n", "C4", t(ofMinutes(8)));
            h.tick(ofSeconds(1));
            assertThat(h.leftRows()).isEqualTo(1);

            JoinStateReader reader = reader(h);
            assertThat(reader.read(key("k"))).isEmpty();
            assertThat(reader.read(key("n")).orElseThrow().left())
                    .containsExactly(row("n", t(ofMinutes(8)), false, "I4"));
            assertThat(reader.watermarks()).contains(new Watermarks(t(ofMinutes(8)), t(ofMinutes(8)), t(ofMinutes(3))));

            // a copy still holding the evicted rows (as a restored or standby copy does until its sweep): the markers
            // cover them, so they are not shown
            NavigableMap<Bytes, byte[]> left = entries(store(h, h.join.leftBufferStoreName()));
            NavigableMap<Bytes, byte[]> right = entries(store(h, h.join.rightBufferStoreName()));
            left.putAll(leftBefore);
            right.putAll(rightBefore);
            assertThat(left).hasSize(3); // I1, I4 and the marker
            JoinStateReader copy = JoinStateReader.of(
                    h.join, StoreCopies.of(left), StoreCopies.of(right), store(h, h.join.metaStoreName()));
            assertThat(copy.read(key("k"))).isEmpty();
            assertThat(copy.readAll()).isEqualTo(reader.readAll());
        }
    }

    @Test
    void shouldDeriveTheWatermarksFromTheRowsWhenTheMetaStoreIsNotAtHandAndTheJoinDoesSoItself() {
        try (JoinHarness h = new JoinHarness(IntervalJoinTest.seed(JoinType.INNER))) {
            h.left("k", "I1", t(ofMinutes(1)));
            h.right("k", "C1", t(ofMinutes(2)));
            JoinStateReader withoutMeta = JoinStateReader.of(
                    h.join, store(h, h.join.leftBufferStoreName()), store(h, h.join.rightBufferStoreName()), null);

            assertThat(withoutMeta.watermarks())
                    .contains(new Watermarks(t(ofMinutes(1)), t(ofMinutes(2)), t(ofMinutes(1)) - 300_000))
                    .isEqualTo(reader(h).watermarks());
        }
    }

    @Test
    void shouldNotGuessTheWatermarksWhenTheMetaStoreIsNotAtHandAndTheRowsCannotProveThem() {
        // policy MAX: the join persists every watermark change, its rows do not determine the watermark
        try (JoinHarness h = new JoinHarness(
                IntervalJoinTest.seed(JoinType.INNER).andThen(b -> b.watermarkPolicy(WatermarkPolicy.MAX)))) {
            h.left("k", "I1", t(ofMinutes(1)));
            JoinStateReader withoutMeta = JoinStateReader.of(
                    h.join, store(h, h.join.leftBufferStoreName()), store(h, h.join.rightBufferStoreName()), null);

            assertThat(withoutMeta.watermarks()).isEmpty();
            assertThat(withoutMeta.read(key("k")).orElseThrow().watermarks()).isNull();
            assertThat(reader(h).watermarks())
                    .contains(new Watermarks(t(ofMinutes(1)), null, t(ofMinutes(1)) - 300_000));
        }
    }

    @Test
    void shouldNotGuessTheWatermarksWhenTheMetaStoreIsNotAtHandAndASideDropsCopiesById() {
        // a copy dropped by id may raise its side's max without being buffered: the rows do not prove the max
        try (JoinHarness h = new JoinHarness(
                IntervalJoinTest.seed(JoinType.INNER).andThen(b -> b.leftDistinctBy((k, v) -> v, Serdes.String())))) {
            h.left("k", "I1", t(ofMinutes(1)));
            h.left("k", "I1", t(ofMinutes(2))); // a copy of I1 by id, dropped
            h.right("k", "C1", t(ofMinutes(2)));
            JoinStateReader withoutMeta = JoinStateReader.of(
                    h.join, store(h, h.join.leftBufferStoreName()), store(h, h.join.rightBufferStoreName()), null);

            assertThat(withoutMeta.watermarks()).isEmpty();
            assertThat(reader(h).watermarks())
                    .contains(new Watermarks(t(ofMinutes(2)), t(ofMinutes(2)), t(ofMinutes(2)) - 300_000));
        }
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldReadTheSameStateFromTheChangelogsWhenBatchesAreExpandedAndTheMarkerHonoured(StoreBackend backend) {
        // micro-batch: a batch inserts several rows at once, which reach the changelog as one row batch record
        try (JoinHarness h = new JoinHarness(IntervalJoinTest.seed(JoinType.INNER)
                .andThen(b -> b.storeBackend(backend).executionMode(ExecutionMode.MICRO_BATCH)))) {
            h.left("k", "I1", t(Duration.ZERO));
            h.left("k", "I2", t(ofSeconds(10)));
            h.left("m", "M1", t(ofSeconds(30)));
            h.right("k", "C1", t(ofMinutes(1)));
            h.tick(ofSeconds(1));
            // next batch: both inputs at 10m; at its end the watermark is 5m, and the batch after it, which runs with
            // that watermark, evicts k's and m's rows
            h.left("n", "I4", t(ofMinutes(10)));
            h.right("n", "C4", t(ofMinutes(10)));
            h.tick(ofSeconds(1));
            h.left("n", "I5", t(ofMinutes(10).minusSeconds(1)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("I1,C1", "I2,C1", "I4,C4", "I5,C4");

            List<KeyValue<Bytes, byte[]>> left = changelog(h, h.join.leftBufferStoreName());
            List<KeyValue<Bytes, byte[]>> right = changelog(h, h.join.rightBufferStoreName());
            List<KeyValue<Bytes, byte[]>> meta = changelog(h, h.join.metaStoreName());
            // the changelog holds the evicted rows (no tombstones), in a batch record of three rows
            assertThat(left).noneMatch(kv -> kv.value == null);
            assertThat(left)
                    .filteredOn(kv -> kv.key.get()[0] == 3)
                    .extracting(kv -> ByteBuffer.wrap(kv.value).getInt())
                    .contains(3);

            JoinStateReader replayed = JoinStateReader.ofChangelogs(h.join, 0, left, right, meta);
            List<JoinStateReader.KeyState> all = replayed.readAll();

            assertThat(all).extracting(JoinStateReader.KeyState::key).containsExactly("n");
            assertThat(all.get(0).left())
                    .containsExactly(
                            row("n", t(ofMinutes(10).minusSeconds(1)), true, "I5"),
                            row("n", t(ofMinutes(10)), false, "I4"));
            assertThat(all.get(0).partition()).isZero();
            assertThat(replayed.watermarks())
                    .contains(new Watermarks(t(ofMinutes(10)), t(ofMinutes(10)), t(ofMinutes(5))));
            assertThat(all)
                    .extracting(JoinStateReaderTest::withoutPartition)
                    .isEqualTo(reader(h).readAll());
        }
    }

    private static JoinStateReader.KeyState withoutPartition(JoinStateReader.KeyState s) {
        return new JoinStateReader.KeyState(s.key(), null, s.left(), s.right(), s.watermarks());
    }

    @Test
    void shouldShowUndecodableValuesAsBase64WhenTheDeserializerFails() {
        try (JoinHarness h = new JoinHarness(IntervalJoinTest.seed(JoinType.INNER))) {
            h.left("k", "I1", t(Duration.ZERO));
            JoinStateReader reader = reader(h).withDeserializer(JoinSide.LEFT, (topic, bytes) -> {
                throw new IllegalArgumentException("not decodable");
            });

            assertThat(reader.rows(JoinSide.LEFT))
                    .extracting(Row::value)
                    .containsExactly(new dev.rtmstreams.processor.StateReader.Base64Value("STE="));
            assertThat(reader.withKeyDeserializer(Serdes.ByteArray().deserializer())
                            .rows(JoinSide.LEFT)
                            .get(0)
                            .key())
                    .isInstanceOf(byte[].class);
        }
    }
}
