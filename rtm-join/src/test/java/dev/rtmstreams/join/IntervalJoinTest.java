package dev.rtmstreams.join;

import static dev.rtmstreams.join.JoinHarness.t;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StoreBackend;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class IntervalJoinTest {

    /** Seed 001: impression_time <= click_time <= impression_time + 2 min, watermark delay 5 min on both. */
    static Consumer<IntervalJoin.Builder<String, String, String>> seed(JoinType type) {
        return b -> b.lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(2))
                .leftWatermarkDelay(ofMinutes(5))
                .rightWatermarkDelay(ofMinutes(5))
                .joinType(type);
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldMatchClicksInsideTheBoundInclusiveWhenImpressionComesFirst(StoreBackend backend) {
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER).andThen(b -> b.storeBackend(backend)))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.right("imp1", "C-in", t(ofMinutes(1)));
            h.right("imp1", "C-exact", t(ofMinutes(2)));
            h.right("imp1", "C-past", t(ofMinutes(2).plusMillis(1)));
            h.right("imp1", "C-same", t(Duration.ZERO));
            h.right("imp1", "C-before", t(Duration.ZERO.minusMillis(1)));
            h.right("other", "C-otherkey", t(ofMinutes(1)));

            assertThat(h.outValues()).containsExactly("I1,C-in", "I1,C-exact", "I1,C-same");
        }
    }

    @Test
    void shouldMatchClickThatArrivesBeforeItsImpressionWhenOutOfOrder() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER))) {
            h.right("imp1", "C1", t(ofSeconds(30)));
            h.right("imp1", "C2", t(ofMinutes(3)));
            assertThat(h.outValues()).isEmpty();

            h.left("imp1", "I1", t(Duration.ZERO));

            assertThat(h.outValues()).containsExactly("I1,C1");
        }
    }

    @Test
    void shouldStampOutputWithTheLaterInputTimestampWhenEventTimesComeFromValues() {
        // event time is parsed from the value ("name@millis"), record timestamps differ from event times
        Consumer<IntervalJoin.Builder<String, String, String>> cfg = seed(JoinType.INNER)
                .andThen(b -> b.leftEventTime((k, v, ts) -> Long.parseLong(v.substring(v.indexOf('@') + 1)))
                        .rightEventTime((k, v, ts) -> Long.parseLong(v.substring(v.indexOf('@') + 1))));
        try (JoinHarness h = new JoinHarness(cfg)) {
            h.left("k", "I@" + t(Duration.ZERO), 5_000L);
            h.right("k", "C@" + t(ofMinutes(1)), 3_000L);
            h.left("k", "I2@" + t(ofSeconds(10)), 1_000L);

            List<TestRecord<String, String>> records = h.out.readRecordsToList();
            assertThat(records).extracting(TestRecord::timestamp).containsExactly(5_000L, 3_000L);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = EvictionIndex.class,
            names = {"HEAP", "STATE_STORE"}) // row by row; SEGMENTS below
    void shouldEvictRowsOnceTheGlobalWatermarkPassesTheirBoundWhenBothSidesAdvance(EvictionIndex evictionIndex) {
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER).andThen(b -> b.evictionIndex(evictionIndex)))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.right("imp1", "C1", t(ofMinutes(1)));
            assertThat(h.leftRows()).isEqualTo(1);
            assertThat(h.rightRows()).isEqualTo(1);

            // left wm = 7m+1ms-5m = 2m+1ms > 0 + 2m: I1 evictable once the right side also passes it (policy MIN)
            h.left("imp2", "I2", t(ofMinutes(7).plusMillis(1)));
            assertThat(h.leftRows()).isEqualTo(2);
            h.right("imp2", "C2", t(ofMinutes(7).plusMillis(1)));
            h.tick(ofSeconds(1)); // punctuator evicts the left side too
            assertThat(h.leftRows()).isEqualTo(1); // only I2 left; I1 evicted
            assertThat(h.rightRows()).isEqualTo(1); // C1 (1m) evicted: wm 2m+1ms > 1m - 0
            assertIndexEntries(h, evictionIndex, true, 1);
            assertIndexEntries(h, evictionIndex, false, 1);

            // a click that would have matched I1 is now behind the watermark: nothing, counted as late
            h.right("imp1", "C-late", t(ofMinutes(2)));
            assertThat(h.outValues()).containsExactly("I1,C1", "I2,C2");
            assertThat(h.lateCount()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(StoreBackend.class)
    void shouldEvictAWholeSegmentOnceTheWatermarkHasPassedAllOfItWithSegments(StoreBackend backend) {
        // the seed's bounds [0, 2 min]: 1-minute segments; rows of the left side are evictable 2 min behind the
        // watermark, of the right side at the watermark
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER)
                .andThen(b -> b.evictionIndex(EvictionIndex.SEGMENTS).storeBackend(backend)))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.left("imp1", "I1b", t(ofSeconds(59)));
            h.right("imp1", "C1", t(ofMinutes(1)));
            assertThat(h.leftSegmentRows()).isEqualTo(2);
            assertThat(h.hasStore(JoinHarness.NAME + "-left-index")).isFalse();

            // watermark 2m+1ms: I1 (0) is evictable (0 + 2m < wm), but I1b (59 s) is not, and they share the segment
            // [0, 1 min): it stays whole. C1's segment [1, 2 min) is wholly behind the watermark: deleted.
            h.left("imp2", "I2", t(ofMinutes(7).plusMillis(1)));
            h.right("imp2", "C2", t(ofMinutes(7).plusMillis(1)));
            h.tick(ofSeconds(1));
            assertThat(h.leftRows()).isEqualTo(3);
            assertThat(h.rightRows()).isEqualTo(1);

            // a click at 1m59s is late (behind the watermark), although I1's row is still buffered: no match
            h.right("imp1", "C-late", t(ofMinutes(1).plusSeconds(59)));
            assertThat(h.lateCount()).isEqualTo(1);

            // watermark 3m+1ms: the segment [0, 1 min) ends at 59.999 s + 2 min < wm: deleted whole
            h.left("imp3", "I3", t(ofMinutes(8).plusMillis(1)));
            h.right("imp3", "C3", t(ofMinutes(8).plusMillis(1)));
            h.tick(ofSeconds(1));
            assertThat(h.leftRows()).isEqualTo(2); // I2, I3
            assertThat(h.outValues()).containsExactly("I1,C1", "I1b,C1", "I2,C2", "I3,C3");
        }
    }

    @Test
    void shouldMatchRowsAcrossSegmentsInTimeOrderWithSegments() {
        // bounds [-10 s, 10 s]: 10-second segments; a click's window spans three of them
        Consumer<IntervalJoin.Builder<String, String, String>> cfg = b -> b.lowerBound(ofSeconds(-10))
                .upperBound(ofSeconds(10))
                .leftWatermarkDelay(ofMinutes(1))
                .rightWatermarkDelay(ofMinutes(1))
                .joinType(JoinType.INNER)
                .evictionIndex(EvictionIndex.SEGMENTS);
        try (JoinHarness h = new JoinHarness(cfg)) {
            h.left("k", "A", t(ofSeconds(1)));
            h.left("k", "B", t(ofSeconds(9)));
            h.left("k", "C", t(ofSeconds(10)));
            h.left("k", "D", t(ofSeconds(19)));
            h.left("k", "E", t(ofSeconds(21)));
            h.left("other", "X", t(ofSeconds(12)));
            h.right("k", "R", t(ofSeconds(11))); // matches left rows in [1 s, 21 s]
            assertThat(h.outValues()).containsExactly("A,R", "B,R", "C,R", "D,R", "E,R");
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = EvictionIndex.class,
            names = {"HEAP", "STATE_STORE"}) // row by row; SEGMENTS below
    void shouldReportTheHeapTheTimeIndexHoldsAndReleaseItOnEviction(EvictionIndex evictionIndex) {
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER).andThen(b -> b.evictionIndex(evictionIndex)))) {
            assertThat(h.timeIndexBytes()).isZero();
            h.left("imp1", "I1", t(Duration.ZERO));
            h.right("imp1", "C1", t(ofMinutes(1)));
            long twoRows = h.timeIndexBytes();
            h.left("imp2", "I2", t(ofMinutes(7).plusMillis(1)));
            h.right("imp2", "C2", t(ofMinutes(7).plusMillis(1)));
            long fourRows = h.timeIndexBytes();
            h.tick(ofSeconds(1)); // I1 and C1 evicted (as in the test above)
            assertThat(h.leftRows()).isEqualTo(1);
            long afterEviction = h.timeIndexBytes();
            if (evictionIndex == EvictionIndex.HEAP) {
                assertThat(twoRows).isPositive();
                assertThat(fourRows).isGreaterThan(twoRows);
                assertThat(afterEviction).isLessThan(fourRows);
            } else {
                assertThat(List.of(twoRows, fourRows, afterEviction)).containsOnly(0L);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = EvictionIndex.class,
            names = {"HEAP", "STATE_STORE"}) // row by row; SEGMENTS below
    void shouldHoldRecordTriggeredEvictionUntilTheEvictableRowsSpanAHundredMillisecondsButNotThePunctuator(
            EvictionIndex evictionIndex) {
        // bounds [0, 0] and no watermark delay: a row is evictable once the watermark (min of both sides) passes it
        Consumer<IntervalJoin.Builder<String, String, String>> cfg = b -> b.lowerBound(Duration.ZERO)
                .upperBound(Duration.ZERO)
                .leftWatermarkDelay(Duration.ZERO)
                .rightWatermarkDelay(Duration.ZERO)
                .joinType(JoinType.INNER)
                .evictionIndex(evictionIndex);
        try (JoinHarness h = new JoinHarness(cfg)) {
            // one row a millisecond on each side (no matches: other keys); a record-triggered pass every 16 left rows,
            // at left row n the watermark is n - 2 (the right side is one row behind) and rows up to n - 3 evictable
            int sent = 0;
            for (; sent < 111; sent++) {
                h.left("l" + sent, "L", t(ofMillis(sent)));
                h.right("r" + sent, "R", t(ofMillis(sent)));
            }
            // passes at left rows 16, 32, ... 96 found at most 94 ms of evictable rows: none evicted
            assertThat(h.leftRows()).isEqualTo(111);
            h.left("l111", "L", t(ofMillis(111)));
            h.right("r111", "R", t(ofMillis(111)));
            sent++;
            // the pass at left row 112 spans 110 ms (rows 0-109): all evicted in one pass
            assertThat(h.leftRows()).isEqualTo(2);
            assertIndexEntries(h, evictionIndex, true, 2);
            for (; sent < 150; sent++) {
                h.left("l" + sent, "L", t(ofMillis(sent)));
                h.right("r" + sent, "R", t(ofMillis(sent)));
            }
            assertThat(h.leftRows()).isEqualTo(40);
            // the wall-clock punctuator evicts whatever is evictable, however little (rows 110-148)
            h.tick(ofSeconds(1));
            assertThat(h.leftRows()).isEqualTo(1);
            assertThat(h.outValues()).isEmpty();
        }
    }

    @Test
    void shouldNotEvictWhenOnlyOneSideAdvancesUnderMinPolicy() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.right("x", "C0", t(Duration.ZERO));
            h.left("imp9", "I9", t(ofHours(1)));
            h.tick(ofSeconds(1));

            assertThat(h.leftRows()).isEqualTo(2);
            h.right("imp1", "C1", t(ofMinutes(2)));
            assertThat(h.outValues()).containsExactly("I1,C1");
        }
    }

    @Test
    void shouldEvictFasterUnderMaxPolicyWhenOnlyOneSideAdvances() {
        try (JoinHarness h =
                new JoinHarness(seed(JoinType.INNER).andThen(b -> b.watermarkPolicy(WatermarkPolicy.MAX)))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.left("imp9", "I9", t(ofHours(1)));
            h.tick(ofSeconds(1));

            assertThat(h.leftRows()).isEqualTo(1);
            h.right("imp1", "C1", t(ofMinutes(2)));
            assertThat(h.outValues()).isEmpty();
            assertThat(h.lateCount()).isEqualTo(1);
        }
    }

    @Test
    void shouldRejectARecordFarAheadOfTheWallClockWithoutMovingTheWatermarkWhenTheGuardTrips() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER))) {
            // one impression and one click ten years ahead, then a normal pair: the normal pair still joins
            h.left("far", "I-far", t(Duration.ofDays(3650)));
            h.right("far", "C-far", t(Duration.ofDays(3650).plusSeconds(1)));
            h.left("k", "I", t(Duration.ZERO));
            h.right("k", "C", t(ofMinutes(1)));

            assertThat(h.outValues()).containsExactly("I,C");
            assertThat(h.lateCount()).isZero();
            assertThat(h.driver.metrics().entrySet().stream()
                            .filter(e -> e.getKey().name().equals(IntervalJoin.FUTURE_RECORDS_TOTAL))
                            .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                            .sum())
                    .isEqualTo(2.0);
            List<TestRecord<String, byte[]>> rejected = h.late.readRecordsToList();
            assertThat(rejected)
                    .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactly("I-far", "C-far");
            assertThat(rejected)
                    .extracting(r -> new String(
                            r.headers()
                                    .lastHeader(IntervalJoin.LATE_REASON_HEADER)
                                    .value(),
                            StandardCharsets.UTF_8))
                    .containsOnly(IntervalJoin.LATE_REASON_TOO_FAR_AHEAD);
        }
    }

    @Test
    void shouldCountLateRecordsAndWriteThemToTheLateTopicWithoutJoiningWhenBehindTheWatermark() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.FULL_OUTER))) {
            h.left("a", "I-new", t(ofMinutes(10)));
            h.right("a", "C-new", t(ofMinutes(10))); // global wm = 5m
            h.outValues();
            h.left("b", "I-late", t(ofMinutes(5).minusMillis(1)));
            h.right("b", "C-late", t(ofMinutes(4))); // would match I-late, but both are late
            h.left("c", "I-at-wm", t(ofMinutes(5))); // exactly on the watermark: late (Spark: t <= wm)
            h.left("c", "I-ontime", t(ofMinutes(5).plusMillis(1))); // 1 ms after the watermark: not late

            assertThat(h.lateCount()).isEqualTo(3);
            List<TestRecord<String, byte[]>> late = h.late.readRecordsToList();
            assertThat(late)
                    .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactly("I-late", "C-late", "I-at-wm");
            assertThat(late)
                    .extracting(r -> new String(
                            r.headers()
                                    .lastHeader(IntervalJoin.LATE_SIDE_HEADER)
                                    .value(),
                            StandardCharsets.UTF_8))
                    .containsExactly("left", "right", "left");
            // advance far: unmatched outer rows come out, but never the late ones
            h.left("z", "I-z", t(ofHours(1)));
            h.right("z", "C-z", t(ofHours(1)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues())
                    .doesNotContain("I-late,null", "null,C-late", "I-late,C-late", "I-at-wm,null")
                    .contains("I-ontime,null")
                    .containsOnlyOnce("I-z,C-z");
            assertThat(h.leftRows() + h.rightRows()).isEqualTo(2);
        }
    }

    @Test
    void shouldEmitUnmatchedLeftRowExactlyOnceAndOnlyAfterTheWatermarkProvesNoMatchWhenLeftOuter() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.LEFT_OUTER))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.left("imp2", "I2", t(Duration.ZERO));
            h.right("imp2", "C2", t(ofMinutes(1)));
            assertThat(h.outValues()).containsExactly("I2,C2");

            // global wm = 7m-1ms - 5m = 2m-1ms: a click at exactly 2m is not late and could still come
            h.left("x", "X", t(ofMinutes(7).minusMillis(1)));
            h.right("y", "Y", t(ofMinutes(7).minusMillis(1)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).isEmpty();
            h.right("imp1", "C1-exact", t(ofMinutes(2)));
            assertThat(h.outValues()).containsExactly("I1,C1-exact");

            h.left("imp3", "I3", t(ofMinutes(7)));
            h.left("x", "X2", t(ofMinutes(7).plusMillis(1)));
            h.right("y", "Y2", t(ofMinutes(7).plusMillis(1))); // wm = 2m+1ms > 2m: I1, I2 evictable (matched)
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).isEmpty();

            h.left("x", "X3", t(ofMinutes(20)));
            h.right("y", "Y3", t(ofMinutes(20)));
            h.tick(ofSeconds(1));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactlyInAnyOrder("I3,null", "X,null", "X2,null");
        }
    }

    @Test
    void shouldEmitUnmatchedRowsOfBothSidesExactlyOnceWhenFullOuter() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.FULL_OUTER))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.right("imp9", "C9", t(ofMinutes(1)));
            h.right("imp1", "C1", t(ofMinutes(1)));
            assertThat(h.outValues()).containsExactly("I1,C1");

            h.left("x", "X", t(ofMinutes(30)));
            h.right("y", "Y", t(ofMinutes(30)));
            h.tick(ofSeconds(1));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("null,C9");
            h.left("x", "X2", t(ofMinutes(60)));
            h.right("y", "Y2", t(ofMinutes(60)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactlyInAnyOrder("X,null", "null,Y");
        }
    }

    @Test
    void shouldEmitUnmatchedRightRowsWhenRightOuter() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.RIGHT_OUTER))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.right("imp9", "C9", t(ofMinutes(1)));
            h.left("x", "X", t(ofMinutes(30)));
            h.right("y", "Y", t(ofMinutes(30)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("null,C9");
        }
    }

    @Test
    void shouldHoldOutputUntilTheBatchEndsWhenMicroBatch() {
        try (JoinHarness h =
                new JoinHarness(seed(JoinType.INNER).andThen(b -> b.executionMode(ExecutionMode.MICRO_BATCH)))) {
            h.left("imp1", "I1", t(Duration.ZERO));
            h.right("imp1", "C1", t(ofMinutes(1)));
            h.right("imp1", "C-past", t(ofMinutes(2).plusMillis(1)));
            assertThat(h.outValues()).isEmpty();

            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("I1,C1");
            assertThat(h.storeSize(JoinHarness.NAME + "-pending")).isZero();
        }
    }

    @Test
    void shouldJudgeLatenessAgainstTheBatchStartWatermarkWhenMicroBatch() {
        try (JoinHarness h =
                new JoinHarness(seed(JoinType.INNER).andThen(b -> b.executionMode(ExecutionMode.MICRO_BATCH)))) {
            // in one batch: both sides jump to 10m, then an older pair arrives: not late within this batch
            h.left("a", "A", t(ofMinutes(10)));
            h.right("a", "A'", t(ofMinutes(10)));
            h.left("b", "B", t(ofMinutes(1)));
            h.right("b", "B'", t(ofMinutes(2)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("A,A'", "B,B'");
            assertThat(h.lateCount()).isZero();

            // the watermark is now 5m; a pass without input (Spark's no-data batch) runs with it and evicts B (1m):
            // 5m > 1m + 2m
            h.tick(ofSeconds(1));
            assertThat(h.leftRows()).isEqualTo(1);

            // next batch: late by the watermark the previous batch (the no-data one) ran with, 5m
            h.right("b", "B''", t(ofMinutes(2)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).isEmpty();
            assertThat(h.lateCount()).isEqualTo(1);
        }
    }

    @Test
    void shouldJoinARowLateByTheCurrentWatermarkButNotByThePreviousBatchsWhenMicroBatch() {
        try (JoinHarness h =
                new JoinHarness(seed(JoinType.INNER).andThen(b -> b.executionMode(ExecutionMode.MICRO_BATCH)))) {
            // batch 1: both inputs at 10m; it runs without a watermark and ends with 5m (delays 5m)
            h.left("a", "A", t(ofMinutes(10)));
            h.right("a", "A'", t(ofMinutes(10)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("A,A'");

            // batch 2 right after (new input, so no no-data batch between): runs with 5m, drops late rows by the
            // previous batch's watermark (none), buffers B at 6m and ends with 15m
            h.left("b", "B", t(ofMinutes(6)));
            h.left("z", "Z", t(ofMinutes(20)));
            h.right("z", "Z'", t(ofMinutes(20)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("Z,Z'");

            // batch 3: the current watermark is 15m, the previous batch ran with 5m: B' at 7m is late by the current
            // watermark but not by the previous batch's, so it is joined (Spark's watermark for late events), and
            // B is still buffered (batch 2 evicted by the 5m it ran with: 5m > 6m + 2m is false)
            h.right("b", "B'", t(ofMinutes(7)));
            // C' at 5m is at the previous batch's watermark: late
            h.right("c", "C'", t(ofMinutes(5)));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).containsExactly("B,B'");
            assertThat(h.lateCount()).isEqualTo(1);
        }
    }

    @Test
    void shouldJudgeLatenessByTheCurrentWatermarkWhenRealTime() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER))) {
            h.left("a", "A", t(ofMinutes(10)));
            h.right("a", "A'", t(ofMinutes(20))); // watermark min(5m, 15m) = 5m
            h.left("z", "Z", t(ofMinutes(20))); // watermark 15m
            h.left("b", "B", t(ofMinutes(6))); // late: 6m <= 15m
            h.right("b", "B'", t(ofMinutes(7))); // late
            assertThat(h.outValues()).isEmpty();
            assertThat(h.lateCount()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void shouldCarryTheHeadersOfTheCompletingRecordWhenPairIsEmitted(ExecutionMode mode) {
        try (JoinHarness h = new JoinHarness(seed(JoinType.INNER).andThen(b -> b.executionMode(mode)))) {
            org.apache.kafka.common.header.internals.RecordHeaders leftHeaders =
                    new org.apache.kafka.common.header.internals.RecordHeaders();
            leftHeaders.add("rtm.lat", "left".getBytes(StandardCharsets.UTF_8));
            org.apache.kafka.common.header.internals.RecordHeaders rightHeaders =
                    new org.apache.kafka.common.header.internals.RecordHeaders();
            rightHeaders.add("rtm.lat", "right".getBytes(StandardCharsets.UTF_8));
            rightHeaders.add("empty", null);
            h.left.pipeInput(new TestRecord<>("imp1", "I1", leftHeaders, t(Duration.ZERO)));
            h.right.pipeInput(new TestRecord<>("imp1", "C1", rightHeaders, t(ofMinutes(1))));
            h.tick(ofSeconds(1)); // micro-batch: the batch runs here

            List<TestRecord<String, String>> records = h.out.readRecordsToList();
            assertThat(records).extracting(TestRecord::value).containsExactly("I1,C1");
            assertThat(new String(records.get(0).headers().lastHeader("rtm.lat").value(), StandardCharsets.UTF_8))
                    .isEqualTo("right");
            assertThat(records.get(0).headers().lastHeader("empty")).isNotNull();
            assertThat(records.get(0).headers().lastHeader("empty").value()).isNull();
        }
    }

    @Test
    void shouldRejectInvalidOptionsNamingTheValueWhenBuilt() {
        assertThatThrownBy(() -> IntervalJoin.<String, String, String>builder()
                        .keySerde(Serdes.String())
                        .leftSerde(Serdes.String())
                        .rightSerde(Serdes.String())
                        .lowerBound(ofMinutes(2))
                        .upperBound(ofMillis(5))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT2M")
                .hasMessageContaining("PT0.005S");
        assertThatThrownBy(() -> IntervalJoin.<String, String, String>builder()
                        .keySerde(Serdes.String())
                        .leftSerde(Serdes.String())
                        .rightSerde(Serdes.String())
                        .lowerBound(Duration.ZERO)
                        .upperBound(ofMinutes(1))
                        .leftWatermarkDelay(ofSeconds(-1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> IntervalJoin.<String, String, String>builder()
                        .leftSerde(Serdes.String())
                        .rightSerde(Serdes.String())
                        .lowerBound(Duration.ZERO)
                        .upperBound(ofMinutes(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keySerde");
        assertThatThrownBy(() -> completeBuilder()
                        .joinType(JoinType.LEFT_OUTER)
                        .distinctRows(true)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LEFT_OUTER");
    }

    @Test
    void shouldEmitEachPairOnceWhenBothInputsArriveTwiceWithDistinctRows() {
        try (JoinHarness h = new JoinHarness(b -> b.lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(2))
                .leftWatermarkDelay(ofMinutes(5))
                .rightWatermarkDelay(ofMinutes(5))
                .distinctRows(true))) {
            h.left("a", "I", JoinHarness.t(ofSeconds(0)));
            h.right("a", "C", JoinHarness.t(ofSeconds(30)));
            h.left("a", "I", JoinHarness.t(ofSeconds(0))); // copy of the impression: already matched
            h.right("a", "C", JoinHarness.t(ofSeconds(30))); // copy of the click
            h.right("a", "C2", JoinHarness.t(ofSeconds(40))); // a distinct click matches the impression once
            assertThat(h.outValues()).containsExactly("I,C", "I,C2");
        }
        try (JoinHarness h = new JoinHarness(b -> b.lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(2))
                .leftWatermarkDelay(ofMinutes(5))
                .rightWatermarkDelay(ofMinutes(5)))) {
            h.left("a", "I", JoinHarness.t(ofSeconds(0)));
            h.right("a", "C", JoinHarness.t(ofSeconds(30)));
            h.left("a", "I", JoinHarness.t(ofSeconds(0)));
            assertThat(h.outValues())
                    .as("without distinctRows each copy joins, as in Spark")
                    .containsExactly("I,C", "I,C");
        }
    }

    /** The id of a test value {@code "<id>:<payload>"}. */
    private static String id(String key, String value) {
        return value.substring(0, value.indexOf(':'));
    }

    private static Consumer<IntervalJoin.Builder<String, String, String>> distinctById(ExecutionMode mode) {
        return b -> b.lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(2))
                .leftWatermarkDelay(ofMinutes(5))
                .rightWatermarkDelay(ofMinutes(5))
                .executionMode(mode)
                .leftDistinctBy(IntervalJoinTest::id, Serdes.String())
                .rightDistinctBy(IntervalJoinTest::id, Serdes.String());
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void shouldDropACopyOfABufferedIdBeforeItJoinsFirstCopyWins(ExecutionMode mode) {
        try (JoinHarness h = new JoinHarness(distinctById(mode))) {
            h.left("a", "I1:x", t(ofSeconds(0)));
            h.right("a", "C1:p", t(ofSeconds(30)));
            h.left("a", "I1:y", t(ofSeconds(5))); // copy of I1 with another payload and time: dropped
            h.right("a", "C1:q", t(ofSeconds(40))); // copy of C1 with another payload and time: dropped
            h.right("a", "C2:r", t(ofSeconds(50))); // another click of the impression: joins its first copy
            h.left("b", "I1:z", t(ofSeconds(10))); // the same id under another key is not a copy
            h.right("b", "C1:s", t(ofSeconds(20)));
            h.tick(ofSeconds(2));
            assertThat(h.outValues()).containsExactlyInAnyOrder("I1:x,C1:p", "I1:x,C2:r", "I1:z,C1:s");
            assertThat(IntervalJoin.duplicateRecordsTotal(h.driver.metrics(), JoinHarness.NAME))
                    .isEqualTo(2);
            assertThat(h.leftRows()).isEqualTo(2);
            assertThat(h.rightRows()).isEqualTo(3);
        }
        try (JoinHarness h = new JoinHarness(b -> b.lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(2))
                .leftWatermarkDelay(ofMinutes(5))
                .rightWatermarkDelay(ofMinutes(5))
                .executionMode(mode))) {
            h.left("a", "I1:x", t(ofSeconds(0)));
            h.right("a", "C1:p", t(ofSeconds(30)));
            h.left("a", "I1:y", t(ofSeconds(5)));
            h.right("a", "C1:q", t(ofSeconds(40)));
            h.tick(ofSeconds(2));
            assertThat(h.outValues()).as("without distinctBy every copy joins").hasSize(4);
        }
    }

    @ParameterizedTest
    @EnumSource(EvictionIndex.class)
    void shouldDropACopyOfABufferedIdBeforeTheFirstWatermarkWithEveryEvictionIndex(EvictionIndex index) {
        try (JoinHarness h =
                new JoinHarness(distinctById(ExecutionMode.REAL_TIME).andThen(b -> b.evictionIndex(index)))) {
            h.left("a", "I1:x", t(ofSeconds(0)));
            h.left("a", "I1:y", t(ofSeconds(5))); // no watermark yet (no right record): a copy all the same
            h.right("a", "C1:p", t(ofSeconds(30)));
            h.right("a", "C1:q", t(ofSeconds(40))); // copy of C1
            h.right("a", "C2:r", t(ofSeconds(50)));
            assertThat(h.outValues()).containsExactly("I1:x,C1:p", "I1:x,C2:r");
            assertThat(IntervalJoin.duplicateRecordsTotal(h.driver.metrics(), JoinHarness.NAME))
                    .isEqualTo(2);
        }
    }

    @Test
    void shouldJoinACopyWithAnotherTimeOnceItsFirstCopyHasBeenEvicted() {
        try (JoinHarness h = new JoinHarness(b -> b.lowerBound(Duration.ZERO)
                .upperBound(ofSeconds(10))
                .evictionInterval(ofSeconds(1))
                .leftDistinctBy(IntervalJoinTest::id, Serdes.String())
                .rightDistinctBy(IntervalJoinTest::id, Serdes.String()))) {
            h.left("a", "I1:x", t(ofSeconds(0)));
            h.left("z", "Z:x", t(ofSeconds(100)));
            h.right("z", "Z:y", t(ofSeconds(100))); // watermark 100 s: I1 (0 + 10 s) is evictable
            h.tick(ofSeconds(2));
            assertThat(h.leftRows()).isEqualTo(1);
            h.left("a", "I1:y", t(ofSeconds(150))); // not a copy of a buffered row any more: buffered
            h.right("a", "C1:p", t(ofSeconds(155)));
            assertThat(h.outValues()).containsExactly("Z:x,Z:y", "I1:y,C1:p");
            assertThat(IntervalJoin.duplicateRecordsTotal(h.driver.metrics(), JoinHarness.NAME))
                    .isZero();
        }
    }

    /** A builder with every required option set. */
    private static IntervalJoin.Builder<String, String, String> completeBuilder() {
        return IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(1));
    }

    @Test
    void shouldRejectDistinctByOutsideInnerJoinsAndWithoutAnIdSerde() {
        assertThatThrownBy(() -> completeBuilder()
                        .joinType(JoinType.FULL_OUTER)
                        .rightDistinctBy(IntervalJoinTest::id, Serdes.String())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rightDistinctBy")
                .hasMessageContaining("FULL_OUTER");
        assertThatThrownBy(
                        () -> IntervalJoin.<String, String, String>builder().leftDistinctBy(IntervalJoinTest::id, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leftDistinctBy")
                .hasMessageContaining("idSerde=null");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void shouldRepartitionADedupedInputOnlyWhenAskedToWhenKeyMayHaveChanged(boolean repartition) {
        org.apache.kafka.streams.StreamsBuilder sb = new org.apache.kafka.streams.StreamsBuilder();
        org.apache.kafka.streams.kstream.KStream<String, String> imps = sb.stream(
                        "imps", org.apache.kafka.streams.kstream.Consumed.with(Serdes.String(), Serdes.String()))
                .process(Deduplicate.<String, String>byKey()
                        .withinTtl(ofMinutes(10))
                        .keySerde(Serdes.String())
                        .valueSerde(Serdes.String())
                        .build());
        org.apache.kafka.streams.kstream.KStream<String, String> clicks =
                sb.stream("clicks", org.apache.kafka.streams.kstream.Consumed.with(Serdes.String(), Serdes.String()));
        IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(2))
                .repartitionIfKeyChanged(repartition)
                .build()
                .join(imps, clicks, (k, l, r) -> l + r);

        String description = sb.build().describe().toString();

        assertThat(description.contains("-repartition")).isEqualTo(repartition);
    }

    @Test
    void shouldEmitEachLeftRowOnceOnItsFirstMatchAndBufferOnlyUnmatchedLeftRowsWhenLeftSemi() {
        try (JoinHarness h = new JoinHarness(seed(JoinType.LEFT_SEMI))) {
            h.right("imp1", "C1", t(ofMinutes(1)));
            h.left("imp1", "I1", t(Duration.ZERO)); // matches C1 on arrival: emitted, not buffered
            h.right("imp1", "C2", t(ofMinutes(2))); // I1 is not buffered: nothing
            assertThat(h.outValues()).containsExactly("I1,C1");
            assertThat(h.leftRows()).isZero();

            h.left("imp2", "I2", t(ofSeconds(10))); // no match yet: buffered
            assertThat(h.leftRows()).isEqualTo(1);
            h.right("imp2", "C3", t(ofSeconds(20))); // first match: I2 emitted with it
            h.right("imp2", "C4", t(ofSeconds(30))); // I2 already matched: nothing
            assertThat(h.outValues()).containsExactly("I2,C3");

            // unmatched left rows leave silently once the watermark passes them
            h.left("imp3", "I3", t(ofSeconds(10)));
            h.left("x", "X", t(ofMinutes(20)));
            h.right("y", "Y", t(ofMinutes(20)));
            h.tick(ofSeconds(1));
            h.tick(ofSeconds(1));
            assertThat(h.outValues()).isEmpty();
            assertThat(h.leftRows()).isEqualTo(1); // X
        }
    }

    @Test
    void shouldForwardTheLeftValuesWhenSemiJoin() {
        org.apache.kafka.streams.StreamsBuilder sb = new org.apache.kafka.streams.StreamsBuilder();
        org.apache.kafka.streams.kstream.KStream<String, String> imps =
                sb.stream("imps", org.apache.kafka.streams.kstream.Consumed.with(Serdes.String(), Serdes.String()));
        org.apache.kafka.streams.kstream.KStream<String, String> clicks =
                sb.stream("clicks", org.apache.kafka.streams.kstream.Consumed.with(Serdes.String(), Serdes.String()));
        IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(2))
                .joinType(JoinType.LEFT_SEMI)
                .build()
                .semiJoin(imps, clicks)
                .to("out", org.apache.kafka.streams.kstream.Produced.with(Serdes.String(), Serdes.String()));
        java.util.Properties p = new java.util.Properties();
        p.put(org.apache.kafka.streams.StreamsConfig.APPLICATION_ID_CONFIG, "semi");
        p.put(org.apache.kafka.streams.StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        try (org.apache.kafka.streams.TopologyTestDriver d =
                new org.apache.kafka.streams.TopologyTestDriver(sb.build(), p)) {
            var in = d.createInputTopic(
                    "imps", Serdes.String().serializer(), Serdes.String().serializer());
            var click = d.createInputTopic(
                    "clicks", Serdes.String().serializer(), Serdes.String().serializer());
            var out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            in.pipeInput("imp1", "I1", t(Duration.ZERO));
            click.pipeInput("imp1", "C1", t(ofMinutes(1)));
            click.pipeInput("imp1", "C2", t(ofMinutes(1)));

            assertThat(out.readKeyValuesToList()).containsExactly(org.apache.kafka.streams.KeyValue.pair("imp1", "I1"));
        }
    }

    @Test
    void shouldRejectSemiJoinWhenTheJoinTypeIsNotLeftSemi() {
        IntervalJoin<String, String, String> inner = IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .lowerBound(Duration.ZERO)
                .upperBound(ofMinutes(2))
                .build();
        org.apache.kafka.streams.StreamsBuilder sb = new org.apache.kafka.streams.StreamsBuilder();

        assertThatThrownBy(() -> inner.semiJoin(sb.stream("l"), sb.stream("r")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("INNER");
    }

    private static Duration ofHours(long h) {
        return Duration.ofHours(h);
    }

    /**
     * With the index in stores, each side's index holds one entry per buffered row; on the heap, the topology has no
     * index stores (the heap index's order is pinned by IndexEntriesTest, its effect by the rows left here).
     */
    private static void assertIndexEntries(JoinHarness h, EvictionIndex index, boolean left, long expected) {
        if (index == EvictionIndex.STATE_STORE) {
            assertThat(left ? h.leftIndexEntries() : h.rightIndexEntries()).isEqualTo(expected);
        } else {
            assertThat(h.hasStore(JoinHarness.NAME + (left ? "-left-index" : "-right-index")))
                    .isFalse();
        }
    }
}
