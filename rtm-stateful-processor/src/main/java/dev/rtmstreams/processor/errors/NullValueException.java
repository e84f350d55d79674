package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** A null value was written to state. */
@InterfaceStability.Evolving
public final class NullValueException extends RtmException {
    /** Error code. */
    public static final String CODE = "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param stateName the state variable's name
     */
    public NullValueException(String stateName) {
        super(CODE, params("stateName", stateName), "Cannot write a null value to state=" + stateName);
    }
}
