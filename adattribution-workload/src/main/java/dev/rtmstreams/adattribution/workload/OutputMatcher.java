package dev.rtmstreams.adattribution.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Matches observed outputs against the expected ones, one at a time as they arrive.
 *
 * <p>Expected outputs are a multiset per (kind, identity). An observed output whose identity is
 * expected and not yet used up, with the same key and fingerprint, is <em>matched</em>; one whose
 * identity is expected but already used up is a <em>duplicate</em>; one whose identity is not
 * expected at all, or whose key or content differs, is <em>unexpected</em> (the latter also counted
 * as <em>mismatched</em>). Whatever remains unmatched at the end is <em>missing</em>.
 *
 * <p>Not thread-safe for {@link #accept}; the count getters may be read from other threads.
 */
public final class OutputMatcher extends AbstractMatcher {

    private final Map<String, Deque<Expected>> remaining = new HashMap<>();
    private final long expectedCount;
    // per OutputKind ordinal
    private final AtomicLongArray expectedByKind = new AtomicLongArray(OutputKind.values().length);
    private final AtomicLongArray matchedByKind = new AtomicLongArray(OutputKind.values().length);
    private final AtomicLongArray duplicatesByKind = new AtomicLongArray(OutputKind.values().length);

    /**
     * Creates a matcher.
     *
     * @param expected the expected outputs; not null
     */
    public OutputMatcher(List<Expected> expected) {
        for (Expected e : expected) {
            remaining
                    .computeIfAbsent(slot(e.kind(), e.identity()), k -> new ArrayDeque<>())
                    .add(e);
            expectedByKind.incrementAndGet(e.kind().ordinal());
        }
        this.expectedCount = expected.size();
    }

    private static String slot(OutputKind kind, String identity) {
        return kind.name() + "/" + identity;
    }

    /**
     * Accepts one observed output.
     *
     * @param o the output; not null
     * @return the expected output it matched, or null if it was a duplicate or unexpected
     */
    @Override
    public Expected accept(Observed o) {
        countObserved();
        Deque<Expected> queue = remaining.get(slot(o.kind(), o.identity()));
        if (queue == null) {
            countUnexpected("not expected: " + o.kind() + " " + o.fingerprint());
            return null;
        }
        if (queue.isEmpty()) {
            countDuplicate(o.kind() + " " + o.identity());
            duplicatesByKind.incrementAndGet(o.kind().ordinal());
            return null;
        }
        for (Expected e : queue) {
            if (e.fingerprint().equals(o.fingerprint()) && e.key().equals(o.key())) {
                queue.remove(e);
                countMatched();
                matchedByKind.incrementAndGet(e.kind().ordinal());
                return e;
            }
        }
        countMismatched("content differs: got key=" + o.key() + " " + o.fingerprint() + " expected key="
                + queue.peek().key() + " " + queue.peek().fingerprint());
        return null;
    }

    /** @return the number of expected outputs */
    @Override
    public long expected() {
        return expectedCount;
    }

    @Override
    public KindCounts counts(OutputKind kind) {
        int k = kind.ordinal();
        return new KindCounts(expectedByKind.get(k), matchedByKind.get(k), duplicatesByKind.get(k));
    }

    /**
     * Returns up to {@code limit} expected outputs still missing.
     *
     * @param limit maximum number returned
     * @return descriptions of missing outputs
     */
    @Override
    public List<String> missingSamples(int limit) {
        List<String> out = new ArrayList<>();
        for (Deque<Expected> q : remaining.values()) {
            for (Expected e : q) {
                if (out.size() >= limit) {
                    return out;
                }
                out.add(e.kind() + " " + e.fingerprint());
            }
        }
        return out;
    }
}
