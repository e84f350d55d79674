package dev.rtmstreams.processor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Root of every error rtm-streams raises on purpose. Each error has a stable {@link #errorCode()}
 * (e.g. {@code STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE}, following Spark's error classes)
 * and named {@link #parameters()}; tests and callers should match on those, not on the message text. Where the error
 * arose (e.g. the operator whose restart validation failed) is in {@link #context()}, apart from the parameters, as
 * Spark keeps an error's query context apart from its message parameters.
 */
@InterfaceStability.Evolving
public class RtmException extends RuntimeException {

    private final String errorCode;
    private final Map<String, String> parameters;
    private final Map<String, String> context;

    /**
     * @param errorCode stable, upper-case error code
     * @param parameters named parameters of the error, in message order (copied)
     * @param context where the error arose, e.g. {@code operator -> its name} (copied; may be empty)
     * @param message human-readable message naming the bad value or operation
     * @param cause the cause, or null
     */
    public RtmException(
            String errorCode,
            Map<String, String> parameters,
            Map<String, String> context,
            String message,
            Throwable cause) {
        super("[" + errorCode + "] " + message, cause);
        this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        this.context = Collections.unmodifiableMap(new LinkedHashMap<>(context));
    }

    /** Same as {@link #RtmException(String, Map, Map, String, Throwable)} without a context. */
    public RtmException(String errorCode, Map<String, String> parameters, String message, Throwable cause) {
        this(errorCode, parameters, Map.of(), message, cause);
    }

    /** Same as {@link #RtmException(String, Map, String, Throwable)} without a cause. */
    public RtmException(String errorCode, Map<String, String> parameters, String message) {
        this(errorCode, parameters, message, null);
    }

    /** @return the stable error code */
    public String errorCode() {
        return errorCode;
    }

    /** @return the error's named parameters (unmodifiable) */
    public Map<String, String> parameters() {
        return parameters;
    }

    /**
     * @return where the error arose (unmodifiable; empty when not recorded): {@code operator} names the operator
     *     whose restart validation failed
     */
    public Map<String, String> context() {
        return context;
    }
}
