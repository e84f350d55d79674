package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * End-to-end latency before and during an event, from the load run's per-second series ({@code per_second}: per second
 * of the load {@code t}, its {@code outputs}, {@code p99} and {@code max} in ms). The p99 of a window is bounded by the
 * largest per-second p99 in it (at most 1% of each second's outputs are above that second's p99, so at most 1% of the
 * window's are above the largest), so the report gives that bound for both windows: the same estimator before and
 * during.
 */
final class LatencyWindows {

    private LatencyWindows() {}

    /**
     * The largest value of a per-second field over the seconds {@code [fromS, toS)} that had outputs.
     *
     * @param perSecond the series (an array of objects), or null
     * @param field {@code p99} or {@code max}
     * @param fromS first second, inclusive
     * @param toS last second, exclusive
     * @return the largest value, or -1 when no second of the window had outputs
     */
    static double max(JsonNode perSecond, String field, long fromS, long toS) {
        double out = -1;
        if (perSecond == null || !perSecond.isArray()) {
            return out;
        }
        for (JsonNode s : perSecond) {
            long t = s.path("t").asLong(-1);
            if (t >= fromS && t < toS && s.path("outputs").asLong(0) > 0 && s.has(field)) {
                out = Math.max(out, s.get(field).asDouble());
            }
        }
        return out;
    }
}
