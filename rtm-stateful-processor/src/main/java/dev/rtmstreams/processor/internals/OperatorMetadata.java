package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.errors.InvalidConfigAfterRestartException;
import dev.rtmstreams.processor.errors.InvalidVariableTypeChangeException;
import dev.rtmstreams.processor.errors.KeySchemaNotCompatibleException;
import dev.rtmstreams.processor.errors.StateFormatVersionTooNewException;
import dev.rtmstreams.processor.errors.ValueSchemaNotCompatibleException;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * The operator's state format version, written as the first byte of this record at every start and checked at
     * restart: it covers this record's encoding and the byte layout of every entry of the operator store
     * ({@link Layout}, {@link ValueCodec}, the list records of {@link ListStateImpl}). A release that changes any of
     * them raises it and keeps reading every earlier version it lists in {@link #READABLE_VERSIONS}; a release that finds a
     * newer version refuses to start ({@link StateFormatVersionTooNewException}). Version 2 is the current one; version
     * 1 (written before the key serde and the retired variables were recorded) has the same entry layout.
     */
    static final byte VERSION = 2;

    /** Every format version this release reads, oldest first. */
    static final List<Integer> READABLE_VERSIONS = List.of(1, 2);
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
     *     ({@link #UNKNOWN_SERDE} parts are not compared)
     */
    record Variable(String name, Kind kind, boolean ttl, String serde) {

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
            return kind == Kind.MapState ? k + ", userKey: " + userKeySerde() : k;
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

    /** @return the fingerprint of one or more serdes: their serializers' class names */
    static String fingerprint(Serde<?>... serdes) {
        List<String> parts = new ArrayList<>();
        for (Serde<?> s : serdes) {
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
        return new OperatorMetadata(timeMode, outputMode, key, variables, kept);
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
            if (now.kind() == Kind.MapState && !serdesCompatible(before.userKeySerde(), now.userKeySerde())) {
                throw new KeySchemaNotCompatibleException(
                        operatorName, before.keySchema(previous.keySerde), now.keySchema(keySerde));
            }
            if (before.ttl() != now.ttl() || !serdesCompatible(before.valueSerde(), now.valueSerde())) {
                throw new ValueSchemaNotCompatibleException(operatorName, before.valueSchema(), now.valueSchema());
            }
        }
    }

    /** Two serde fingerprints (one part each) match, or either is not known. */
    private static boolean serdesCompatible(String before, String now) {
        return before.equals(UNKNOWN_SERDE) || now.equals(UNKNOWN_SERDE) || before.equals(now);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(timeMode);
            out.writeUTF(outputMode);
            out.writeUTF(keySerde);
            writeVariables(out, variables);
            writeVariables(out, retired);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
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
            if (version != VERSION && version != VERSION_1) {
                throw new IllegalStateException("unknown operator state format version " + (version & 0xFF)
                        + "; this release reads " + READABLE_VERSIONS);
            }
            String timeMode = in.readUTF();
            String outputMode = in.readUTF();
            if (version == VERSION_1) {
                return new OperatorMetadata(timeMode, outputMode, UNKNOWN_SERDE, readVariables(in), Map.of());
            }
            String keySerde = in.readUTF();
            return new OperatorMetadata(timeMode, outputMode, keySerde, readVariables(in), readVariables(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeVariables(DataOutputStream out, Map<String, Variable> vars) throws IOException {
        out.writeInt(vars.size());
        for (Variable v : vars.values()) {
            out.writeUTF(v.name());
            out.writeUTF(v.kind().name());
            out.writeBoolean(v.ttl());
            out.writeUTF(v.serde());
        }
    }

    private static Map<String, Variable> readVariables(DataInputStream in) throws IOException {
        int n = in.readInt();
        Map<String, Variable> vars = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            Variable v = new Variable(in.readUTF(), Kind.valueOf(in.readUTF()), in.readBoolean(), in.readUTF());
            vars.put(v.name(), v);
        }
        return vars;
    }
}
