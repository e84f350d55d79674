package dev.rtmstreams.processor;

import dev.rtmstreams.processor.internals.StateScanner;
import dev.rtmstreams.processor.spi.internals.EntriesStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads the state of a {@link TransformWithState} operator, like Spark's state data source: every value, list and
 * map state variable with its TTL expiry, and the pending timers, per grouping key or for all keys. Sources:
 *
 * <ul>
 *   <li>a running application, through the custom interactive query {@link OperatorStateQuery} ({@link #query});
 *   <li>a stopped application's RocksDB state directory ({@link #fromRocksDbDirectory});
 *   <li>the operator's changelog topic, replayed ({@link #ofEntries}, last write per key wins, null deletes);
 *   <li>any readable copy of the store ({@link #of}), e.g. {@code TopologyTestDriver#getKeyValueStore}.
 * </ul>
 *
 * Values and map keys are decoded with deserializers given through {@link #withDeserializer} and
 * {@link #withMapKeyDeserializer} (which, like Spark's {@code stateVarName} option, must name a declared variable),
 * grouping keys with {@link #withKeyDeserializer}, else with the deserializer that matches the serde recorded when the operator declared the variable (Kafka's
 * built-in serdes and any serde whose deserializer class has a no-argument constructor), else shown as base64.
 * The values of a variable declared with an {@link EvolvableSerde} carry the id of the schema they were written
 * with: {@link #withSerde} reads each through its writer schema into the given serde's current schema, as the
 * operator does, or, after {@link #asWritten}, as written (raw, in its writer schema); without a serde such values
 * show as base64 of their payload. Instances are immutable; the {@code with...} methods return copies. Reading never
 * changes the state.
 */
@InterfaceStability.Evolving
public final class StateReader {

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;
    private final Deserializer<?> keyDeserializer;
    private final Map<String, Deserializer<?>> valueDeserializers;
    private final Map<String, Deserializer<?>> mapKeyDeserializers;
    private final Map<String, EvolvableSerde<?>> evolvableSerdes;
    private final boolean asWritten;

    private StateReader(
            ReadOnlyKeyValueStore<Bytes, byte[]> store,
            Deserializer<?> keyDeserializer,
            Map<String, Deserializer<?>> valueDeserializers,
            Map<String, Deserializer<?>> mapKeyDeserializers) {
        this(store, keyDeserializer, valueDeserializers, mapKeyDeserializers, Map.of(), false);
    }

    private StateReader(
            ReadOnlyKeyValueStore<Bytes, byte[]> store,
            Deserializer<?> keyDeserializer,
            Map<String, Deserializer<?>> valueDeserializers,
            Map<String, Deserializer<?>> mapKeyDeserializers,
            Map<String, EvolvableSerde<?>> evolvableSerdes,
            boolean asWritten) {
        this.store = store;
        this.keyDeserializer = keyDeserializer;
        this.valueDeserializers = Map.copyOf(valueDeserializers);
        this.mapKeyDeserializers = Map.copyOf(mapKeyDeserializers);
        this.evolvableSerdes = Map.copyOf(evolvableSerdes);
        this.asWritten = asWritten;
    }

    /** @param store a readable copy of the operator's store (grouping keys decoded as UTF-8 strings by default) */
    public static StateReader of(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        return new StateReader(
                Objects.requireNonNull(store, "store"), Serdes.String().deserializer(), Map.of(), Map.of());
    }

    /**
     * @param records store entries in write order, e.g. the operator's changelog topic from the beginning or the
     *     result of an {@link OperatorStateQuery}; a null value deletes the key
     */
    public static StateReader ofEntries(Iterable<KeyValue<Bytes, byte[]>> records) {
        return of(StateScanner.replay(records));
    }

    /**
     * @param directory a RocksDB store directory of a stopped application:
     *     {@code <state.dir>/<application.id>/<task id>/rocksdb/<operator store name>}
     * @throws IllegalArgumentException naming the directory when it is not a readable RocksDB store
     */
    public static StateReader fromRocksDbDirectory(Path directory) {
        return of(EntriesStore.fromRocksDb(Objects.requireNonNull(directory, "directory")));
    }

    /**
     * Reads one key's state from a running application through interactive queries (the tasks of this instance).
     *
     * @param streams the running application
     * @param operatorStoreName the operator's {@link TransformWithState#storeName()}
     * @param groupingKey the key, serialized with the operator's key serde
     * @return a reader over the key's entries in the store of the partition that holds them (use {@link #read} with the
     *     same key)
     */
    public static StateReader query(KafkaStreams streams, String operatorStoreName, byte[] groupingKey) {
        StateQueryResult<List<KeyValue<Bytes, byte[]>>> result = streams.query(
                StateQueryRequest.inStore(operatorStoreName).withQuery(OperatorStateQuery.forKey(groupingKey)));
        // the key lives in one partition: read that partition's store alone (its metadata, e.g. its schema ids, and
        // watermark are its own); without state for the key, the first partition's metadata
        List<KeyValue<Bytes, byte[]>> owner = null;
        List<KeyValue<Bytes, byte[]>> first = null;
        for (QueryResult<List<KeyValue<Bytes, byte[]>>> r :
                result.getPartitionResults().values()) {
            if (r.isFailure()) {
                throw new IllegalStateException("state query on " + operatorStoreName + " failed: "
                        + r.getFailureReason() + ": " + r.getFailureMessage());
            }
            if (StateScanner.holdsKeyState(r.getResult())) {
                owner = r.getResult();
            } else if (first == null) {
                first = r.getResult();
            }
        }
        return ofEntries(owner != null ? owner : first != null ? first : List.of());
    }

    /** @return a copy decoding grouping keys with {@code deserializer} (default: UTF-8 strings) */
    public StateReader withKeyDeserializer(Deserializer<?> deserializer) {
        return new StateReader(
                store,
                Objects.requireNonNull(deserializer, "deserializer"),
                valueDeserializers,
                mapKeyDeserializers,
                evolvableSerdes,
                asWritten);
    }

    /**
     * @return a copy decoding the values (list elements, map values) of {@code stateName} with {@code deserializer}
     * @throws RtmException {@code STDS_INVALID_OPTION_VALUE.WITH_MESSAGE} (parameters {@code optionName=stateVarName}
     *     and {@code message}) when the operator's declaration has no variable {@code stateName}, as Spark's state
     *     data source refuses a {@code stateVarName} the operator never declared
     */
    public StateReader withDeserializer(String stateName, Deserializer<?> deserializer) {
        StateScanner.requireDeclared(store, stateName);
        Map<String, Deserializer<?>> m = new HashMap<>(valueDeserializers);
        m.put(stateName, Objects.requireNonNull(deserializer, "deserializer"));
        return new StateReader(store, keyDeserializer, m, mapKeyDeserializers, evolvableSerdes, asWritten);
    }

    /**
     * @return a copy decoding the user keys of map state {@code stateName} with {@code deserializer}
     * @throws RtmException {@code STDS_INVALID_OPTION_VALUE.WITH_MESSAGE} when the operator's declaration has no
     *     variable {@code stateName} (see {@link #withDeserializer})
     */
    public StateReader withMapKeyDeserializer(String stateName, Deserializer<?> deserializer) {
        StateScanner.requireDeclared(store, stateName);
        Map<String, Deserializer<?>> m = new HashMap<>(mapKeyDeserializers);
        m.put(stateName, Objects.requireNonNull(deserializer, "deserializer"));
        return new StateReader(store, keyDeserializer, valueDeserializers, m, evolvableSerdes, asWritten);
    }

    /**
     * @param stateName a variable the operator declared with an {@link EvolvableSerde}
     * @param serde the serde to read its values with: each value is read through the schema it was written with into
     *     {@code serde}'s schema (or as written, after {@link #asWritten}); may be of a newer schema than the
     *     operator's, if it can read every recorded one
     * @return a copy reading the values of {@code stateName} with {@code serde}
     * @throws RtmException {@code STDS_INVALID_OPTION_VALUE.WITH_MESSAGE} when the operator's declaration has no
     *     variable {@code stateName} (see {@link #withDeserializer})
     */
    public StateReader withSerde(String stateName, EvolvableSerde<?> serde) {
        StateScanner.requireDeclared(store, stateName);
        Map<String, EvolvableSerde<?>> m = new HashMap<>(evolvableSerdes);
        m.put(stateName, Objects.requireNonNull(serde, "serde"));
        return new StateReader(store, keyDeserializer, valueDeserializers, mapKeyDeserializers, m, asWritten);
    }

    /**
     * @return a copy reading the values of evolvable variables as they were written, each in its writer schema
     *     ({@link EvolvableSerde#deserializeAsWritten}; for Avro generic records), instead of in the current schema
     */
    public StateReader asWritten() {
        return new StateReader(store, keyDeserializer, valueDeserializers, mapKeyDeserializers, evolvableSerdes, true);
    }

    /**
     * What the operator declared the last time it ran, as Spark's operator metadata shows it.
     *
     * @param timeMode time mode as Spark spells it: {@code NoTime}, {@code ProcessingTime}, {@code EventTime}
     * @param outputMode output mode as Spark spells it: {@code Update}, {@code Append}
     * @param variables state variable name to kind ({@code ValueState}, {@code ListState}, {@code MapState})
     * @param ttl state variable name to whether it has a TTL
     */
    public record Description(
            String timeMode, String outputMode, Map<String, String> variables, Map<String, Boolean> ttl) {}

    /** @return the operator's declaration; empty when the store holds none (the operator never ran) */
    public Optional<Description> description() {
        StateScanner.Declaration d = StateScanner.declaration(store);
        return d == null
                ? Optional.empty()
                : Optional.of(new Description(d.timeMode(), d.outputMode(), d.kinds(), d.ttl()));
    }

    /** @return the persisted event-time watermark, empty without one */
    public OptionalLong watermark() {
        Long w = StateScanner.watermark(store);
        return w == null ? OptionalLong.empty() : OptionalLong.of(w);
    }

    /**
     * One stored value, list element or map entry.
     *
     * @param mapKey the map state's user key (decoded), null for value and list state
     * @param value the value (decoded)
     * @param expiresAtMs processing time (epoch ms) when its TTL expires; null without TTL. A value whose expiry has
     *     passed is invisible to the processor even before cleanup removes it.
     */
    public record StoredValue(Object mapKey, Object value, Long expiresAtMs) {}

    /**
     * The state of one grouping key.
     *
     * @param key the grouping key (decoded)
     * @param variables state variable name to its stored values (one for value state, the elements of list state,
     *     the entries of map state), in declaration order; variables without state for the key are left out
     * @param kinds state variable name to kind, for the variables present
     * @param timers the key's pending timers (epoch ms), ascending
     */
    public record KeyState(
            Object key, Map<String, List<StoredValue>> variables, Map<String, String> kinds, List<Long> timers) {}

    /**
     * @param groupingKey the key, serialized with the operator's key serde
     * @return the key's state; empty when it has neither state nor timers
     */
    public Optional<KeyState> read(byte[] groupingKey) {
        Objects.requireNonNull(groupingKey, "groupingKey");
        StateScanner.Declaration d = StateScanner.declaration(store);
        List<StateScanner.Entry> entries =
                StateScanner.stateByKey(store, d, groupingKey).getOrDefault(Bytes.wrap(groupingKey), List.of());
        List<Long> timers = StateScanner.timers(store, groupingKey);
        if (entries.isEmpty() && timers.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(keyState(d, groupingKey, entries, timers));
    }

    /** @return the state of every key with state or timers, in serialized-key order */
    public List<KeyState> readAll() {
        StateScanner.Declaration d = StateScanner.declaration(store);
        Map<Bytes, List<StateScanner.Entry>> byKey = new java.util.TreeMap<>(StateScanner.stateByKey(store, d, null));
        Map<Bytes, List<Long>> timers = StateScanner.timersByKey(store);
        for (Bytes owner : timers.keySet()) {
            byKey.putIfAbsent(owner, List.of());
        }
        List<KeyState> out = new ArrayList<>();
        byKey.forEach((k, entries) -> out.add(keyState(d, k.get(), entries, timers.getOrDefault(k, List.of()))));
        return out;
    }

    private KeyState keyState(
            StateScanner.Declaration d, byte[] groupingKey, List<StateScanner.Entry> entries, List<Long> timers) {
        Map<String, List<StoredValue>> vars = new LinkedHashMap<>();
        Map<String, String> kinds = new LinkedHashMap<>();
        if (d != null) {
            for (String name : d.kinds().keySet()) {
                for (StateScanner.Entry e : entries) {
                    if (!e.stateName().equals(name)) {
                        continue;
                    }
                    Object mapKey = e.mapKey() == null ? null : decode(mapKeyDeserializer(name, d), name, e.mapKey());
                    List<StoredValue> values = vars.computeIfAbsent(name, n -> new ArrayList<>());
                    for (StateScanner.Stored s : e.values()) {
                        values.add(new StoredValue(
                                mapKey,
                                value(d, name, s.payload()),
                                s.expiresAtMs() == Long.MAX_VALUE ? null : s.expiresAtMs()));
                    }
                    kinds.put(name, d.kinds().get(name));
                }
            }
        }
        return new KeyState(decode(keyDeserializer, "key", groupingKey), vars, kinds, timers);
    }

    /** A stored value (list element, map value) of {@code name}, with its schema id when the variable has one. */
    private Object value(StateScanner.Declaration d, String name, byte[] payload) {
        List<String> schemas = d.valueSchemas().get(name);
        if (schemas == null) {
            return decode(valueDeserializer(name, d), name, payload);
        }
        int id = StateScanner.schemaId(payload);
        byte[] bare = StateScanner.withoutSchemaId(payload);
        EvolvableSerde<?> serde = evolvableSerdes.get(name);
        if (serde != null && id < schemas.size()) {
            try {
                String writer = schemas.get(id);
                if (asWritten) {
                    return serde.deserializeAsWritten(bare, writer);
                }
                return writer.equals(serde.schema())
                        ? serde.deserializer().deserialize(name, bare)
                        : serde.deserialize(bare, writer);
            } catch (RuntimeException e) {
                // fall through: show the bytes
            }
        }
        Deserializer<?> given = valueDeserializers.get(name);
        return id == schemas.size() - 1 || given == null
                ? decode(given, name, bare)
                : new Base64Value(Base64.getEncoder().encodeToString(bare));
    }

    private Deserializer<?> valueDeserializer(String name, StateScanner.Declaration d) {
        Deserializer<?> given = valueDeserializers.get(name);
        if (given != null) {
            return given;
        }
        String[] serdes = d.serdes().getOrDefault(name, "").split(",");
        return deserializerFor(serdes[serdes.length - 1]);
    }

    private Deserializer<?> mapKeyDeserializer(String name, StateScanner.Declaration d) {
        Deserializer<?> given = mapKeyDeserializers.get(name);
        return given != null
                ? given
                : deserializerFor(d.serdes().getOrDefault(name, "").split(",")[0]);
    }

    /**
     * @param serializerClass the class name of the serializer the operator declared the variable with
     * @return the matching deserializer ({@code ...Serializer} to {@code ...Deserializer}) when it can be created
     *     without arguments, else null (values are shown as base64)
     */
    static Deserializer<?> deserializerFor(String serializerClass) {
        int at = serializerClass.lastIndexOf("Serializer");
        if (at < 0) {
            return null;
        }
        String name = serializerClass.substring(0, at) + "Deserializer" + serializerClass.substring(at + 10);
        try {
            Class<?> c = Class.forName(name, true, Thread.currentThread().getContextClassLoader());
            return (Deserializer<?>) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            return null;
        }
    }

    private static Object decode(Deserializer<?> d, String topic, byte[] bytes) {
        if (d != null) {
            try {
                return d.deserialize(topic, bytes);
            } catch (RuntimeException e) {
                // fall through: show the bytes
            }
        }
        return new Base64Value(Base64.getEncoder().encodeToString(bytes));
    }

    /** A value no deserializer could read, shown as base64 of its bytes. */
    public record Base64Value(String base64) {}

    /** @return {@code state} as one line of JSON */
    public static String toJson(KeyState state) {
        return dev.rtmstreams.processor.internals.Json.keyState(state);
    }
}
