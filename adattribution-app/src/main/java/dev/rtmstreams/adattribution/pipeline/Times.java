package dev.rtmstreams.adattribution.pipeline;

import java.time.Instant;

/** Converts between epoch milliseconds and the generated classes' timestamp-millis type. */
final class Times {
    private Times() {}

    static Instant wire(long epochMs) {
        return Instant.ofEpochMilli(epochMs);
    }

    static long millis(Instant t) {
        return t.toEpochMilli();
    }
}
