package dev.rtmstreams.processor;

import java.util.Iterator;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Serde;

/**
 * The processor's access to its state, timers and query identity, as in Spark's {@code StatefulProcessorHandle}.
 * Obtained with {@link StatefulProcessor#getHandle()}.
 *
 * <p>Lifecycle, as in Spark (checked on every call; a wrong call throws an {@link RtmException} with code
 * {@code STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE} and parameters
 * {@code operationType} and {@code handleState}): CREATED (while {@code init} runs), INITIALIZED (after
 * {@code init}; also while {@code handleInitialState} runs), DATA_PROCESSED (inside {@code handleInputRows}),
 * TIMER_PROCESSED (inside {@code handleExpiredTimer}), CLOSED (after {@code close}).
 * <ul>
 *   <li>state variables may be declared only in {@code init};</li>
 *   <li>timers may be registered, deleted and listed only while handling input, initial state or timers
 *       (never in {@code init}), and only when the time mode is not {@link TimeMode#NONE} (else code
 *       {@code STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE});</li>
 *   <li>TTL other than {@link TtlConfig#NONE} is allowed only in {@link TimeMode#PROCESSING_TIME} (else code
 *       {@code STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL});</li>
 *   <li>a name declared twice fails with {@code STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED} (parameter
 *       {@code stateVarName});</li>
 *   <li>state variables used in {@code init} or {@code close} fail with
 *       {@code STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE} (handle state
 *       {@code CREATED} or {@code CLOSED}); used from any other place where no grouping key is current (e.g.
 *       another thread) they fail with Spark's internal error {@code INTERNAL_ERROR_TWS} (parameter {@code message}:
 *       {@code Implicit key not found in state store for stateName=<name>}).</li>
 * </ul>
 * Operation types in error parameters use Spark's spelling: {@code get_value_state}, {@code get_list_state},
 * {@code get_map_state}, {@code register_timer}, {@code delete_timer}, {@code list_timers},
 * {@code delete_if_exists}, {@code get_query_info}, and for state variables the method name in snake case
 * ({@code get}, {@code get_option}, {@code update}, ...).
 * State and timers are scoped to the grouping key of the current call.
 */
@InterfaceStability.Stable
public interface StatefulProcessorHandle {

    /**
     * Declares a value state variable. Only in {@code init}.
     *
     * @param stateName unique name within the processor; must not start with {@code $} (reserved, as in Spark: code
     *     {@code STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS}, parameter {@code colFamilyName})
     * @param valueSerde serde of the value
     * @param ttlConfig TTL, or {@link TtlConfig#NONE}
     * @throws RtmException when called outside {@code init}, when the name is already declared, or when TTL is
     *     set and the time mode is not processing time
     */
    <T> ValueState<T> getValueState(String stateName, Serde<T> valueSerde, TtlConfig ttlConfig);

    /** Same as {@link #getValueState(String, Serde, TtlConfig)} without TTL. */
    default <T> ValueState<T> getValueState(String stateName, Serde<T> valueSerde) {
        return getValueState(stateName, valueSerde, TtlConfig.NONE);
    }

    /** Declares a list state variable. Only in {@code init}. Errors as {@link #getValueState}. */
    <T> ListState<T> getListState(String stateName, Serde<T> elementSerde, TtlConfig ttlConfig);

    /** Same as {@link #getListState(String, Serde, TtlConfig)} without TTL. */
    default <T> ListState<T> getListState(String stateName, Serde<T> elementSerde) {
        return getListState(stateName, elementSerde, TtlConfig.NONE);
    }

    /** Declares a map state variable. Only in {@code init}. Errors as {@link #getValueState}. */
    <UK, UV> MapState<UK, UV> getMapState(
            String stateName, Serde<UK> userKeySerde, Serde<UV> valueSerde, TtlConfig ttlConfig);

    /** Same as {@link #getMapState(String, Serde, Serde, TtlConfig)} without TTL. */
    default <UK, UV> MapState<UK, UV> getMapState(String stateName, Serde<UK> userKeySerde, Serde<UV> valueSerde) {
        return getMapState(stateName, userKeySerde, valueSerde, TtlConfig.NONE);
    }

    /**
     * Registers a timer for the current grouping key at {@code expiryTimestampMs} (processing time or event
     * time, per the time mode). Registering the same time twice keeps one timer. Persisted: it survives restarts
     * and rebalances. Processing-time timers fire on the wall clock without new input; event-time timers fire
     * when the watermark passes them.
     *
     * @throws RtmException in {@code init}, after close, or in {@link TimeMode#NONE}
     */
    void registerTimer(long expiryTimestampMs);

    /** Deletes the current key's timer at {@code expiryTimestampMs}; nothing when there is none. */
    void deleteTimer(long expiryTimestampMs);

    /** @return the current key's pending timers in ascending order (including ones that are due but not yet handled) */
    Iterator<Long> listTimers();

    /**
     * Deletes every value of the state variable {@code stateName} (for all keys of this task), for a variable that
     * is no longer declared. Only in {@code init}.
     */
    void deleteIfExists(String stateName);

    /** @return the identity of the running query */
    QueryInfo getQueryInfo();
}
