package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StoreBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Randomized event sequences through the real join (TopologyTestDriver) against a naive nested-loop oracle that
 * applies the same watermark and lateness rules, for every join type, both policies and both execution contracts. Left
 * semi: every non-late left row with at least one non-late match, once.
 */
class IntervalJoinOraclePropertyTest {

    record Event(boolean left, String key, long time, boolean batchEndsAfter) {}

    @Provide
    Arbitrary<List<Event>> events() {
        Arbitrary<Event> step = Combinators.combine(
                        Arbitraries.of(true, false),
                        Arbitraries.of("a", "b", "c"),
                        Arbitraries.integers().between(-40, 40),
                        Arbitraries.integers().between(0, 9),
                        Arbitraries.integers().between(0, 3))
                .as((left, key, jitter, advance, batch) ->
                        new Event(left, key, (long) jitter * 1000 + advance, batch == 0));
        // time = running sum of the advances (in ms units of 1 s) + jitter: mostly increasing, some out of order
        return step.list().ofMinSize(1).ofMaxSize(60).map(list -> {
            List<Event> out = new ArrayList<>();
            long base = 0;
            for (Event e : list) {
                long advance = Math.floorMod(e.time(), 1000);
                long jitter = (e.time() - advance) / 1000;
                base += advance;
                out.add(new Event(
                        e.left(), e.key(), JoinHarness.t(Duration.ofSeconds(base + jitter)), e.batchEndsAfter()));
            }
            return out;
        });
    }

    @Property(tries = 80)
    void shouldEmitExactlyTheOracleOutputForEveryJoinTypeAndContract(
            @ForAll("events") List<Event> events,
            @ForAll JoinType joinType,
            @ForAll WatermarkPolicy policy,
            @ForAll ExecutionMode mode,
            @ForAll @IntRange(min = -20, max = 20) int lowerSec,
            @ForAll @IntRange(min = 0, max = 40) int widthSec,
            @ForAll @IntRange(min = 0, max = 30) int leftDelaySec,
            @ForAll @IntRange(min = 0, max = 30) int rightDelaySec,
            @ForAll @IntRange(min = 0, max = 4) int rocksDbOneInFive,
            @ForAll EvictionIndex evictionIndex) {
        // segments serve inner joins only (the builder refuses the others): those draws run with the default index
        EvictionIndex index = evictionIndex == EvictionIndex.SEGMENTS && joinType != JoinType.INNER
                ? EvictionIndex.STATE_STORE
                : evictionIndex;
        check(events, joinType, policy, mode, lowerSec, widthSec, leftDelaySec, rightDelaySec, rocksDbOneInFive, index);
    }

    @Property(tries = 60)
    void shouldEmitExactlyTheOracleOutputForInnerJoinsWithSegments(
            @ForAll("events") List<Event> events,
            @ForAll WatermarkPolicy policy,
            @ForAll ExecutionMode mode,
            @ForAll @IntRange(min = -20, max = 20) int lowerSec,
            @ForAll @IntRange(min = 0, max = 40) int widthSec,
            @ForAll @IntRange(min = 0, max = 30) int leftDelaySec,
            @ForAll @IntRange(min = 0, max = 30) int rightDelaySec,
            @ForAll @IntRange(min = 0, max = 4) int rocksDbOneInFive) {
        check(
                events,
                JoinType.INNER,
                policy,
                mode,
                lowerSec,
                widthSec,
                leftDelaySec,
                rightDelaySec,
                rocksDbOneInFive,
                EvictionIndex.SEGMENTS);
    }

    private static void check(
            List<Event> events,
            JoinType joinType,
            WatermarkPolicy policy,
            ExecutionMode mode,
            int lowerSec,
            int widthSec,
            int leftDelaySec,
            int rightDelaySec,
            int rocksDbOneInFive,
            EvictionIndex evictionIndex) {
        long lower = lowerSec * 1000L;
        long upper = (lowerSec + widthSec) * 1000L;
        long leftDelay = leftDelaySec * 1000L;
        long rightDelay = rightDelaySec * 1000L;
        StoreBackend backend =
                rocksDbOneInFive == 0 && widthSec % 2 == 0 ? StoreBackend.ROCKS_DB : StoreBackend.IN_MEMORY;

        List<String> actual;
        long actualLate;
        try (JoinHarness h = new JoinHarness(b -> b.lowerBound(Duration.ofMillis(lower))
                .upperBound(Duration.ofMillis(upper))
                .leftWatermarkDelay(Duration.ofMillis(leftDelay))
                .rightWatermarkDelay(Duration.ofMillis(rightDelay))
                .joinType(joinType)
                .watermarkPolicy(policy)
                .executionMode(mode)
                .storeBackend(backend)
                .evictionIndex(evictionIndex)
                .maxEvictionsPerPass(5))) {
            int id = 0;
            for (Event e : events) {
                String value = (e.left() ? "L" : "R") + id++;
                if (e.left()) {
                    h.left(e.key(), value, e.time());
                } else {
                    h.right(e.key(), value, e.time());
                }
                if (mode == ExecutionMode.MICRO_BATCH && e.batchEndsAfter()) {
                    h.tick(Duration.ofSeconds(1));
                }
            }
            // final batch / eviction passes (bounded passes of 5 rows: tick enough times)
            for (int i = 0; i < 30; i++) {
                h.tick(Duration.ofSeconds(1));
            }
            actual = h.outValues();
            if (joinType == JoinType.LEFT_SEMI) {
                // the left row only (the joiner also sees the right row of the first match, which depends on order)
                actual =
                        actual.stream().map(v -> v.substring(0, v.indexOf(','))).toList();
            }
            actualLate = h.lateCount();
        }

        Oracle oracle =
                new Oracle(lower, upper, leftDelay, rightDelay, joinType, policy, mode == ExecutionMode.MICRO_BATCH);
        int id = 0;
        for (Event e : events) {
            oracle.add(e, (e.left() ? "L" : "R") + id++);
            if (mode == ExecutionMode.REAL_TIME || e.batchEndsAfter()) {
                oracle.endBatch();
            }
        }
        oracle.endBatch();

        assertThat(actual).containsExactlyInAnyOrderElementsOf(oracle.expected());
        assertThat(actualLate).isEqualTo(oracle.late);
    }

