package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A state variable name starts with {@code $}, which Spark reserves for its internal column families
 * ({@code RocksDBStateStoreProvider#verifyColFamilyCreationOrDeletion}).
 */
@InterfaceStability.Evolving
public final class ReservedStateNameException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param stateName the state variable's name
     */
    public ReservedStateNameException(String stateName) {
        super(
                CODE,
                params("colFamilyName", stateName),
                "Failed to create column family with reserved_char=$ and name=" + stateName
                        + ": state variable names must not start with $");
    }
}
