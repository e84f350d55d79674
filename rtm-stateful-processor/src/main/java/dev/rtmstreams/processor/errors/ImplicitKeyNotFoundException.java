package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * State was accessed while no grouping key is current (e.g. from another thread). Spark reports this as an
 * internal error, {@code StateStoreErrors.implicitKeyNotFound}: error class {@code INTERNAL_ERROR_TWS} with the
 * parameter {@code message}.
 */
@InterfaceStability.Evolving
public final class ImplicitKeyNotFoundException extends RtmException {
    /** Error code. */
    public static final String CODE = "INTERNAL_ERROR_TWS";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param stateName the state variable's name
     */
    public ImplicitKeyNotFoundException(String stateName) {
        super(
                CODE,
                params("message", "Implicit key not found in state store for stateName=" + stateName),
                "Implicit key not found in state store for stateName=" + stateName
                        + "; state can be used only while handling rows, initial state or timers");
    }
}
