package dev.rtmstreams.adattribution.workload;

import java.util.Objects;

/**
 * One output record read from the output topics, decoded and reduced to what the oracle checks.
 *
 * @param kind the output kind
 * @param key the Kafka key it carried (may be empty if it had none)
 * @param identity its identity (see {@link OutputKind})
 * @param fingerprint its content in the canonical form of {@link Expected#fingerprint()}
 * @param receivedNanos when the consumer received it, on the run's {@code System.nanoTime()} clock
 */
public record Observed(OutputKind kind, String key, String identity, String fingerprint, long receivedNanos) {
    /** Validates non-null fields. */
    public Observed {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }
}
