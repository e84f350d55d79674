package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A restart would give an evolvable state variable more schema evolutions than
 * {@code rtm.state.value.schema.evolution.threshold} allows (Spark's
 * {@code StateStoreValueSchemaEvolutionThresholdExceeded}).
 */
@InterfaceStability.Evolving
public final class ValueSchemaEvolutionThresholdExceededException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_VALUE_SCHEMA_EVOLUTION_THRESHOLD_EXCEEDED";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operatorName the operator's name
     * @param numSchemaEvolutions the evolutions the variable would have (its schemas less one)
     * @param maxSchemaEvolutions the threshold
     * @param colFamilyName the state variable
     */
    public ValueSchemaEvolutionThresholdExceededException(
            String operatorName, int numSchemaEvolutions, int maxSchemaEvolutions, String colFamilyName) {
        super(
                CODE,
                params(
                        "numSchemaEvolutions",
                        String.valueOf(numSchemaEvolutions),
                        "maxSchemaEvolutions",
                        String.valueOf(maxSchemaEvolutions),
                        "colFamilyName",
                        colFamilyName),
                Map.of("operator", operatorName),
                "Operator " + operatorName + ": state variable " + colFamilyName + " would have "
                        + numSchemaEvolutions + " schema evolutions, more than the " + maxSchemaEvolutions
                        + " allowed. Raise rtm.state.value.schema.evolution.threshold, or move the state to a new"
                        + " state variable name.",
                null);
    }
}
