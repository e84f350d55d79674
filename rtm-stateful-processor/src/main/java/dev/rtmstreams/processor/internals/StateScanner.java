package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.OperatorStateQuery;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.errors.ErrorParameters;
import dev.rtmstreams.processor.errors.InvalidOptionValueException;
import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.internals.EntriesStore;
import dev.rtmstreams.processor.spi.internals.QueryableOperatorStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Reads an operator store's layout (see {@link Layout}) for {@link StateReader}: which entries belong to a grouping
 * key, and what each holds. Works on any readable copy of the store: the live store (interactive queries), a
 * RocksDB directory opened read-only, or a changelog replayed into memory.
 */
public final class StateScanner {

    private StateScanner() {}

    /** A decoded state entry: variable, grouping key, map user key (map state only) and stored values. */
    public record Entry(String stateName, byte[] groupingKey, byte[] mapKey, List<Stored> values) {}

    /** One stored value or list element: serialized payload and expiry ({@link Long#MAX_VALUE}: none). */
    public record Stored(byte[] payload, long expiresAtMs) {}

    /**
     * What the operator declared (time mode, output mode, variables with kind, TTL and serde). Modes are spelled as
     * Spark's operator metadata shows them ({@code NoTime}, {@code ProcessingTime}, {@code EventTime};
     * {@code Update}, {@code Append}). {@code valueSchemas} holds, for the variables of an evolvable serde only, every
     * schema they were declared with (a stored value's schema id is the position of its writer schema).
     */
    public record Declaration(
            String timeMode,
            String outputMode,
            Map<String, String> kinds,
            Map<String, Boolean> ttl,
            Map<String, String> serdes,
            Map<String, List<String>> valueSchemas) {}

    /**
     * @param name the operator's store name; not null
     * @param backend RocksDB or in-memory; not null
     * @return a builder of the operator's changelogged store ({@code OperatorStores}' store), which also answers
     *     {@link OperatorStateQuery} with {@link #entries}
     */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> storeBuilder(String name, StoreBackend backend) {
        return QueryableOperatorStore.builder(name, backend, () -> null, StateScanner::answer)
                .withLoggingEnabled(Map.of());
    }

    /** @return the entries answering {@code query} when it is an {@link OperatorStateQuery}, else null */
    private static Object answer(Query<?> query, ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        return query instanceof OperatorStateQuery q ? entries(store, q.groupingKey()) : null;
    }

    /**
     * @param records store writes in order, e.g. the operator's changelog from the beginning (null value: delete)
     * @return the store after applying {@code records}. When the records hold entries of the time-ordered timer index
     *     (a changelog), the per-key timer index, which the operator does not changelog, is derived from it, as the
     *     operator rebuilds it when a task starts.
     */
    public static ReadOnlyKeyValueStore<Bytes, byte[]> replay(Iterable<KeyValue<Bytes, byte[]>> records) {
        NavigableMap<Bytes, byte[]> m = new TreeMap<>();
        boolean timeIndexed = false;
        for (KeyValue<Bytes, byte[]> kv : records) {
            byte[] k = kv.key.get();
            timeIndexed |= k.length > 0 && k[0] == Layout.TIMER;
            if (kv.value == null) {
                m.remove(kv.key);
            } else {
                m.put(kv.key, kv.value);
            }
        }
        if (timeIndexed) {
            m.keySet().removeIf(k -> k.get().length > 0 && k.get()[0] == Layout.TIMER_BY_KEY);
            for (Bytes k : List.copyOf(m.subMap(
                            Bytes.wrap(Layout.sectionStart(Layout.TIMER)),
                            true,
                            Bytes.wrap(Layout.sectionEnd(Layout.TIMER)),
                            false)
                    .keySet())) {
                m.put(Bytes.wrap(Layout.timerByKeyOfTimerKey(k.get())), Layout.EMPTY);
            }
        }
        return EntriesStore.of(m);
    }

