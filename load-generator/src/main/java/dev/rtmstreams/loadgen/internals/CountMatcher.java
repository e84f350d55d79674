package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.AbstractMatcher;
import dev.rtmstreams.adattribution.workload.Expected;
import dev.rtmstreams.adattribution.workload.Observed;
import dev.rtmstreams.adattribution.workload.OutputKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks the output of a count per group in update mode ({@code groupBy(...).count()}): each output is the group's
 * new count. Every group must end with its final count (the number of its inputs) after the drain, and its updates
 * must rise strictly: real-time mode emits 1, 2, ..., n (one per row), micro-batch mode one count per group and batch,
 * so intermediate counts may be skipped but never repeated or lowered.
 *
 * <p>Counted as: <em>matched</em> when a group's final count arrives (so {@link #expected()} is the number of groups);
 * <em>duplicate</em> when an update repeats the group's last count; <em>unexpected</em> (and <em>mismatched</em>) when
 * it lowers the count, exceeds the number of inputs, is not a number or carries the wrong key; <em>unexpected</em>
 * when its group is unknown. Every accepted update (rising, within bounds) yields an {@link Expected} whose completing
 * input is the group's {@code count}-th input in send order, for its latency.
 *
 * <p>Not thread-safe for {@link #accept}; the count getters may be read from other threads.
 */
public final class CountMatcher extends AbstractMatcher {

    /**
     * The inputs of one group.
     *
     * @param identity the group's identity, as the decoder reports it in {@link Observed#identity()}
     * @param key the key every update of the group must carry, as the decoder reports it in {@link Observed#key()}
     * @param seqs the {@code seq} of each input of the group, in send order; not empty
     */
    public record Group(String identity, String key, long[] seqs) {
        /** Validates. */
        public Group {
            Objects.requireNonNull(identity, "identity");
            Objects.requireNonNull(key, "key");
            if (seqs.length == 0) {
                throw new IllegalArgumentException("a group needs at least one input: " + identity);
            }
        }
    }

    private final Map<String, Group> groups = new HashMap<>();
    private final Map<String, Long> last = new HashMap<>();

    /**
     * Creates a matcher.
     *
     * @param groups every group with inputs; identities must be distinct
     * @throws IllegalArgumentException naming a repeated identity
     */
    public CountMatcher(List<Group> groups) {
        for (Group g : groups) {
            if (this.groups.put(g.identity(), g) != null) {
                throw new IllegalArgumentException("group given twice: " + g.identity());
            }
        }
    }

    @Override
    public Expected accept(Observed o) {
        countObserved();
        Group g = groups.get(o.identity());
        if (g == null) {
            countUnexpected("not expected: count of group " + o.identity() + " = " + o.fingerprint());
            return null;
        }
        long count;
        try {
            count = Long.parseLong(o.fingerprint());
        } catch (NumberFormatException e) {
            count = -1;
        }
        long previous = last.getOrDefault(g.identity(), 0L);
        String problem = null;
        if (!g.key().equals(o.key())) {
            problem = "wrong key " + o.key() + " (expected " + g.key() + ")";
        } else if (count < 1 || count > g.seqs().length) {
            problem = "count " + o.fingerprint() + " outside 1.." + g.seqs().length;
        } else if (count < previous) {
            problem = "count fell from " + previous + " to " + count;
        }
        if (problem != null) {
            countMismatched("group " + g.identity() + ": " + problem);
            return null;
        }
        if (count == previous) {
            countDuplicate("group " + g.identity() + ": count " + count + " again");
            return null;
        }
        last.put(g.identity(), count);
        if (count == g.seqs().length) {
            countMatched();
        }
        return new Expected(OutputKind.COUNT, g.key(), g.identity(), Long.toString(count), g.seqs()[(int) count - 1]);
    }

    @Override
    public long expected() {
        return groups.size();
    }

    /** Every output of this oracle is a {@link OutputKind#COUNT}. */
    @Override
    public KindCounts counts(OutputKind kind) {
        return kind == OutputKind.COUNT ? new KindCounts(expected(), matched(), duplicates()) : new KindCounts(0, 0, 0);
    }

    @Override
    public List<String> missingSamples(int limit) {
        List<String> out = new ArrayList<>();
        for (Group g : groups.values()) {
            long l = last.getOrDefault(g.identity(), 0L);
            if (l < g.seqs().length) {
                if (out.size() >= limit) {
                    break;
                }
                out.add("group " + g.identity() + ": last count " + l + " of " + g.seqs().length);
            }
        }
        return out;
    }
}
