package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.EvolvableSerde;
import dev.rtmstreams.processor.errors.InvalidConfigAfterRestartException;
import dev.rtmstreams.processor.errors.InvalidValueSchemaEvolutionException;
import dev.rtmstreams.processor.errors.InvalidVariableTypeChangeException;
import dev.rtmstreams.processor.errors.KeySchemaNotCompatibleException;
import dev.rtmstreams.processor.errors.StateFormatVersionTooNewException;
import dev.rtmstreams.processor.errors.ValueSchemaEvolutionThresholdExceededException;
import dev.rtmstreams.processor.errors.ValueSchemaNotCompatibleException;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;

/**
 * What an operator declared, persisted in its changelogged store so that a restart can be checked against it
 * (Spark's operator state metadata and state schema files): time mode, output mode, the grouping key's serde and, per
 * state variable, its kind, whether it has a TTL and its serde. Variables dropped from the declaration without
 * {@code deleteIfExists} keep their last declaration in {@link #retired} (their state is still in the store), as
 * Spark's schema check reads every earlier schema file of a column family. {@link #checkCompatibleWith} fails a
 * restart with Spark's error class when the new declaration cannot read the old state; adding a variable, or dropping
 * one (with or without {@code deleteIfExists}), is compatible.
 *
 * @param timeMode the time mode's name
 * @param outputMode the output mode's name, or "null" when none was given
 * @param keySerde fingerprint of the grouping key's serde ({@link #UNKNOWN_SERDE} when not known)
 * @param variables the declared variables by name, in declaration order
 * @param retired variables declared by an earlier run and dropped without {@code deleteIfExists}, by name
 */
