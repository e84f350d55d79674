package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Probe outputs with fixed counts, for checks given synthetic observations: waits return at once. */
final class FixedProbeOutputs implements ProbeOutputs {

    private final Map<String, Integer> counts = new HashMap<>();

    FixedProbeOutputs seen(String id, int times) {
        counts.put(id, times);
        return this;
    }

    FixedProbeOutputs seenOnce(List<String> ids) {
        ids.forEach(id -> seen(id, 1));
        return this;
    }

    @Override
    public int probeCount(String id) {
        return counts.getOrDefault(id, 0);
    }

    @Override
    public boolean awaitProbes(List<String> ids, Duration timeout) {
        return ids.stream().allMatch(id -> probeCount(id) > 0);
    }
}
