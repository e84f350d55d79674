package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.RtmException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Errors of the state API as named classes with stable codes, after Spark's {@code StateStoreErrors}.
 * Callers match on {@link RtmException#errorCode()} and {@link RtmException#parameters()}.
 */
final class StateErrors {

    private StateErrors() {}

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /**
     * Spark's spelling of a time or output mode in error parameters ({@code TimeMode.toString}: {@code NoTime},
     * {@code ProcessingTime}, {@code EventTime}; {@code OutputMode}: {@code Append}, {@code Update},
     * {@code Complete}).
     *
     * @param modeName our enum constant's name
     * @return Spark's name, or {@code modeName} when it is none of ours
     */
    static String sparkModeName(String modeName) {
        return switch (String.valueOf(modeName)) {
            case "NONE" -> "NoTime";
            case "PROCESSING_TIME" -> "ProcessingTime";
            case "EVENT_TIME" -> "EventTime";
            case "APPEND" -> "Append";
            case "UPDATE" -> "Update";
            case "COMPLETE" -> "Complete";
            default -> modeName;
        };
    }

    /** An operation was called in a handle state that does not allow it. */
    public static final class InvalidHandleStateException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE";

        InvalidHandleStateException(String operationType, HandleState state) {
            super(
                    CODE,
                    params("operationType", operationType, "handleState", state.name()),
                    "Failed to perform stateful processor operation=" + operationType + " with invalid handle state="
                            + state);
        }
    }

    /** An operation needs a time mode other than the processor's (e.g. timers in NONE). */
    public static final class InvalidTimeModeException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE";

        InvalidTimeModeException(String operationType, String timeMode) {
            super(
                    CODE,
                    params("operationType", operationType, "timeMode", sparkModeName(timeMode)),
                    "Cannot perform operation=" + operationType + " with timeMode=" + timeMode);
        }
    }

    /** TTL was requested outside processing time. */
    public static final class IncorrectTimeModeToAssignTtlException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL";

        IncorrectTimeModeToAssignTtlException(String stateName, String timeMode) {
            super(
                    CODE,
                    params("stateName", stateName, "timeMode", sparkModeName(timeMode)),
                    "Cannot use TTL for state=" + stateName + " in timeMode=" + timeMode
                            + "; use PROCESSING_TIME instead");
        }
    }

    /** A TTL duration was zero or negative. */
    public static final class TtlDurationMustBePositiveException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE";

        TtlDurationMustBePositiveException(String operationType, String stateName, Duration ttl) {
            super(
                    CODE,
                    params("operationType", operationType, "stateName", stateName),
                    "TTL duration must be positive for state=" + stateName + " (operation=" + operationType + "): "
                            + ttl);
        }
    }

    /** A state variable name was declared twice. */
    public static final class DuplicateStateVariableException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED";

        DuplicateStateVariableException(String stateName) {
            super(
                    CODE,
                    params("stateVarName", stateName),
                    "State variable with name " + stateName + " has already been defined in the StatefulProcessor");
        }
    }

    /** A null value was written to state. */
    public static final class NullValueException extends RtmException {
        /** Error code. */
        public static final String CODE = "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE";

        NullValueException(String stateName) {
            super(CODE, params("stateName", stateName), "Cannot write a null value to state=" + stateName);
        }
    }

    /** An empty list was written to list state. */
    public static final class EmptyListException extends RtmException {
        /** Error code. */
        public static final String CODE = "ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE";

        EmptyListException(String stateName) {
            super(CODE, params("stateName", stateName), "Cannot write an empty list to state=" + stateName);
        }
    }

    /**
     * State was accessed while no grouping key is current (e.g. from another thread). Spark reports this as an
     * internal error, {@code StateStoreErrors.implicitKeyNotFound}: error class {@code INTERNAL_ERROR_TWS} with the
     * parameter {@code message}.
     */
    public static final class ImplicitKeyNotFoundException extends RtmException {
        /** Error code. */
        public static final String CODE = "INTERNAL_ERROR_TWS";

        ImplicitKeyNotFoundException(String stateName) {
            super(
                    CODE,
                    params("message", "Implicit key not found in state store for stateName=" + stateName),
                    "Implicit key not found in state store for stateName=" + stateName
                            + "; state can be used only while handling rows, initial state or timers");
        }
    }

    /** An empty or over-long state variable name. */
    public static final class InvalidStateNameException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATEFUL_PROCESSOR_INVALID_STATE_NAME";

        InvalidStateNameException(String stateName) {
            super(
                    CODE,
                    params("stateName", String.valueOf(stateName)),
                    "State variable name must be non-empty and at most 1024 UTF-8 bytes: " + stateName);
        }
    }

    /**
     * A state variable name starts with {@code $}, which Spark reserves for its internal column families
     * ({@code RocksDBStateStoreProvider#verifyColFamilyCreationOrDeletion}).
     */
    public static final class ReservedStateNameException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS";

        ReservedStateNameException(String stateName) {
            super(
                    CODE,
                    params("colFamilyName", stateName),
                    "Failed to create column family with reserved_char=$ and name=" + stateName
                            + ": state variable names must not start with $");
        }
    }

    /** An initial-state input held a second row for a grouping key. */
    public static final class CannotReinitializeStateOnKeyException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY";

        CannotReinitializeStateOnKeyException(String groupingKey) {
            super(
                    CODE,
                    params("groupingKey", groupingKey),
                    "Cannot re-initialize state on the same grouping key during initial state handling for stateful"
                            + " processor. Invalid grouping key=" + groupingKey);
        }
    }

    /**
     * An exception thrown by user code of a {@code StatefulProcessor}, wrapped with the function that threw it
     * (Spark's {@code TransformWithStateUserFunctionException}). Errors that already carry an error code (an
     * {@link RtmException}) are not wrapped.
     */
    public static final class UserFunctionException extends RtmException {
        /** Error code. */
        public static final String CODE = "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR";

        UserFunctionException(String function, Throwable cause) {
            super(
                    CODE,
                    params("reason", cause.getMessage() == null ? "" : cause.getMessage(), "function", function),
                    "An error occurred in the user provided function in transformWithState. Function: " + function
                            + ". Reason: " + cause,
                    cause);
        }
    }

    /** Where a restart-validation error arose: Spark's query context, here the operator's name. */
    private static Map<String, String> operator(String operatorName) {
        return Map.of("operator", operatorName);
    }

    /** A restart changed a setting that the state depends on (e.g. the time mode). */
    public static final class InvalidConfigAfterRestartException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATE_STORE_INVALID_CONFIG_AFTER_RESTART";

        InvalidConfigAfterRestartException(String operatorName, String configName, String oldConfig, String newConfig) {
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

    /** A restart declared a state variable under an existing name with another kind. */
    public static final class InvalidVariableTypeChangeException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE";

        InvalidVariableTypeChangeException(String operatorName, String stateVarName, String oldType, String newType) {
            super(
                    CODE,
                    params("stateVarName", stateVarName, "oldType", oldType, "newType", newType),
                    operator(operatorName),
                    "Operator " + operatorName + ": cannot change " + stateVarName + " to " + newType
                            + " between query restarts. Please set " + stateVarName + " to " + oldType
                            + ", or use a new state variable name (and deleteIfExists the old one).",
                    null);
        }
    }

    /**
     * A restart declared a grouping key, or a map state's user key, with a serde that cannot read the stored keys
     * (Spark's {@code StateStoreKeySchemaNotCompatible}: a map state's key schema is grouping key plus user key).
     */
    public static final class KeySchemaNotCompatibleException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE";

        KeySchemaNotCompatibleException(String operatorName, String storedKeySchema, String newKeySchema) {
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

    /**
     * A restart declared a state variable with a serde that cannot read the stored values, or added or removed its
     * TTL (Spark's {@code StateStoreValueSchemaNotCompatible}).
     */
    public static final class ValueSchemaNotCompatibleException extends RtmException {
        /** Error code. */
        public static final String CODE = "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE";

        ValueSchemaNotCompatibleException(String operatorName, String storedValueSchema, String newValueSchema) {
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

    /**
     * A state reader option names a state variable the operator does not declare (Spark's
     * {@code StateDataSourceErrors.invalidOptionValue}).
     */
    public static final class InvalidOptionValueException extends RtmException {
        /** Error code. */
        public static final String CODE = "STDS_INVALID_OPTION_VALUE.WITH_MESSAGE";

        InvalidOptionValueException(String optionName, String message) {
            super(
                    CODE,
                    params("optionName", optionName, "message", message),
                    "Invalid value for source option '" + optionName + "': " + message);
        }
    }
}
