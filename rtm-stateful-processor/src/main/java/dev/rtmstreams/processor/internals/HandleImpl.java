package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.EvolvableSerde;
import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.QueryInfo;
import dev.rtmstreams.processor.StatefulProcessorHandle;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import dev.rtmstreams.processor.errors.DuplicateStateVariableException;
import dev.rtmstreams.processor.errors.IncorrectTimeModeToAssignTtlException;
import dev.rtmstreams.processor.errors.InvalidHandleStateException;
import dev.rtmstreams.processor.errors.InvalidStateNameException;
import dev.rtmstreams.processor.errors.InvalidTimeModeException;
import dev.rtmstreams.processor.errors.ReservedStateNameException;
import dev.rtmstreams.processor.errors.TtlDurationMustBePositiveException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.serialization.Serde;

/**
 * {@link StatefulProcessorHandle} with Spark's lifecycle checks (after {@code StatefulProcessorHandleImpl}):
 * state variables only in CREATED (i.e. during {@code init}); timers only in INITIALIZED, DATA_PROCESSED and
 * TIMER_PROCESSED and never in {@link TimeMode#NONE}; nothing after CLOSED.
 */
final class HandleImpl implements StatefulProcessorHandle {

    private final OperatorRuntime<?, ?, ?> runtime;
    private final KeyContext keys;
    final Map<String, StateVariable> variables = new HashMap<>();
    /** What {@code init} declared, in order: persisted and checked on restart. */
    final Map<String, OperatorMetadata.Variable> declared = new java.util.LinkedHashMap<>();
    /**
     * Variables {@code deleteIfExists} named in {@code init}: their state is deleted once the restart check passed
     * (as in Spark, where the driver validates before the executors delete), so a refused restart deletes nothing.
     */
    final Set<String> toDelete = new LinkedHashSet<>();
    /** Variables whose state {@code deleteIfExists} removed. */
    int deletedStateVars;

    boolean anyTtl;

    /** The evolvable value encodings declared in {@code init}, by variable: bound to their schemas after the check. */
    final Map<String, SchemaIdSerde<?>> evolving = new java.util.LinkedHashMap<>();

    HandleImpl(OperatorRuntime<?, ?, ?> runtime) {
        this.runtime = runtime;
        this.keys = runtime.keys;
    }

    private void requireState(String operation, HandleState... allowed) {
        for (HandleState s : allowed) {
            if (keys.state == s) {
                return;
            }
        }
        throw new InvalidHandleStateException(operation, keys.state.name());
    }

    private long declare(String operation, String stateName, TtlConfig ttlConfig) {
        requireState(operation, HandleState.CREATED);
        Objects.requireNonNull(ttlConfig, "ttlConfig");
        if (stateName == null || stateName.isEmpty() || stateName.getBytes(StandardCharsets.UTF_8).length > 1024) {
            throw new InvalidStateNameException(stateName);
        }
        if (stateName.charAt(0) == '$') {
            throw new ReservedStateNameException(stateName);
        }
        if (variables.containsKey(stateName)) {
            throw new DuplicateStateVariableException(stateName);
        }
        if (ttlConfig.isEnabled() && runtime.timeMode != TimeMode.PROCESSING_TIME) {
            throw new IncorrectTimeModeToAssignTtlException(stateName, runtime.timeMode.name());
        }
        if (!ttlConfig.isValid()) {
            throw new TtlDurationMustBePositiveException("update", stateName, ttlConfig.ttlDuration());
        }
        if (ttlConfig.isEnabled()) {
            anyTtl = true;
            return ttlConfig.ttlDuration().toMillis();
        }
        return 0L;
    }

    @Override
    public <T> ValueState<T> getValueState(String stateName, Serde<T> valueSerde, TtlConfig ttlConfig) {
        long ttl = declare("get_value_state", stateName, ttlConfig);
        ValueStateImpl<T> plain = new ValueStateImpl<>(
                keys, stateName, stored(stateName, Objects.requireNonNull(valueSerde, "valueSerde")));
        ValueState<T> s = ttl > 0 ? new TtlValueState<>(plain, ttl) : plain;
        variables.put(stateName, (primaryKey, now) -> TtlValueState.removeExpired(keys.store, primaryKey, now));
        record(stateName, OperatorMetadata.Kind.ValueState, ttl, valueSerde);
        return s;
    }

    @Override
    public <T> ListState<T> getListState(String stateName, Serde<T> elementSerde, TtlConfig ttlConfig) {
        long ttl = declare("get_list_state", stateName, ttlConfig);
        ListStateImpl<T> plain = new ListStateImpl<>(
                keys, stateName, stored(stateName, Objects.requireNonNull(elementSerde, "elementSerde")));
        ListState<T> s = ttl > 0 ? new TtlListState<>(plain, ttl) : plain;
        variables.put(stateName, (primaryKey, now) -> TtlListState.removeExpired(keys.store, primaryKey, now));
        record(stateName, OperatorMetadata.Kind.ListState, ttl, elementSerde);
        return s;
    }

