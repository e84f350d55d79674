package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.operator;
import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A restart declared a grouping key, or a map state's user key, with a serde that cannot read the stored keys
 * (Spark's {@code StateStoreKeySchemaNotCompatible}: a map state's key schema is grouping key plus user key).
 */
@InterfaceStability.Evolving
public final class KeySchemaNotCompatibleException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operatorName the operator's name
     * @param storedKeySchema the key schema in the state
     * @param newKeySchema the key schema now
     */
    public KeySchemaNotCompatibleException(String operatorName, String storedKeySchema, String newKeySchema) {
        super(
                CODE,
                params("storedKeySchema", storedKeySchema, "newKeySchema", newKeySchema),
                operator(operatorName),
                "Operator " + operatorName + ": provided key schema does not match existing state key schema."
                        + " Existing key schema=" + storedKeySchema + ". New key schema=" + newKeySchema
                        + ". Use the old serde, or a new application id to start from empty state.",
                null);
    }
}
