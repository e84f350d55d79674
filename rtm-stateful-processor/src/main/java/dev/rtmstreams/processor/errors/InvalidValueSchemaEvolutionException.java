package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A restart declared an evolvable state variable ({@code EvolvableSerde}) with a schema that cannot read values
 * written with one of its earlier schemas (Spark's {@code StateStoreInvalidValueSchemaEvolution}): e.g. a field
 * changed to an incompatible type, narrowed ({@code long} to {@code int}), or added without a default.
 */
@InterfaceStability.Evolving
public final class InvalidValueSchemaEvolutionException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operatorName the operator's name
     * @param stateName the state variable
     * @param oldValueSchema the stored schema the new one cannot read
     * @param newValueSchema the schema declared now
     * @param incompatibility what cannot be read (the field and the two types)
     */
    public InvalidValueSchemaEvolutionException(
            String operatorName,
            String stateName,
            String oldValueSchema,
            String newValueSchema,
            String incompatibility) {
        super(
                CODE,
                params("oldValueSchema", oldValueSchema, "newValueSchema", newValueSchema),
                Map.of("operator", operatorName, "stateName", stateName),
                "Operator " + operatorName + ", state variable " + stateName
                        + ": schema evolution is not possible: the new value schema cannot read values written with"
                        + " an existing schema (" + incompatibility + "). Existing value schema=" + oldValueSchema
                        + ". New value schema=" + newValueSchema + ". Allowed changes: widening (int to long, float"
                        + " to double), adding a field with a default, removing or reordering fields; else use a new"
                        + " state variable name.",
                null);
    }
}