    /**
     * @param store a readable copy of the operator store
     * @param groupingKey a serialized grouping key, or null for every key
     * @return the raw entries of that key (all keys), plus the operator's metadata entries, in key order
     */
    public static List<KeyValue<Bytes, byte[]>> entries(
            ReadOnlyKeyValueStore<Bytes, byte[]> store, byte[] groupingKey) {
        List<KeyValue<Bytes, byte[]>> out = new ArrayList<>();
        scan(store, new byte[] {Layout.META}, out);
        if (groupingKey == null) {
            scan(store, new byte[] {Layout.STATE}, out);
            scan(store, new byte[] {Layout.TIMER}, out);
            return out;
        }
        scanState(store, declaration(store), groupingKey, out);
        // the key's entries of the time-ordered timer index (the per-key index is kept only while the processor
        // lists its timers)
        for (long time : TimerService.list(store, groupingKey)) {
            out.add(KeyValue.pair(Bytes.wrap(Layout.timerKey(time, groupingKey)), Layout.EMPTY));
        }
        return out;
    }

    /** Adds the STATE entries of {@code groupingKey} (of every declared variable), or of every key when null. */
    private static void scanState(
            ReadOnlyKeyValueStore<Bytes, byte[]> store,
            Declaration d,
            byte[] groupingKey,
            List<KeyValue<Bytes, byte[]>> out) {
        if (groupingKey == null) {
            scan(store, new byte[] {Layout.STATE}, out);
        } else if (d != null) {
            byte[] suffix = Layout.keySuffix(groupingKey);
            for (String name : d.kinds().keySet()) {
                scan(store, Layout.concat(Layout.statePrefix(name), suffix), out);
            }
        }
    }

