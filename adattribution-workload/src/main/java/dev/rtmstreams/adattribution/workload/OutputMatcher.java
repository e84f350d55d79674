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
public final class OutputMatcher implements Matcher {

    private static final int SAMPLE_LIMIT = 20;

    private final Map<String, Deque<Expected>> remaining = new HashMap<>();
    private final long expectedCount;
    private volatile long observed;
    private volatile long matched;
    private volatile long duplicates;
    private volatile long unexpected;
    private volatile long mismatched;
    private final List<String> unexpectedSamples = new ArrayList<>();
    private final List<String> duplicateSamples = new ArrayList<>();
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
        observed++;
        Deque<Expected> queue = remaining.get(slot(o.kind(), o.identity()));
        if (queue == null) {
            unexpected++;
            sample(unexpectedSamples, "not expected: " + o.kind() + " " + o.fingerprint());
            return null;
        }
        if (queue.isEmpty()) {
            duplicates++;
            duplicatesByKind.incrementAndGet(o.kind().ordinal());
            sample(duplicateSamples, o.kind() + " " + o.identity());
            return null;
        }
        for (Expected e : queue) {
            if (e.fingerprint().equals(o.fingerprint()) && e.key().equals(o.key())) {
                queue.remove(e);
                matched++;
                matchedByKind.incrementAndGet(e.kind().ordinal());
                return e;
            }
        }
        unexpected++;
        mismatched++;
        sample(
                unexpectedSamples,
                "content differs: got key=" + o.key() + " " + o.fingerprint() + " expected key="
                        + queue.peek().key() + " " + queue.peek().fingerprint());
        return null;
    }

    private static void sample(List<String> samples, String text) {
        if (samples.size() < SAMPLE_LIMIT) {
            samples.add(text);
        }
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

    /** @return outputs observed so far */
    @Override
    public long observed() {
        return observed;
    }

    /** @return observed outputs that matched an expected one */
    @Override
    public long matched() {
        return matched;
    }

    /** @return expected outputs not (yet) observed */
    @Override
    public long missing() {
        return expectedCount - matched;
    }

    /** @return observed outputs beyond the expected multiplicity */
    @Override
    public long duplicates() {
        return duplicates;
    }

    /** @return observed outputs not expected, including those with wrong key or content */
    @Override
    public long unexpected() {
        return unexpected;
    }

    /** @return observed outputs whose identity was expected but whose key or content differed */
    @Override
    public long mismatched() {
        return mismatched;
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

    /** @return up to 20 descriptions of unexpected outputs */
    @Override
    public List<String> unexpectedSamples() {
        return List.copyOf(unexpectedSamples);
    }

    /** @return up to 20 descriptions of duplicated outputs */
    @Override
    public List<String> duplicateSamples() {
        return List.copyOf(duplicateSamples);
    }
}
