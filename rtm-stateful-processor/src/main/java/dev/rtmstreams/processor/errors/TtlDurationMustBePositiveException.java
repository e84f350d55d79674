package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import java.time.Duration;
import org.apache.kafka.common.annotation.InterfaceStability;

/** A TTL duration was zero or negative. */
@InterfaceStability.Evolving
public final class TtlDurationMustBePositiveException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operationType the operation that was refused
     * @param stateName the state variable's name
     * @param ttl the TTL that was given
     */
    public TtlDurationMustBePositiveException(String operationType, String stateName, Duration ttl) {
        super(
                CODE,
                params("operationType", operationType, "stateName", stateName),
                "TTL duration must be positive for state=" + stateName + " (operation=" + operationType + "): " + ttl);
    }
}