    @Override
    public <UK, UV> MapState<UK, UV> getMapState(
            String stateName, Serde<UK> userKeySerde, Serde<UV> valueSerde, TtlConfig ttlConfig) {
        long ttl = declare("get_map_state", stateName, ttlConfig);
        MapStateImpl<UK, UV> plain = new MapStateImpl<>(
                keys,
                stateName,
                Objects.requireNonNull(userKeySerde, "userKeySerde"),
                stored(stateName, Objects.requireNonNull(valueSerde, "valueSerde")));
        MapState<UK, UV> s = ttl > 0 ? new TtlMapState<>(plain, ttl) : plain;
        variables.put(stateName, (primaryKey, now) -> TtlMapState.removeExpired(keys.store, primaryKey, now));
        record(stateName, OperatorMetadata.Kind.MapState, ttl, userKeySerde, valueSerde);
        return s;
    }

    /** @return the serde the state stores values with: the evolvable encoding for an {@link EvolvableSerde} */
    private <T> Serde<T> stored(String stateName, Serde<T> serde) {
        if (serde instanceof EvolvableSerde<T> e) {
            SchemaIdSerde<T> s = new SchemaIdSerde<>(stateName, e);
            evolving.put(stateName, s);
            return s;
        }
        return serde;
    }

    /** @param serdes the value serde, after the user-key serde for map state */
    private void record(String stateName, OperatorMetadata.Kind kind, long ttl, Serde<?>... serdes) {
        Serde<?> value = serdes[serdes.length - 1];
        List<String> valueSchemas = value instanceof EvolvableSerde<?> e ? List.of(schemaOf(stateName, e)) : List.of();
        String userKeySchema =
                serdes.length > 1 && serdes[0] instanceof EvolvableSerde<?> k ? schemaOf(stateName, k) : null;
        declared.put(
                stateName,
                new OperatorMetadata.Variable(
                        stateName, kind, ttl > 0, OperatorMetadata.fingerprint(serdes), valueSchemas, userKeySchema));
    }

    private static String schemaOf(String stateName, EvolvableSerde<?> serde) {
        return Objects.requireNonNull(
                serde.schema(), () -> "the evolvable serde of state variable " + stateName + " returned a null schema");
    }

    private void checkTimerOperation(String operation) {
        if (runtime.timeMode == TimeMode.NONE) {
            throw new InvalidTimeModeException(operation, TimeMode.NONE.name());
        }
        requireState(operation, HandleState.INITIALIZED, HandleState.DATA_PROCESSED, HandleState.TIMER_PROCESSED);
    }

    @Override
    public void registerTimer(long expiryTimestampMs) {
        checkTimerOperation("register_timer");
        runtime.timers.register(keys.keyBytes("timers"), expiryTimestampMs);
        runtime.metrics.registeredTimers.record();
    }

    @Override
    public void deleteTimer(long expiryTimestampMs) {
        checkTimerOperation("delete_timer");
        runtime.timers.delete(keys.keyBytes("timers"), expiryTimestampMs);
        runtime.metrics.deletedTimers.record();
    }

    @Override
    public Iterator<Long> listTimers() {
        checkTimerOperation("list_timers");
        return runtime.timers.list(keys.keyBytes("timers")).iterator();
    }

    @Override
    public void deleteIfExists(String stateName) {
        requireState("delete_if_exists", HandleState.CREATED);
        if (variables.containsKey(stateName)) {
            throw new IllegalStateException(
                    "state variable " + stateName + " is declared; deleteIfExists is for variables no longer in use");
        }
        toDelete.add(stateName);
    }

    /** Deletes the state of the variables {@link #toDelete} names; called once the restart check passed. */
    void deleteRequested() {
        for (String stateName : toDelete) {
            if (keys.deletePrefix(Layout.statePrefix(stateName)) > 0) {
                deletedStateVars++;
            }
        }
    }

    @Override
    public QueryInfo getQueryInfo() {
        if (keys.state == HandleState.CLOSED) {
            throw new InvalidHandleStateException("get_query_info", keys.state.name());
        }
        UUID q = runtime.queryId;
        UUID r = runtime.runId;
        long batch = runtime.batchId();
        return new QueryInfo() {
            @Override
            public UUID getQueryId() {
                return q;
            }

            @Override
            public UUID getRunId() {
                return r;
            }

            @Override
            public long getBatchId() {
                return batch;
            }

            @Override
            public String toString() {
                return "QueryInfo(queryId=" + q + ", runId=" + r + ", batchId=" + batch + ")";
            }
        };
    }
}
