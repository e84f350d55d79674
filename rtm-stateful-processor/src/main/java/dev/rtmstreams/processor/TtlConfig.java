package dev.rtmstreams.processor;

import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Time-to-live of a state variable, as in Spark's {@code TTLConfig}. Only valid in
 * {@link TimeMode#PROCESSING_TIME}: expiry = processing time of the write + {@link #ttlDuration()}.
 *
 * <pre>{@code
 * ValueState<Long> count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.of(Duration.ofMinutes(5)));
 * }</pre>
 *
 * Instances are immutable. {@link #NONE} (a zero duration) disables TTL. As in Spark, the duration is checked when
 * the state variable is declared with it: a null or negative duration fails there with
 * {@code STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE} (parameters {@code operationType=update} and
 * {@code stateName}).
 */
@InterfaceStability.Stable
public final class TtlConfig {

    /** No TTL: values live until cleared. */
    public static final TtlConfig NONE = new TtlConfig(Duration.ZERO);

    private final Duration ttlDuration;

    private TtlConfig(Duration ttlDuration) {
        this.ttlDuration = ttlDuration;
    }

    /**
     * @param ttlDuration how long a value lives after its last write; zero disables TTL (same as {@link #NONE});
     *     null or negative is rejected when a state variable is declared with it (Spark's {@code TTLConfig})
     * @return a TTL configuration
     */
    public static TtlConfig of(Duration ttlDuration) {
        return ttlDuration != null && ttlDuration.isZero() ? NONE : new TtlConfig(ttlDuration);
    }

    /** @return the TTL duration; {@link Duration#ZERO} for {@link #NONE}; as given to {@link #of} otherwise */
    public Duration ttlDuration() {
        return ttlDuration;
    }

    /** @return true unless this is {@link #NONE} */
    public boolean isEnabled() {
        return ttlDuration == null || !ttlDuration.isZero();
    }

    /** @return true when the duration is usable: zero (no TTL) or positive */
    public boolean isValid() {
        return ttlDuration != null && !ttlDuration.isNegative();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TtlConfig other && Objects.equals(other.ttlDuration, ttlDuration);
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