record OperatorMetadata(
        String timeMode,
        String outputMode,
        String keySerde,
        Map<String, Variable> variables,
        Map<String, Variable> retired) {

    /** Format version 1: no key serde, no retired variables. */
    private static final byte VERSION_1 = 1;

    /** Format version 2: key serde and retired variables; no schemas. */
    private static final byte VERSION_2 = 2;

    /**
     * The operator's state format version, written as the first byte of this record at every start and checked at
     * restart: it covers this record's encoding and the byte layout of every entry of the operator store
     * ({@link Layout}, {@link ValueCodec}, the list records of {@link ListStateImpl}). A release that changes any of
     * them raises it and keeps reading every earlier version it lists in {@link #READABLE_VERSIONS}; a release that finds a
     * newer version refuses to start ({@link StateFormatVersionTooNewException}). Version 3 is the newest: it adds, per
     * variable, the schemas of an evolvable serde ({@code EvolvableSerde}) and prefixes such a variable's values with
     * their schema id ({@link SchemaIdSerde}). A record is written in the lowest version that holds it: version 2
     * while no variable (declared or retired) uses the evolvable encoding, so that a release that reads only 1 and 2
     * can still take over such an operator; version 1 (written before the key serde and the retired variables were
     * recorded) has the same entry layout as 2.
     */
    static final byte VERSION = (byte) dev.rtmstreams.processor.RtmProcessorConfig.NEWEST_STATE_FORMAT_VERSION;

    /** Every format version this release reads, oldest first. */
    static final List<Integer> READABLE_VERSIONS = List.of(1, 2, 3);
    /** The fingerprint of an {@link EvolvableSerde} starts with this, then its format. */
    static final String EVOLVABLE_PREFIX = "evolvable:";
    /** Recorded for serdes whose class is generated per run (lambdas): not compared. */
    static final String UNKNOWN_SERDE = "?";

    /** Spark's {@code StateVariableType} names. */
    enum Kind {
        ValueState,
        ListState,
        MapState
    }

    /**
     * @param name variable name
     * @param kind value, list or map
     * @param ttl whether declared with a TTL
     * @param serde serde fingerprint: serializer class names, the user key's first for map state
     *     ({@link #UNKNOWN_SERDE} parts are not compared; {@code evolvable:<format>} for an evolvable serde)
     * @param valueSchemas every schema of an evolvable value serde, oldest first (a value's schema id is its position);
     *     empty for a plain serde
     * @param userKeySchema the schema of a map state's evolvable user-key serde, or null
     */
    record Variable(
            String name, Kind kind, boolean ttl, String serde, List<String> valueSchemas, String userKeySchema) {

        Variable {
            valueSchemas = List.copyOf(valueSchemas);
        }

        /** A variable with plain serdes. */
        Variable(String name, Kind kind, boolean ttl, String serde) {
            this(name, kind, ttl, serde, List.of(), null);
        }

        /** @return whether its values use the evolvable encoding (a schema id before every value) */
        boolean evolvable() {
            return !valueSchemas.isEmpty();
        }

        /** @return the same variable with {@code schemas} as its value schemas */
        Variable withValueSchemas(List<String> schemas) {
            return new Variable(name, kind, ttl, serde, schemas, userKeySchema);
        }

        /** @return the fingerprint of the value (list element, map value) serde */
        String valueSerde() {
            return serde.substring(serde.lastIndexOf(',') + 1);
        }

        /** @return the fingerprint of a map state's user-key serde, or null for value and list state */
        String userKeySerde() {
            return kind == Kind.MapState ? serde.substring(0, serde.indexOf(',')) : null;
        }

        /**
         * The key schema of the variable's entries, as Spark's column family key schema: the grouping key, plus the
         * user key for map state.
         */
        String keySchema(String groupingKeySerde) {
            String k = name + ": key: " + groupingKeySerde;
            return kind == Kind.MapState
                    ? k + ", userKey: " + userKeySerde() + (userKeySchema == null ? "" : " " + userKeySchema)
                    : k;
        }

        /** The value schema of the variable's entries: the value, plus its expiry with a TTL (Spark's TTL rows). */
        String valueSchema() {
            return name + ": value: " + valueSerde() + (ttl ? ", ttlExpirationMs" : "");
        }
    }

    OperatorMetadata {
        variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
        retired = Collections.unmodifiableMap(new LinkedHashMap<>(retired));
    }

    /**
     * @return the fingerprint of one or more serdes: their serializers' class names, {@code evolvable:<format>} for an
     *     {@link EvolvableSerde} (whatever its classes: its schemas are compared instead)
     */
    static String fingerprint(Serde<?>... serdes) {
        List<String> parts = new ArrayList<>();
        for (Serde<?> s : serdes) {
            if (s instanceof EvolvableSerde<?> e) {
                parts.add(EVOLVABLE_PREFIX + e.format());
                continue;
            }
            String n = s.serializer().getClass().getName();
            parts.add(n.contains("$$Lambda") || s.serializer().getClass().isHidden() ? UNKNOWN_SERDE : n);
        }
        return String.join(",", parts);
    }

    /**
     * What to persist after a successful restart check: this declaration, with the variables that {@code previous}
     * knew (declared or retired) and this run neither declares nor deleted kept as retired.
     *
     * @param previous what the operator persisted before, or null on the first run
     * @param deleted the variables {@code deleteIfExists} deleted in this run
     */
    OperatorMetadata after(OperatorMetadata previous, Set<String> deleted) {
        if (previous == null) {
            return this;
        }
        Map<String, Variable> kept = new LinkedHashMap<>(previous.retired);
        kept.putAll(previous.variables);
        kept.keySet().removeAll(variables.keySet());
        kept.keySet().removeAll(deleted);
        String key = keySerde.equals(UNKNOWN_SERDE) ? previous.keySerde : keySerde;
        Map<String, Variable> now = new LinkedHashMap<>();
        for (Variable v : variables.values()) {
            Variable before = previous.variables.containsKey(v.name())
                    ? previous.variables.get(v.name())
                    : previous.retired.get(v.name());
            now.put(v.name(), v.evolvable() && before != null ? v.withValueSchemas(schemasAfter(before, v)) : v);
        }
        return new OperatorMetadata(timeMode, outputMode, key, now, kept);
    }

    /**
     * @return {@code before}'s schemas, with {@code now}'s (one) schema appended unless it is one of them: every
     *     schema stays, so that every stored schema id keeps its meaning
     */
    private static List<String> schemasAfter(Variable before, Variable now) {
        List<String> out = new ArrayList<>(before.valueSchemas());
        for (String s : now.valueSchemas()) {
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * Spark's restart checks, in Spark's order: the operator's time and output mode
     * ({@code TransformWithStateOperatorProperties.validateOperatorProperties}), then per variable its kind, then its
     * key schema and its value schema ({@code StateSchemaCompatibilityChecker.check}, against every earlier schema of
     * the name: a variable dropped without {@code deleteIfExists} is checked against its last declaration).
     *
     * @param previous what the operator declared before the restart
     * @param operatorName the operator, named in the error's context
     * @throws dev.rtmstreams.processor.RtmException {@code STATE_STORE_INVALID_CONFIG_AFTER_RESTART} when the time or
     *     output mode changed, {@code STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE} when a variable changed kind,
     *     {@code STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE} when the grouping key's serde or a map state's user-key serde
     *     changed, {@code STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE} when a variable's value serde changed or a TTL was
     *     added or removed
     */
    void checkCompatibleWith(OperatorMetadata previous, String operatorName) {
        checkCompatibleWith(previous, operatorName, Map.of(), Integer.MAX_VALUE);
    }

    /**
     * {@link #checkCompatibleWith(OperatorMetadata, String)}, and for every evolvable variable (Spark's Avro state
     * encoding, {@code StateSchemaCompatibilityChecker} with schema evolution): the new schema must read every stored
     * schema of the variable, and its schemas may not exceed {@code maxSchemaEvolutions} evolutions.
     *
     * @param evolvable the evolvable value serdes declared now, by variable name
     * @param maxSchemaEvolutions the most schemas less one a variable may have
     * @throws dev.rtmstreams.processor.RtmException as {@link #checkCompatibleWith(OperatorMetadata, String)}; also
     *     {@code STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE} when a variable switches between a plain and an evolvable
     *     serde, {@code STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE} when a map state's evolvable user-key schema changed,
     *     {@code STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION} when the new schema cannot read a stored one,
     *     {@code STATE_STORE_VALUE_SCHEMA_EVOLUTION_THRESHOLD_EXCEEDED} when there would be too many schemas
     */
    void checkCompatibleWith(
            OperatorMetadata previous,
            String operatorName,
            Map<String, ? extends EvolvableSerde<?>> evolvable,
            int maxSchemaEvolutions) {
        if (!previous.timeMode.equals(timeMode)) {
            throw new InvalidConfigAfterRestartException(operatorName, "timeMode", previous.timeMode, timeMode);
        }
        if (!previous.outputMode.equals(outputMode)) {
            throw new InvalidConfigAfterRestartException(operatorName, "outputMode", previous.outputMode, outputMode);
        }
        for (Variable now : variables.values()) {
            Variable before = previous.variables.containsKey(now.name())
                    ? previous.variables.get(now.name())
                    : previous.retired.get(now.name());
            if (before != null && before.kind() != now.kind()) {
                throw new InvalidVariableTypeChangeException(
                        operatorName,
                        now.name(),
                        before.kind().name(),
                        now.kind().name());
            }
        }
        // every entry (state, timers, Spark's "default" column family) is keyed by the grouping key
        if (!serdesCompatible(previous.keySerde, keySerde)) {
            throw new KeySchemaNotCompatibleException(operatorName, "key: " + previous.keySerde, "key: " + keySerde);
        }
        for (Variable now : variables.values()) {
            Variable before = previous.variables.containsKey(now.name())
                    ? previous.variables.get(now.name())
                    : previous.retired.get(now.name());
            if (before == null) {
                continue;
            }
            if (now.kind() == Kind.MapState
                    && (!serdesCompatible(before.userKeySerde(), now.userKeySerde())
                            || !Objects.equals(before.userKeySchema(), now.userKeySchema()))) {
                throw new KeySchemaNotCompatibleException(
                        operatorName, before.keySchema(previous.keySerde), now.keySchema(keySerde));
            }
            if (before.ttl() != now.ttl()
                    || before.evolvable() != now.evolvable()
                    || !serdesCompatible(before.valueSerde(), now.valueSerde())) {
                throw new ValueSchemaNotCompatibleException(operatorName, before.valueSchema(), now.valueSchema());
            }
            if (now.evolvable()) {
                checkEvolution(operatorName, before, now, evolvable.get(now.name()), maxSchemaEvolutions);
            }
        }
    }

    private static void checkEvolution(
            String operatorName, Variable before, Variable now, EvolvableSerde<?> serde, int maxSchemaEvolutions) {
        String newSchema = now.valueSchemas().get(0);
        for (String old : before.valueSchemas()) {
            String why = old.equals(newSchema) || serde == null ? null : serde.incompatibilityWith(old);
            if (why != null) {
                throw new InvalidValueSchemaEvolutionException(operatorName, now.name(), old, newSchema, why);
            }
        }
        int evolutions = schemasAfter(before, now).size() - 1;
        if (evolutions > maxSchemaEvolutions) {
            throw new ValueSchemaEvolutionThresholdExceededException(
                    operatorName, evolutions, maxSchemaEvolutions, now.name());
        }
    }

    /** Two serde fingerprints (one part each) match, or either is not known. */
    private static boolean serdesCompatible(String before, String now) {
        return before.equals(UNKNOWN_SERDE) || now.equals(UNKNOWN_SERDE) || before.equals(now);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            byte version = formatVersion();
            out.writeByte(version);
            out.writeUTF(timeMode);
            out.writeUTF(outputMode);
            out.writeUTF(keySerde);
            writeVariables(out, variables, version);
            writeVariables(out, retired, version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @return the lowest format version that holds this record: {@link #VERSION} when a variable (declared or retired)
     *     uses the evolvable encoding, else 2
     */
    byte formatVersion() {
        boolean schemas = false;
        for (Variable v : variables.values()) {
            schemas |= v.evolvable() || v.userKeySchema() != null;
        }
        for (Variable v : retired.values()) {
            schemas |= v.evolvable() || v.userKeySchema() != null;
        }
        return schemas ? VERSION : VERSION_2;
    }

    /** @return the variables (declared, then retired) that use the evolvable encoding, comma-separated */
    String evolvableNames() {
        List<String> names = new ArrayList<>();
        for (Variable v : variables.values()) {
            if (v.evolvable() || v.userKeySchema() != null) {
                names.add(v.name());
            }
        }
        for (Variable v : retired.values()) {
            if (v.evolvable() || v.userKeySchema() != null) {
                names.add(v.name() + " (retired)");
            }
        }
        return String.join(", ", names);
    }

    /** @return the format version of an encoded record (its first byte, unsigned) */
    static int versionOf(byte[] encoded) {
        return encoded[0] & 0xFF;
    }

    /**
     * The downgrade guard: refuses a record of a format version this release does not read.
     *
     * @param encoded the stored record
     * @param operatorName the operator, named in the error
     * @param storeName the operator's store, named in the error
     * @throws StateFormatVersionTooNewException {@code STATE_STORE_FORMAT_VERSION_TOO_NEW} when the record's version is
     *     not one of {@link #READABLE_VERSIONS} (written by a newer release)
     */
    static void checkReadable(byte[] encoded, String operatorName, String storeName) {
        int version = versionOf(encoded);
        if (!READABLE_VERSIONS.contains(version)) {
            throw new StateFormatVersionTooNewException(
                    operatorName,
                    storeName,
                    version,
                    VERSION,
                    READABLE_VERSIONS.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")));
        }
    }

    /**
     * @param encoded a record of one of {@link #READABLE_VERSIONS} (check with {@link #checkReadable} first)
     * @return the decoded record
     * @throws IllegalStateException for another version
     */
    static OperatorMetadata decode(byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(encoded))) {
            byte version = in.readByte();
            if (version != VERSION && version != VERSION_2 && version != VERSION_1) {
                throw new IllegalStateException("unknown operator state format version " + (version & 0xFF)
                        + "; this release reads " + READABLE_VERSIONS);
            }
            String timeMode = in.readUTF();
            String outputMode = in.readUTF();
            if (version == VERSION_1) {
                return new OperatorMetadata(timeMode, outputMode, UNKNOWN_SERDE, readVariables(in, version), Map.of());
            }
            String keySerde = in.readUTF();
            return new OperatorMetadata(
                    timeMode, outputMode, keySerde, readVariables(in, version), readVariables(in, version));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Per variable: name, kind, TTL flag, serde fingerprint; from version 3 also the value schemas
     * ({@code [count i32]} then {@code [len i32][UTF-8]} each) and the user-key schema ({@code [present bool]}, then
     * {@code [len i32][UTF-8]}).
     */
    private static void writeVariables(DataOutputStream out, Map<String, Variable> vars, byte version)
            throws IOException {
        out.writeInt(vars.size());
        for (Variable v : vars.values()) {
            out.writeUTF(v.name());
            out.writeUTF(v.kind().name());
            out.writeBoolean(v.ttl());
            out.writeUTF(v.serde());
            if (version >= VERSION) {
                out.writeInt(v.valueSchemas().size());
                for (String s : v.valueSchemas()) {
                    writeText(out, s);
                }
                out.writeBoolean(v.userKeySchema() != null);
                if (v.userKeySchema() != null) {
                    writeText(out, v.userKeySchema());
                }
            }
        }
    }

    private static Map<String, Variable> readVariables(DataInputStream in, byte version) throws IOException {
        int n = in.readInt();
        Map<String, Variable> vars = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            Kind kind = Kind.valueOf(in.readUTF());
            boolean ttl = in.readBoolean();
            String serde = in.readUTF();
            List<String> schemas = new ArrayList<>();
            String userKeySchema = null;
            if (version >= VERSION) {
                int count = in.readInt();
                for (int j = 0; j < count; j++) {
                    schemas.add(readText(in));
                }
                userKeySchema = in.readBoolean() ? readText(in) : null;
            }
            vars.put(name, new Variable(name, kind, ttl, serde, schemas, userKeySchema));
        }
        return vars;
    }

    /** Text of any length (a schema may exceed {@code writeUTF}'s 64 KiB). */
    private static void writeText(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readText(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
