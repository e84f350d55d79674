package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.operator;
import static dev.rtmstreams.processor.errors.ErrorParameters.params;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * An operator found state written in a format version newer than the ones this release reads: the state was written by
 * a newer release (a downgrade), after Spark's {@code INVALID_LOG_VERSION.MAX_SUPPORTED_VERSION}. The operator refuses
 * to start rather than misread the state.
 */
@InterfaceStability.Evolving
public final class StateFormatVersionTooNewException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_FORMAT_VERSION_TOO_NEW";

    /**
     * Creates the error (thrown by the state runtime and the join; public so that tests can build the expected one).
     *
     * @param operatorName the operator's name
     * @param storeName the store holding the metadata record
     * @param foundVersion the format version found in the store
     * @param maxSupportedVersion the newest format version this release reads
     * @param supportedVersions every format version this release reads, e.g. {@code "1, 2"}
     */
    public StateFormatVersionTooNewException(
            String operatorName,
            String storeName,
            int foundVersion,
            int maxSupportedVersion,
            String supportedVersions) {
        super(
                CODE,
                params(
                        "storeName",
                        storeName,
                        "foundVersion",
                        String.valueOf(foundVersion),
                        "maxSupportedVersion",
                        String.valueOf(maxSupportedVersion),
                        "supportedVersions",
                        supportedVersions),
                operator(operatorName),
                "Operator " + operatorName + ": store " + storeName + " holds state in format version "
                        + foundVersion + ", but this release reads only format versions " + supportedVersions
                        + ". The state was written by a newer release. Run a release that reads format version "
                        + foundVersion + " (the release that wrote it or a later one), or restart with a new"
                        + " application id (or after resetting the application) to start from empty state."
                        + " See docs/upgrading.md.",
                null);
    }
}
