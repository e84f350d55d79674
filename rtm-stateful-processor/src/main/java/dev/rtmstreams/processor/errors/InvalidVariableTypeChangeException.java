package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.operator;
import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** A restart declared a state variable under an existing name with another kind. */
@InterfaceStability.Evolving
public final class InvalidVariableTypeChangeException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operatorName the operator's name
     * @param stateVarName the state variable's name
     * @param oldType its type before the restart
     * @param newType its type now
     */
    public InvalidVariableTypeChangeException(
            String operatorName, String stateVarName, String oldType, String newType) {
        super(
                CODE,
                params("stateVarName", stateVarName, "oldType", oldType, "newType", newType),
                operator(operatorName),
                "Operator " + operatorName + ": cannot change " + stateVarName + " to " + newType
                        + " between query restarts. Please set " + stateVarName + " to " + oldType
                        + ", or use a new state variable name (and deleteIfExists the old one).",
                null);
    }
}
