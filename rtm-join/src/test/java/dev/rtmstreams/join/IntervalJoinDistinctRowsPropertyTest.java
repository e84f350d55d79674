package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StoreBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.common.serialization.Serdes;

/**
 * {@link IntervalJoin.Builder#distinctRows(boolean)}, and {@link IntervalJoin.Builder#leftDistinctBy} /
 * {@link IntervalJoin.Builder#rightDistinctBy} with the value as id, against the oracle of
 * {@link IntervalJoinOraclePropertyTest}: randomized sequences in which some records arrive again later (same side,
 * key, time and value, as a producer retry or an at-least-once replay would deliver them) must yield every distinct
 * pair of the oracle exactly once, and count the same late records.
 */
class IntervalJoinDistinctRowsPropertyTest {

    record Step(IntervalJoinOraclePropertyTest.Event event, String value) {}

    @Provide
    Arbitrary<List<Step>> steps() {
        IntervalJoinOraclePropertyTest base = new IntervalJoinOraclePropertyTest();
        return base.events()
                .flatMap(events -> Arbitraries.integers()
                        .between(0, 1_000_000)
                        .list()
                        .ofSize(events.size())
                        .map(choices -> {
                            List<Step> out = new ArrayList<>();
                            for (int i = 0; i < events.size(); i++) {
                                out.add(new Step(events.get(i), (events.get(i).left() ? "L" : "R") + i));
                                int c = choices.get(i);
                                if (c % 3 == 0) {
                                    // deliver an earlier record again (possibly the one just sent)
                                    out.add(out.get((c / 3) % out.size()));
                                }
                            }
                            return out;
                        }));
    }

    @Property(tries = 80)
    void shouldEmitEveryDistinctOraclePairExactlyOnceWhenRecordsArriveTwice(
            @ForAll("steps") List<Step> steps,
            @ForAll WatermarkPolicy policy,
            @ForAll ExecutionMode mode,
            @ForAll @IntRange(min = -20, max = 20) int lowerSec,
            @ForAll @IntRange(min = 0, max = 40) int widthSec,
            @ForAll @IntRange(min = 0, max = 30) int leftDelaySec,
            @ForAll @IntRange(min = 0, max = 30) int rightDelaySec,
            @ForAll boolean rocksDb,
            @ForAll boolean byId) {
        long lower = lowerSec * 1000L;
        long upper = (lowerSec + widthSec) * 1000L;
        long leftDelay = leftDelaySec * 1000L;
        long rightDelay = rightDelaySec * 1000L;

        List<String> actual;
        long actualLate;
        try (JoinHarness h = new JoinHarness(b -> {
            b.lowerBound(Duration.ofMillis(lower))
                    .upperBound(Duration.ofMillis(upper))
                    .leftWatermarkDelay(Duration.ofMillis(leftDelay))
                    .rightWatermarkDelay(Duration.ofMillis(rightDelay))
                    .joinType(JoinType.INNER)
                    .watermarkPolicy(policy)
                    .executionMode(mode)
                    .storeBackend(rocksDb ? StoreBackend.ROCKS_DB : StoreBackend.IN_MEMORY)
                    .maxEvictionsPerPass(5);
            if (byId) {
                // values are unique per event, so the value as id makes a copy exactly a repeated record
                b.leftDistinctBy((k, v) -> v, Serdes.String()).rightDistinctBy((k, v) -> v, Serdes.String());
            } else {
                b.distinctRows(true);
            }
        })) {
            for (Step s : steps) {
                IntervalJoinOraclePropertyTest.Event e = s.event();
                if (e.left()) {
                    h.left(e.key(), s.value(), e.time());
                } else {
                    h.right(e.key(), s.value(), e.time());
                }
                if (mode == ExecutionMode.MICRO_BATCH && e.batchEndsAfter()) {
                    h.tick(Duration.ofSeconds(1));
                }
            }
            for (int i = 0; i < 30; i++) {
                h.tick(Duration.ofSeconds(1));
            }
            actual = h.outValues();
            actualLate = h.lateCount();
        }

        IntervalJoinOraclePropertyTest.Oracle oracle = new IntervalJoinOraclePropertyTest.Oracle(
                lower, upper, leftDelay, rightDelay, JoinType.INNER, policy, mode == ExecutionMode.MICRO_BATCH);
        for (Step s : steps) {
            oracle.add(s.event(), s.value());
            if (mode == ExecutionMode.REAL_TIME || s.event().batchEndsAfter()) {
                oracle.endBatch();
            }
        }
        oracle.endBatch();

        assertThat(actual).doesNotHaveDuplicates();
        assertThat(actual).containsExactlyInAnyOrderElementsOf(new LinkedHashSet<>(oracle.expected()));
        assertThat(actualLate).isEqualTo(oracle.late);
    }
}
