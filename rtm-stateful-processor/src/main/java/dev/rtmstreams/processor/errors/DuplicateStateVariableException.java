package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** A state variable name was declared twice. */
@InterfaceStability.Evolving
public final class DuplicateStateVariableException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param stateName the state variable's name
     */
    public DuplicateStateVariableException(String stateName) {
        super(
                CODE,
                params("stateVarName", stateName),
                "State variable with name " + stateName + " has already been defined in the StatefulProcessor");
    }
}
