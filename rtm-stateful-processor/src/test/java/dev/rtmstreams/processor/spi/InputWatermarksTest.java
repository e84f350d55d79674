package dev.rtmstreams.processor.spi;

import static dev.rtmstreams.processor.spi.InputWatermarks.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.spi.InputWatermarks.Combine;
import dev.rtmstreams.processor.spi.InputWatermarks.IdleRule;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InputWatermarksTest {

    @Test
    void shouldHoldTheMinUntilEveryInputHasRowsAndNeverMoveBackwards() {
        InputWatermarks w = InputWatermarks.of(Combine.MIN, IdleRule.LEAVE_OUT, 0, 10, 100);
        w.observe(0, 1_000);
        assertThat(w.advance()).isFalse();
        assertThat(w.has()).isFalse();
        assertThat(w.isLate(Long.MIN_VALUE + 1)).isFalse(); // nothing is late before the first watermark

        w.observe(1, 1_050);
        assertThat(w.advance()).isTrue();
        assertThat(w.value()).isEqualTo(950); // min(1 000 - 10, 1 050 - 100)
        assertThat(w.isLate(950)).isTrue(); // at the watermark: late (Spark's <=)
        assertThat(w.isLate(951)).isFalse();

        assertThat(w.observe(1, 900)).isFalse(); // an older row does not lower the max
        assertThat(w.advance()).isFalse();
        assertThat(w.value()).isEqualTo(950);
    }

    @Test
    void shouldFollowTheFastestInputUnderMaxWhateverTheIdleness() {
        InputWatermarks w = InputWatermarks.of(Combine.MAX, IdleRule.LEAVE_OUT, 1_000, 10, 10);
        w.observe(0, 5_000);
        assertThat(w.advance(0, new long[] {-5_000, NONE})).isTrue(); // left idle: changes nothing under MAX
        assertThat(w.value()).isEqualTo(4_990);
        w.observe(1, 7_000);
        w.advance();
        assertThat(w.value()).isEqualTo(6_990);
    }

    @Test
    void shouldLeaveAnInputOutOfTheMinOnlyWhenSilentForLongerThanTheTimeout() {
        InputWatermarks w = InputWatermarks.of(Combine.MIN, IdleRule.LEAVE_OUT, 30_000, 0, 0);
        w.observe(0, 600_000);
        w.observe(1, 60_000);
        long now = 100_000;
        assertThat(w.advance(now, new long[] {now, now - 30_000})).isTrue(); // exactly the timeout: still waited for
        assertThat(w.value()).isEqualTo(60_000);
        assertThat(w.advance(now, new long[] {now, now - 30_001})).isTrue(); // longer: left out
        assertThat(w.value()).isEqualTo(600_000);
        // both idle: the watermark holds; the idle input coming back does not pull it back
        assertThat(w.advance(now, new long[] {now - 40_000, now - 40_000})).isFalse();
        assertThat(w.advance(now, new long[] {now, now})).isFalse();
        assertThat(w.value()).isEqualTo(600_000);
        // an unknown last arrival counts as active
        InputWatermarks fresh = InputWatermarks.of(Combine.MIN, IdleRule.LEAVE_OUT, 30_000, 0, 0);
        fresh.observe(0, 5);
        assertThat(fresh.advance(now, new long[] {now, NONE})).isFalse();
    }

    @Test
    void shouldLetAnIdleSingleInputFollowTheWallClock() {
        InputWatermarks w = InputWatermarks.of(Combine.MIN, IdleRule.FOLLOW_WALL_CLOCK, 5_000, 1_000);
        long[] last = {10_000};
        assertThat(w.advance(20_000, last)).isFalse(); // no row yet: no event time to follow the clock from
        w.observe(0, 50_000);
        w.advance();
        assertThat(w.value()).isEqualTo(49_000);
        assertThat(w.advance(15_000, last)).isFalse(); // silent exactly 5 s: not idle
        assertThat(w.advance(15_001, last)).isTrue(); // silent 5 001 ms: event time follows the clock
        assertThat(w.value()).isEqualTo(50_000 + 5_001 - 1_000);
    }

    @Test
    void shouldRestoreWithoutLoweringAndSaturateAtTheLongRange() {
        InputWatermarks w = InputWatermarks.of(Combine.MIN, IdleRule.LEAVE_OUT, 0, 5, 5);
        w.restore(100, 90, NONE);
        assertThat(w.value()).isEqualTo(100);
        assertThat(w.maxEventTime(0)).isEqualTo(90);
        assertThat(w.maxEventTime(1)).isEqualTo(NONE);
        w.observe(1, 200);
        assertThat(w.advance()).isFalse(); // min(85, 195) is below the restored 100
        assertThat(w.value()).isEqualTo(100);

        InputWatermarks edge = InputWatermarks.of(Combine.MAX, IdleRule.LEAVE_OUT, 0, 10);
        edge.observe(0, Long.MIN_VALUE + 3);
        assertThat(edge.advance()).isFalse(); // saturates to NONE instead of wrapping to a huge watermark
        assertThat(edge.has()).isFalse();
    }

    @Test
    void shouldAgreeWithAModelOfTheCombinedMaximaOverRandomRows() {
        SplittableRandom random = new SplittableRandom(5);
        for (Combine combine : Combine.values()) {
            for (int run = 0; run < 50; run++) {
                int n = 1 + random.nextInt(3);
                long[] delays = new long[n];
                for (int i = 0; i < n; i++) {
                    delays[i] = random.nextLong(1_000);
                }
                InputWatermarks w = InputWatermarks.of(combine, IdleRule.LEAVE_OUT, 0, delays);
                long[] max = new long[n];
                boolean[] seen = new boolean[n];
                long model = NONE;
                for (int step = 0; step < 200; step++) {
                    int input = random.nextInt(n);
                    long t = random.nextLong(100_000);
                    w.observe(input, t);
                    max[input] = seen[input] ? Math.max(max[input], t) : t;
                    seen[input] = true;
                    w.advance();
                    // the model: MIN needs every input, MAX any; the watermark is the highest combined value so far
                    Long combined = null;
                    boolean allSeen = true;
                    for (int i = 0; i < n; i++) {
                        allSeen &= seen[i];
                        if (seen[i]) {
                            long c = max[i] - delays[i];
                            combined = combined == null
                                    ? c
                                    : combine == Combine.MIN ? Math.min(combined, c) : Math.max(combined, c);
                        }
                    }
                    if (combine == Combine.MIN && !allSeen) {
                        combined = null;
                    }
                    if (combined != null && (model == NONE || combined > model)) {
                        model = combined;
                    }
                    assertThat(w.value())
                            .as("%s run %d step %d", combine, run, step)
                            .isEqualTo(model);
                }
            }
        }
    }

    @Test
    void shouldRefuseBadArgumentsNamingTheValue() {
        assertThatThrownBy(() -> InputWatermarks.of(Combine.MIN, IdleRule.LEAVE_OUT, -1, 0))
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> InputWatermarks.of(Combine.MIN, IdleRule.LEAVE_OUT, 0))
                .hasMessageContaining("at least one input");
        assertThatThrownBy(() -> InputWatermarks.of(Combine.MIN, IdleRule.LEAVE_OUT, 0, 5, -7))
                .hasMessageContaining("-7");
        InputWatermarks w = InputWatermarks.of(Combine.MIN, IdleRule.LEAVE_OUT, 0, 5, 5);
        assertThatThrownBy(() -> w.restore(1, 1)).hasMessageContaining("expected 2 maxima, got 1");
    }
}
