package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.spi.PersistedWatermarks.Persist;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PersistedWatermarksTest {

    private final List<Long> written = new ArrayList<>();

    private PersistedWatermarks tracker(Persist persist, boolean maximaPersisted) {
        InputWatermarks inputs =
                InputWatermarks.of(InputWatermarks.Combine.MIN, InputWatermarks.IdleRule.LEAVE_OUT, 0, 100, 0);
        return new PersistedWatermarks(inputs, persist, maximaPersisted, w -> written.add(w.value()));
    }

    @Test
    void shouldWriteEveryMoveAtOnceWhenEachMove() {
        PersistedWatermarks w = tracker(Persist.EACH_MOVE, false);
        w.observe(0, 1_000);
        w.observe(1, 500);
        assertThat(written).isEmpty(); // the maxima moved, the watermark did not: not in this layout
        assertThat(w.advance()).isTrue();
        w.observe(1, 2_000);
        assertThat(w.advance()).isTrue();
        assertThat(w.advance()).isFalse();
        assertThat(written).containsExactly(500L, 900L);
        assertThat(w.unpersisted()).isFalse();
    }

    @Test
    void shouldWriteOnceAtPersistIfMovedWhenDeferred() {
        PersistedWatermarks w = tracker(Persist.DEFERRED, false);
        w.observe(0, 1_000);
        w.observe(1, 1_000);
        w.advance();
        w.observe(0, 2_000);
        w.observe(1, 2_000);
        w.advance();
        assertThat(written).isEmpty();
        assertThat(w.unpersisted()).isTrue();

        w.persistIfMoved();
        w.persistIfMoved();

        assertThat(written).containsExactly(1_900L);
        assertThat(w.unpersisted()).isFalse();
    }

    @Test
    void shouldCountAMoveOfAnInputsMaxWhenTheLayoutHoldsTheMaxima() {
        PersistedWatermarks w = tracker(Persist.DEFERRED, true);
        w.observe(0, 1_000); // the watermark cannot move yet (input 1 has no rows), the persisted max does
        w.persistIfMoved();
        assertThat(written).hasSize(1);
        w.observe(0, 900); // not a move
        w.persistIfMoved();
        assertThat(written).hasSize(1);
    }

    @Test
    void shouldWriteOnlyWhenAskedWhenRecoverable() {
        PersistedWatermarks w = tracker(Persist.RECOVERABLE, true);
        w.observe(0, 1_000);
        w.observe(1, 1_000);
        assertThat(w.advance()).isTrue();
        w.persistIfMoved();
        assertThat(written).isEmpty();
        w.write();
        assertThat(written).containsExactly(900L);
    }

    @Test
    void shouldKeepAPendingMoveWhenThePolicyChanges() {
        PersistedWatermarks w = tracker(Persist.DEFERRED, false);
        w.observe(0, 1_000);
        w.observe(1, 1_000);
        w.advance();
        w.persist(Persist.EACH_MOVE);
        assertThat(w.persist()).isEqualTo(Persist.EACH_MOVE);
        w.persistIfMoved();
        assertThat(written).containsExactly(900L);
    }
}
