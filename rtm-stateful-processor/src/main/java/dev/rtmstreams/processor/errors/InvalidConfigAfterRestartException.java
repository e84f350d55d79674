package dev.rtmstreams.processor.errors;

import static dev.rtmstreams.processor.errors.ErrorParameters.operator;
import static dev.rtmstreams.processor.errors.ErrorParameters.params;
import static dev.rtmstreams.processor.errors.ErrorParameters.sparkModeName;

import dev.rtmstreams.processor.RtmException;
import org.apache.kafka.common.annotation.InterfaceStability;

/** A restart changed a setting that the state depends on (e.g. the time mode). */
@InterfaceStability.Evolving
public final class InvalidConfigAfterRestartException extends RtmException {
    /** Error code. */
    public static final String CODE = "STATE_STORE_INVALID_CONFIG_AFTER_RESTART";

    /**
     * Creates the error (thrown by the state runtime; public so that tests of processors can build the expected one).
     *
     * @param operatorName the operator's name
     * @param configName the setting that changed
     * @param oldConfig its value before the restart
     * @param newConfig its value now
     */
    public InvalidConfigAfterRestartException(
            String operatorName, String configName, String oldConfig, String newConfig) {
        super(
                CODE,
                params(
                        "configName",
                        configName,
                        "oldConfig",
                        sparkModeName(oldConfig),
                        "newConfig",
                        sparkModeName(newConfig)),
                operator(operatorName),
                "Operator " + operatorName + ": cannot change " + configName + " from " + oldConfig + " to "
                        + newConfig + " between restarts. Set " + configName + " back to " + oldConfig
                        + ", or restart with a new application id (or after resetting the application) to"
                        + " start from empty state.",
                null);
    }
}
