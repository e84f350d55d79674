package dev.rtmstreams.adattribution.workload;

import java.util.List;

/**
 * Checks observed outputs against an oracle, one at a time as they arrive, and counts what it saw. {@link
 * OutputMatcher} expects an exact multiset of outputs; the load generator's count matcher checks the updates of a
 * running count.
 *
 * <p>{@link #accept} is called from one thread; the count getters may be read from other threads.
 */
public interface Matcher {

    /**
     * Accepts one observed output.
     *
     * @param o the output; not null
     * @return the expectation it satisfied (its {@link Expected#completingSeq()} is the input whose send time latency
     *     is measured from), or null if it was a duplicate or unexpected
     */
    Expected accept(Observed o);

    /**
     * The figures of one output kind.
     *
     * @param expected outputs of the kind the oracle expects
     * @param matched outputs of the kind that matched an expected one
     * @param duplicates outputs of the kind beyond the expected multiplicity
     */
    record KindCounts(long expected, long matched, long duplicates) {}

    /** @return the number of expected outputs */
    long expected();

    /** @return outputs observed so far */
    long observed();

    /** @return expected outputs seen so far */
    long matched();

    /** @return expected outputs not (yet) observed */
    long missing();

    /** @return observed outputs beyond the expected multiplicity */
    long duplicates();

    /** @return observed outputs not expected, including those with wrong key or content */
    long unexpected();

    /** @return observed outputs whose identity was expected but whose key or content differed */
    long mismatched();

    /**
     * Returns up to {@code limit} expected outputs still missing.
     *
     * @param limit maximum number returned
     * @return descriptions of missing outputs
     */
    List<String> missingSamples(int limit);

    /** @return up to 20 descriptions of unexpected outputs */
    List<String> unexpectedSamples();

    /** @return up to 20 descriptions of duplicated outputs */
    List<String> duplicateSamples();

    /**
     * Returns the figures of one output kind (the demo reports click attribution and request/ack correlation apart).
     *
     * @param kind an output kind; not null
     * @return its expected, matched and duplicated outputs; zeros for a kind this oracle does not expect
     */
    KindCounts counts(OutputKind kind);
}
