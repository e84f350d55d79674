package dev.rtmstreams.adattribution.workload;

import java.util.Objects;

/**
 * One output record the system under test must produce.
 *
 * @param kind the output kind
 * @param key the Kafka key the output must carry
 * @param identity what identifies the output (see {@link OutputKind})
 * @param fingerprint the output's content that must match, in canonical form
 * @param completingSeq the {@code seq} of the input event that completed the match (latency is
 *     measured from its send time)
 */
public record Expected(OutputKind kind, String key, String identity, String fingerprint, long completingSeq) {
    /** Validates non-null fields. */
    public Expected {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }
}
