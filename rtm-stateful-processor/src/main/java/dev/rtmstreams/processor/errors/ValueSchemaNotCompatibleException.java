package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.operator;
import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A restart declared a state variable with a serde that cannot read the stored values, or added or removed its
 * TTL (Spark's {@code StateStoreValueSchemaNotCompatible}).
 */
@InterfaceStability.Evolving
public final class ValueSchemaNotCompatibleException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operatorName the operator's name
     * @param storedValueSchema the value schema in the state
     * @param newValueSchema the value schema now
     */
    public ValueSchemaNotCompatibleException(String operatorName, String storedValueSchema, String newValueSchema) {
        super(
                CODE,
                params("storedValueSchema", storedValueSchema, "newValueSchema", newValueSchema),
                operator(operatorName),
                "Operator " + operatorName + ": provided value schema does not match existing state value"
                        + " schema. Existing value schema=" + storedValueSchema + ". New value schema="
                        + newValueSchema + ". Use the old serde and TTL, or a new state variable name.",
                null);
    }
}