    private static void scan(
            ReadOnlyKeyValueStore<Bytes, byte[]> store, byte[] prefix, List<KeyValue<Bytes, byte[]>> out) {
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(Bytes.wrap(prefix), BytesSer.INSTANCE)) {
            while (it.hasNext()) {
                out.add(it.next());
            }
        }
    }

    /** @return the operator's declaration, or null when the store has none (an operator that never ran) */
    public static Declaration declaration(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        byte[] m = store.get(Bytes.wrap(Layout.metaKey(Layout.META_OPERATOR)));
        if (m == null) {
            return null;
        }
        OperatorMetadata md = OperatorMetadata.decode(m);
        Map<String, String> kinds = new LinkedHashMap<>();
        Map<String, Boolean> ttl = new LinkedHashMap<>();
        Map<String, String> serdes = new LinkedHashMap<>();
        Map<String, List<String>> schemas = new LinkedHashMap<>();
        md.variables().forEach((n, v) -> {
            kinds.put(n, v.kind().name());
            ttl.put(n, v.ttl());
            serdes.put(n, v.serde());
            if (v.evolvable()) {
                schemas.put(n, v.valueSchemas());
            }
        });
        return new Declaration(
                ErrorParameters.sparkModeName(md.timeMode()),
                ErrorParameters.sparkModeName(md.outputMode()),
                kinds,
                ttl,
                serdes,
                schemas);
    }

    /**
     * @param entries the answer of one partition's store to an {@link OperatorStateQuery}
     * @return whether it holds state or timers of the key (more than the operator's metadata entries)
     */
    public static boolean holdsKeyState(List<KeyValue<Bytes, byte[]>> entries) {
        for (KeyValue<Bytes, byte[]> kv : entries) {
            byte[] k = kv.key.get();
            if (k.length > 0 && k[0] != Layout.META) {
                return true;
            }
        }
        return false;
    }

    /** @return the schema id of a stored value of an evolvable variable (its first two bytes) */
    public static int schemaId(byte[] payload) {
        return SchemaIdSerde.schemaId(payload);
    }

    /** @return the payload of a stored value of an evolvable variable, after its schema id */
    public static byte[] withoutSchemaId(byte[] payload) {
        return SchemaIdSerde.payload(payload);
    }

    /**
     * Spark's state data source check of its {@code stateVarName} option: a reader option may name only a variable
     * the operator declares. A store without a declaration (the operator never ran on it, or the queried task is on
     * another instance) holds no state to read and is not checked.
     *
     * @param store a readable copy of the operator store
     * @param stateName the variable an option names
     * @throws dev.rtmstreams.processor.RtmException {@code STDS_INVALID_OPTION_VALUE.WITH_MESSAGE} (parameters
     *     {@code optionName=stateVarName} and Spark's {@code message}) when the declaration has no such variable
     */
    public static void requireDeclared(ReadOnlyKeyValueStore<Bytes, byte[]> store, String stateName) {
        Declaration d = declaration(store);
        if (d != null && !d.kinds().containsKey(stateName)) {
            throw new InvalidOptionValueException(
                    "stateVarName",
                    "State variable " + stateName + " is not defined for the transformWithState operator.");
        }
    }

    /** @return the persisted watermark, or null */
    public static Long watermark(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        byte[] wm = store.get(Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK)));
        return wm == null ? null : ByteLayout.getLong(wm, 0);
    }

    /**
     * @param store a readable copy of the operator store
     * @param d the operator's declaration ({@link #declaration}), or null
     * @param groupingKey a serialized grouping key, or null for every key
     * @return the state entries of the declared variables, grouped by grouping key (in byte order)
     */
    public static Map<Bytes, List<Entry>> stateByKey(
            ReadOnlyKeyValueStore<Bytes, byte[]> store, Declaration d, byte[] groupingKey) {
        Map<Bytes, List<Entry>> out = new TreeMap<>();
        if (d == null) {
            return out;
        }
        List<KeyValue<Bytes, byte[]>> state = new ArrayList<>();
        scanState(store, d, groupingKey, state);
        for (KeyValue<Bytes, byte[]> kv : state) {
            byte[] k = kv.key.get();
            String name = Layout.stateNameOf(k, 0);
            String kind = d.kinds().get(name);
            if (kind == null) {
                continue; // a variable no longer declared
            }
            int keyAt = 3 + (((k[1] & 0xFF) << 8) | (k[2] & 0xFF));
            int keyLen = ByteLayout.getInt(k, keyAt);
            byte[] gk = Arrays.copyOfRange(k, keyAt + 4, keyAt + 4 + keyLen);
            byte[] mapKey = kind.equals("MapState") ? Arrays.copyOfRange(k, keyAt + 4 + keyLen, k.length) : null;
            List<Stored> values = kind.equals("ListState") ? listRecords(kv.value) : List.of(single(kv.value));
            out.computeIfAbsent(Bytes.wrap(gk), x -> new ArrayList<>()).add(new Entry(name, gk, mapKey, values));
        }
        return out;
    }

    /**
     * @return every pending timer by serialized grouping key (keys in byte order, times ascending), read from the
     *     time-ordered timer index in one scan
     */
    public static java.util.SortedMap<Bytes, List<Long>> timersByKey(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        java.util.SortedMap<Bytes, List<Long>> out = new java.util.TreeMap<>();
        TimerService.forEachTimer(
                store,
                (time, owner) -> out.computeIfAbsent(Bytes.wrap(owner), k -> new ArrayList<>())
                        .add(time));
        return out;
    }

    /** @return the pending timers of a serialized grouping key */
    public static List<Long> timers(ReadOnlyKeyValueStore<Bytes, byte[]> store, byte[] groupingKey) {
        return TimerService.list(store, groupingKey);
    }

    private static Stored single(byte[] stored) {
        return new Stored(ValueCodec.payload(stored), ValueCodec.expiry(stored));
    }

    /** List state: {@code [expiry i64][len i32][bytes]} per element. */
    private static List<Stored> listRecords(byte[] stored) {
        List<Stored> out = new ArrayList<>();
        int pos = 0;
        while (pos < stored.length) {
            long expiry = ByteLayout.getLong(stored, pos);
            int len = ByteLayout.getInt(stored, pos + 8);
            out.add(new Stored(Arrays.copyOfRange(stored, pos + 12, pos + 12 + len), expiry));
            pos += 12 + len;
        }
        return out;
    }
}
