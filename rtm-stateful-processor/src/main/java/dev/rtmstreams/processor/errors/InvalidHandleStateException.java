package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** An operation was called in a handle state that does not allow it. */
@InterfaceStability.Evolving
public final class InvalidHandleStateException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operationType the operation that was refused
     * @param handleState the handle state it was called in
     */
    public InvalidHandleStateException(String operationType, String handleState) {
        super(
                CODE,
                params("operationType", operationType, "handleState", handleState),
                "Failed to perform stateful processor operation=" + operationType + " with invalid handle state="
                        + handleState);
    }
}
