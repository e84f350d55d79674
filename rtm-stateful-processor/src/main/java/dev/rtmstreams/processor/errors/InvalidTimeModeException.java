package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;
import static dev.rtmstreams.processor.errors.ErrorParameters.sparkModeName;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** An operation needs a time mode other than the processor's (e.g. timers in NONE). */
@InterfaceStability.Evolving
public final class InvalidTimeModeException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operationType the operation that was refused
     * @param timeMode the processor's time mode (our enum name)
     */
    public InvalidTimeModeException(String operationType, String timeMode) {
        super(
                CODE,
                params("operationType", operationType, "timeMode", sparkModeName(timeMode)),
                "Cannot perform operation=" + operationType + " with timeMode=" + timeMode);
    }
}
