package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.topology.StateOperatorProgress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateOperatorDeltasTest {

    @Test
    void shouldReportCounterGrowthPerEpochAndGaugesAsLevels() {
        StateOperatorDeltas d = new StateOperatorDeltas();
        List<StateOperatorProgress> first =
                d.next(Map.of("op", Map.of("numRegisteredTimers", 5L, "numValueStateVars", 2L)));
        assertThat(first)
                .containsExactly(
                        new StateOperatorProgress("op", Map.of("numRegisteredTimers", 5L, "numValueStateVars", 2L)));
        List<StateOperatorProgress> second = d.next(Map.of(
                "op", Map.of("numRegisteredTimers", 8L, "numValueStateVars", 2L),
                "other", Map.of("numExpiredTimers", 1L)));
        assertThat(second)
                .containsExactly(
                        new StateOperatorProgress("op", Map.of("numRegisteredTimers", 3L, "numValueStateVars", 2L)),
                        new StateOperatorProgress("other", Map.of("numExpiredTimers", 1L)));
        // a task moved away (its counters vanished): never a negative growth
        assertThat(d.next(Map.of("op", Map.of("numRegisteredTimers", 1L, "numValueStateVars", 1L))))
                .containsExactly(
                        new StateOperatorProgress("op", Map.of("numRegisteredTimers", 0L, "numValueStateVars", 1L)));
    }
}
