package dev.rtmstreams.adattribution.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * What every {@link Matcher} counts, whatever its oracle: the outputs observed, matched, duplicated, unexpected and
 * mismatched, with up to 20 sample descriptions of the unexpected and the duplicated ones. A subclass decides in
 * {@link #accept} what an output is and reports it through the {@code count...} methods.
 *
 * <p>Not thread-safe for {@link #accept}; the count getters may be read from other threads.
 */
public abstract class AbstractMatcher implements Matcher {

    private static final int SAMPLE_LIMIT = 20;

    private final List<String> unexpectedSamples = new ArrayList<>();
    private final List<String> duplicateSamples = new ArrayList<>();
    // written by the accepting thread only, read by any
    private volatile long observed;
    private volatile long matched;
    private volatile long duplicates;
    private volatile long unexpected;
    private volatile long mismatched;

    /** For subclasses. */
    protected AbstractMatcher() {}

    /** Counts an observed output (every output {@link #accept} is given). */
    protected final void countObserved() {
        observed++;
    }

    /** Counts an output that matched an expected one. */
    protected final void countMatched() {
        matched++;
    }

    /**
     * Counts an output beyond the expected multiplicity.
     *
     * @param sample its description, kept if fewer than 20 are
     */
    protected final void countDuplicate(String sample) {
        duplicates++;
        sample(duplicateSamples, sample);
    }

    /**
     * Counts an output that was not expected at all.
     *
     * @param sample its description, kept if fewer than 20 are
     */
    protected final void countUnexpected(String sample) {
        unexpected++;
        sample(unexpectedSamples, sample);
    }

    /**
     * Counts an output whose identity was expected but whose key or content differed: unexpected and mismatched.
     *
     * @param sample its description, kept with the unexpected ones if fewer than 20 are
     */
    protected final void countMismatched(String sample) {
        unexpected++;
        mismatched++;
        sample(unexpectedSamples, sample);
    }

    private static void sample(List<String> samples, String text) {
        if (samples.size() < SAMPLE_LIMIT) {
            samples.add(text);
        }
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
        return expected() - matched;
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
