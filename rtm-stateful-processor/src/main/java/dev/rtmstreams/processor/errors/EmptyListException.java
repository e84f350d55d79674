package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** An empty list was written to list state. */
@InterfaceStability.Evolving
public final class EmptyListException extends RtmException {
    /** Error code. */
    public static final String CODE = "ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param stateName the state variable's name
     */
    public EmptyListException(String stateName) {
        super(CODE, params("stateName", stateName), "Cannot write an empty list to state=" + stateName);
    }
}
