package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A state reader option names a state variable the operator does not declare (Spark's
 * {@code StateDataSourceErrors.invalidOptionValue}).
 */
@InterfaceStability.Evolving
public final class InvalidOptionValueException extends RtmException {
    /** Error code. */
    public static final String CODE = "STDS_INVALID_OPTION_VALUE.WITH_MESSAGE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param optionName the option
     * @param message what is wrong with its value
     */
    public InvalidOptionValueException(String optionName, String message) {
        super(
                CODE,
                params("optionName", optionName, "message", message),
                "Invalid value for source option '" + optionName + "': " + message);
    }
}
