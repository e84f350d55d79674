package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** {@link Watermarks} against a naive model: the watermark is the largest candidate offered so far. */
class WatermarksTest {

    @Test
    void shouldCallARowAtTheWatermarkLateAndOneAboveItNot() {
        assertThat(Watermarks.isLate(99, 100)).isTrue();
        assertThat(Watermarks.isLate(100, 100)).isTrue();
        assertThat(Watermarks.isLate(101, 100)).isFalse();
        assertThat(Watermarks.isLate(Long.MIN_VALUE, Long.MIN_VALUE)).isTrue();
        assertThat(Watermarks.isLate(Long.MAX_VALUE, Long.MAX_VALUE)).isTrue();
    }

    @Test
    void shouldAdvanceOnlyWhenTheCandidateIsStrictlyHigher() {
        assertThat(Watermarks.advances(101, 100)).isTrue();
        assertThat(Watermarks.advances(100, 100)).isFalse();
        assertThat(Watermarks.advances(99, 100)).isFalse();
    }

    /**
     * A watermark kept with the two rules (as the operator's tracker and the join keep theirs) equals, after every
     * step, the maximum of all candidates offered (the model), and calls a row late exactly when the model has a
     * candidate at or above the row's time.
     */
    @Property
    void shouldNeverRegressAndAgreeWithTheModelWhenCandidatesArriveInAnyOrder(
            @ForAll("candidates") List<Long> candidates, @ForAll("times") long probe) {
        boolean has = false;
        long watermark = 0;
        int moves = 0;
        List<Long> offered = new ArrayList<>();
        for (long candidate : candidates) {
            long before = watermark;
            if (!has || Watermarks.advances(candidate, watermark)) {
                has = true;
                watermark = candidate;
                moves++;
            }
            offered.add(candidate);
            long modelMax = offered.stream().mapToLong(Long::longValue).max().orElseThrow();
            assertThat(watermark).isEqualTo(modelMax);
            assertThat(watermark).isGreaterThanOrEqualTo(offered.size() == 1 ? candidate : before);
            boolean modelLate = offered.stream().anyMatch(c -> c >= probe);
            assertThat(has && Watermarks.isLate(probe, watermark)).isEqualTo(modelLate);
        }
        long modelMoves = countRecords(candidates);
        assertThat(moves).isEqualTo(modelMoves);
    }

    /** @return how many candidates are higher than every one before them (the model's number of moves) */
    private static long countRecords(List<Long> candidates) {
        long count = 0;
        Long max = null;
        for (long c : candidates) {
            if (max == null || c > max) {
                max = c;
                count++;
            }
        }
        return count;
    }

    @Provide
    Arbitrary<List<Long>> candidates() {
        return times().list().ofMinSize(1).ofMaxSize(40);
    }

    @Provide
    Arbitrary<Long> times() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(-20, 20),
                Arbitraries.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE));
    }
}
