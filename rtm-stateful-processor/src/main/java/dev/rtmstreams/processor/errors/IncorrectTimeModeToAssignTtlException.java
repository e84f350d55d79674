package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;
import static dev.rtmstreams.processor.errors.ErrorParameters.sparkModeName;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** TTL was requested outside processing time. */
@InterfaceStability.Evolving
public final class IncorrectTimeModeToAssignTtlException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param stateName the state variable's name
     * @param timeMode the processor's time mode (our enum name)
     */
    public IncorrectTimeModeToAssignTtlException(String stateName, String timeMode) {
        super(
                CODE,
                params("stateName", stateName, "timeMode", sparkModeName(timeMode)),
                "Cannot use TTL for state=" + stateName + " in timeMode=" + timeMode + "; use PROCESSING_TIME instead");
    }
}
