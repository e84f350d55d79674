package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** An initial-state input held a second row for a grouping key. */
@InterfaceStability.Evolving
public final class CannotReinitializeStateOnKeyException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param groupingKey the grouping key, as text
     */
    public CannotReinitializeStateOnKeyException(String groupingKey) {
        super(
                CODE,
                params("groupingKey", groupingKey),
                "Cannot re-initialize state on the same grouping key during initial state handling for stateful"
                        + " processor. Invalid grouping key=" + groupingKey);
    }
}
