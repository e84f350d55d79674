package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.operator;
import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * An operator would have to write a state format version newer than {@code rtm.state.write.format.version} allows:
 * during a rolling upgrade from a release that reads only older versions, it declares (or its state retains) a state
 * variable that needs the newer version, e.g. one with an {@code EvolvableSerde} (format version 3). The operator
 * refuses to start rather than write state the older instances cannot read.
 */
@InterfaceStability.Evolving
public final class StateFormatVersionNotWritableException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_FORMAT_VERSION_NOT_WRITABLE";

    /**
     * Creates the error (thrown by the state runtime; public so that tests can build the expected one).
     *
     * @param operatorName the operator's name
     * @param storeName the operator's store
     * @param requiredVersion the format version the operator's state needs
     * @param writeVersion the newest format version the configuration allows
     * @param variables the state variables that need the newer version, comma-separated
     */
    public StateFormatVersionNotWritableException(
            String operatorName, String storeName, int requiredVersion, int writeVersion, String variables) {
        super(
                CODE,
                params(
                        "storeName",
                        storeName,
                        "requiredVersion",
                        String.valueOf(requiredVersion),
                        "writeVersion",
                        String.valueOf(writeVersion),
                        "variables",
                        variables),
                operator(operatorName),
                "Operator " + operatorName + ": state variables " + variables + " need state format version "
                        + requiredVersion + ", but rtm.state.write.format.version=" + writeVersion
                        + " (a rolling upgrade from a release that reads only older versions). Finish the upgrade"
                        + " (every instance on this release), then remove the setting and start this operator"
                        + " again. See docs/upgrading.md.",
                null);
    }
}
