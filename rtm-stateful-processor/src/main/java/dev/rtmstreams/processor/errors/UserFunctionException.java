package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * An exception thrown by user code of a {@code StatefulProcessor}, wrapped with the function that threw it
 * (Spark's {@code TransformWithStateUserFunctionException}). Errors that already carry an error code (an
 * {@link RtmException}) are not wrapped.
 */
@InterfaceStability.Evolving
public final class UserFunctionException extends RtmException {
    /** Error code. */
    public static final String CODE = "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param function the user function that threw
     * @param cause what it threw
     */
    public UserFunctionException(String function, Throwable cause) {
        super(
                CODE,
                params("reason", cause.getMessage() == null ? "" : cause.getMessage(), "function", function),
                "An error occurred in the user provided function in transformWithState. Function: " + function
                        + ". Reason: " + cause,
                cause);
    }
}
