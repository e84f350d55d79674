package dev.rtmstreams.adattribution.model;

import org.apache.kafka.common.KafkaException;

/**
 * A Schema Registry request failed: the registry answered with an error ({@link #status()} and the registry's
 * {@link #errorCode()}, e.g. 40403 for an unknown schema id), or could not be reached ({@link #status()} -1).
 */
public final class SchemaRegistryException extends KafkaException {

    private static final long serialVersionUID = 1L;

    /** The registry's error code of an unknown schema id. */
    public static final int SCHEMA_NOT_FOUND = 40403;
    /** The registry's error code of an unknown subject. */
    public static final int SUBJECT_NOT_FOUND = 40401;

    private final int status;
    private final int errorCode;

    SchemaRegistryException(String message, int status, int errorCode, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
    }

    /** @return the HTTP status, or -1 when the registry could not be reached */
    public int status() {
        return status;
    }

    /** @return the registry's {@code error_code}, or -1 when it sent none */
    public int errorCode() {
        return errorCode;
    }

    /** @return whether the registry said the schema id or subject does not exist */
    public boolean isNotFound() {
        return status == 404;
    }
}
