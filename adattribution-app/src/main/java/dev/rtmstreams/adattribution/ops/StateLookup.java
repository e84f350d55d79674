package dev.rtmstreams.adattribution.ops;

/** Answers {@code GET /state/{operator}/{key}} of the {@link HttpEndpoint}. */
@FunctionalInterface
public interface StateLookup {

    /**
     * An HTTP answer.
     *
     * @param status 200 with a JSON line; 404 when the operator is unknown or the key has no state on this instance
     * @param body the body
     */
    record Response(int status, String body) {}

    /**
     * @param operator the operator's name
     * @param key the grouping key as text
     * @return the answer
     */
    Response lookup(String operator, String key);
}
