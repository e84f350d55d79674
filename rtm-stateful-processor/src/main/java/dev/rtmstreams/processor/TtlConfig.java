package dev.rtmstreams.processor;

import java.time.Duration;
import java.util.Objects;

/**
 * Time-to-live of a state variable, as in Spark's {@code TTLConfig}. Only valid in
 * {@link TimeMode#PROCESSING_TIME}: expiry = processing time of the write + {@link #ttlDuration()}.
 *
 * <pre>{@code
 * ValueState<Long> count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.of(Duration.ofMinutes(5)));
 * }</pre>
 *
 * Instances are immutable. {@link #NONE} disables TTL.
 */
public final class TtlConfig {

    /** No TTL: values live until cleared. */
    public static final TtlConfig NONE = new TtlConfig(Duration.ZERO);

    private final Duration ttlDuration;

    private TtlConfig(Duration ttlDuration) {
        this.ttlDuration = ttlDuration;
    }

    /**
     * @param ttlDuration how long a value lives after its last write; must be positive
     * @return a TTL configuration
     * @throws RtmException with code {@code STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE} (parameter
     *     {@code ttlDuration}) when {@code ttlDuration} is null, zero or negative
     */
    public static TtlConfig of(Duration ttlDuration) {
        if (ttlDuration == null || ttlDuration.isZero() || ttlDuration.isNegative()) {
            throw dev.rtmstreams.processor.internals.StateErrors.ttlMustBePositive(ttlDuration);
        }
        return new TtlConfig(ttlDuration);
    }

    /** @return the TTL duration; {@link Duration#ZERO} for {@link #NONE} */
    public Duration ttlDuration() {
        return ttlDuration;
    }

    /** @return true unless this is {@link #NONE} */
    public boolean isEnabled() {
        return !ttlDuration.isZero();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TtlConfig other && other.ttlDuration.equals(ttlDuration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ttlDuration);
    }

    @Override
    public String toString() {
        return isEnabled() ? "TtlConfig(" + ttlDuration + ")" : "TtlConfig.NONE";
    }
}
