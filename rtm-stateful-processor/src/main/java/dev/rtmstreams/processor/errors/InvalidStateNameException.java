package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** An empty or over-long state variable name. */
@InterfaceStability.Evolving
public final class InvalidStateNameException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATEFUL_PROCESSOR_INVALID_STATE_NAME";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param stateName the state variable's name
     */
    public InvalidStateNameException(String stateName) {
        super(
                CODE,
                params("stateName", String.valueOf(stateName)),
                "State variable name must be non-empty and at most 1024 UTF-8 bytes: " + stateName);
    }
}
