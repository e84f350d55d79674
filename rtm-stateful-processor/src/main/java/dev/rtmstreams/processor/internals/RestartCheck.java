package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.EvolvableSerde;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.errors.StateFormatVersionNotWritableException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Restart-time validation of an operator (Spark's operator state metadata and schema check), when the task starts:
 * after {@code init} declared the variables and before any record, initial-state row or timer is handled (Kafka
 * Streams restores the store before it initializes the processors). What {@code init} declared must be able to read
 * what earlier runs stored; then the new declaration is persisted. A refused restart fails the task's initialization.
 */
final class RestartCheck {

    private RestartCheck() {}

    /**
     * @param spec the operator
     * @param timeMode the operator's time mode
     * @param keySerde the fingerprint of the grouping key's serde
     * @param handle the handle, holding what {@code init} declared
     * @param store the operator store, which holds the metadata record
     * @param schemaEvolutionThreshold {@code rtm.state.value.schema.evolution.threshold} of the application config
     * @param writeFormatVersion {@code rtm.state.write.format.version} of the application config
     */
    static void checkAndPersist(
            OperatorSpec<?, ?, ?> spec,
            TimeMode timeMode,
            String keySerde,
            HandleImpl handle,
            KeyValueStore<Bytes, byte[]> store,
            int schemaEvolutionThreshold,
            int writeFormatVersion) {
        OperatorMetadata now = new OperatorMetadata(
                timeMode.name(), String.valueOf(spec.outputMode()), keySerde, handle.declared, Map.of());
        Bytes key = Bytes.wrap(Layout.metaKey(Layout.META_OPERATOR));
        byte[] stored = store.get(key);
        if (stored != null) {
            OperatorMetadata.checkReadable(stored, spec.name(), spec.storeName());
        }
        OperatorMetadata before = stored == null ? null : OperatorMetadata.decode(stored);
        if (before != null) {
            Map<String, EvolvableSerde<?>> evolvable = new HashMap<>();
            handle.evolving.forEach((name, s) -> evolvable.put(name, s.serde()));
            now.checkCompatibleWith(before, spec.name(), evolvable, schemaEvolutionThreshold);
        }
        OperatorMetadata next = now.after(before, handle.toDelete);
        if (next.formatVersion() > writeFormatVersion) {
            throw new StateFormatVersionNotWritableException(
                    spec.name(), spec.storeName(), next.formatVersion(), writeFormatVersion, next.evolvableNames());
        }
        handle.evolving.forEach((name, s) -> s.bind(next.variables().get(name).valueSchemas()));
        if (!next.equals(before)) {
            store.put(key, next.encode());
        }
    }
}