    /**
     * Naive model: batches freeze the watermark (a real-time batch is one record); a real-time record is late by the
     * current watermark, a micro-batch row by the watermark the previous batch ran with (Spark's watermark for late
     * events; every batch here has data, so no no-data batch runs between two); nested-loop join.
     */
    static final class Oracle {
        record Row(String id, String key, long time) {}

        final long lower;
        final long upper;
        final long leftDelay;
        final long rightDelay;
        final JoinType type;
        final WatermarkPolicy policy;
        final boolean microBatch;
        final List<Row> lefts = new ArrayList<>();
        final List<Row> rights = new ArrayList<>();
        final List<Event> batch = new ArrayList<>();
        final List<String> batchIds = new ArrayList<>();
        Long leftMax;
        Long rightMax;
        Long global;
        /** Micro-batch: the watermark the previous batch ran with (null: none); once {@link #batchRan}. */
        Long previousBatch;

        boolean batchRan;
        long late;

        Oracle(
                long lower,
                long upper,
                long leftDelay,
                long rightDelay,
                JoinType type,
                WatermarkPolicy policy,
                boolean microBatch) {
            this.lower = lower;
            this.upper = upper;
            this.leftDelay = leftDelay;
            this.rightDelay = rightDelay;
            this.type = type;
            this.policy = policy;
            this.microBatch = microBatch;
        }

        void add(Event e, String id) {
            batch.add(e);
            batchIds.add(id);
        }

        void endBatch() {
            Long frozen = global;
            Long lateBy = microBatch && batchRan ? previousBatch : frozen;
            previousBatch = frozen;
            batchRan = true;
            for (int i = 0; i < batch.size(); i++) {
                Event e = batch.get(i);
                if (lateBy != null && e.time() <= lateBy) { // Spark: late iff at or below the watermark
                    late++;
                } else {
                    (e.left() ? lefts : rights).add(new Row(batchIds.get(i), e.key(), e.time()));
                }
                if (e.left()) {
                    leftMax = leftMax == null ? e.time() : Math.max(leftMax, e.time());
                } else {
                    rightMax = rightMax == null ? e.time() : Math.max(rightMax, e.time());
                }
            }
            batch.clear();
            batchIds.clear();
            Long lw = leftMax == null ? null : leftMax - leftDelay;
            Long rw = rightMax == null ? null : rightMax - rightDelay;
            Long candidate;
            if (policy == WatermarkPolicy.MIN) {
                candidate = lw == null || rw == null ? null : Math.min(lw, rw);
            } else {
                candidate = lw == null ? rw : rw == null ? lw : Math.max(lw, rw);
            }
            if (candidate != null && (global == null || candidate > global)) {
                global = candidate;
            }
        }

        boolean matches(Row l, Row r) {
            return l.key().equals(r.key()) && l.time() + lower <= r.time() && r.time() <= l.time() + upper;
        }

        List<String> expected() {
            List<String> out = new ArrayList<>();
            if (type == JoinType.LEFT_SEMI) {
                for (Row l : lefts) {
                    if (rights.stream().anyMatch(r -> matches(l, r))) {
                        out.add(l.id());
                    }
                }
                return out;
            }
            for (Row l : lefts) {
                for (Row r : rights) {
                    if (matches(l, r)) {
                        out.add(l.id() + "," + r.id());
                    }
                }
            }
            if (type.emitsUnmatchedLeft() && global != null) {
                for (Row l : lefts) {
                    if (rights.stream().noneMatch(r -> matches(l, r)) && global > l.time() + upper) {
                        out.add(l.id() + ",null");
                    }
                }
            }
            if (type.emitsUnmatchedRight() && global != null) {
                for (Row r : rights) {
                    if (lefts.stream().noneMatch(l -> matches(l, r)) && global > r.time() - lower) {
                        out.add("null," + r.id());
                    }
                }
            }
            return out;
        }
    }
}
