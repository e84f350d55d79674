package dev.rtmstreams.processor.internals;

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
import org.apache.kafka.common.serialization.Serde;

/**
 * What an operator declared, persisted in its changelogged store so that a restart can be checked against it
 * (Spark's operator state metadata and state schema files): time mode, output mode and, per state variable, its
 * kind, whether it has a TTL and its serde. {@link #checkCompatibleWith} fails a restart with Spark's error class
 * when the new declaration cannot read the old state; adding a variable, or dropping one (with or without
 * {@code deleteIfExists}), is compatible.
 *
 * @param timeMode the time mode's name
 * @param outputMode the output mode's name, or "null" when none was given
 * @param variables the declared variables by name, in declaration order
 */
record OperatorMetadata(String timeMode, String outputMode, Map<String, Variable> variables) {

    private static final byte VERSION = 1;
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
     * @param serde serde fingerprint: serializer class names ({@link #UNKNOWN_SERDE} parts are not compared)
     */
    record Variable(String name, Kind kind, boolean ttl, String serde) {}

    OperatorMetadata {
        variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
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
     * @param previous what the operator declared before the restart
     * @throws dev.rtmstreams.processor.RtmException {@code STATE_STORE_INVALID_CONFIG_AFTER_RESTART} when the time or
     *     output mode changed, {@code STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE} when a variable changed kind,
     *     {@code STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE} when a variable's serde changed
     */
    void checkCompatibleWith(OperatorMetadata previous) {
        if (!previous.timeMode.equals(timeMode)) {
            throw new StateErrors.InvalidConfigAfterRestartException("timeMode", previous.timeMode, timeMode);
        }
        if (!previous.outputMode.equals(outputMode)) {
            throw new StateErrors.InvalidConfigAfterRestartException("outputMode", previous.outputMode, outputMode);
        }
        for (Variable now : variables.values()) {
            Variable before = previous.variables.get(now.name());
            if (before == null) {
                continue;
            }
            if (before.kind() != now.kind()) {
                throw new StateErrors.InvalidVariableTypeChangeException(
                        now.name(), before.kind().name(), now.kind().name());
            }
            if (!serdesCompatible(before.serde(), now.serde())) {
                throw new StateErrors.ValueSchemaNotCompatibleException(
                        now.name() + ": " + before.serde(), now.name() + ": " + now.serde());
            }
        }
    }

    private static boolean serdesCompatible(String before, String now) {
        String[] b = before.split(",", -1);
        String[] n = now.split(",", -1);
        if (b.length != n.length) {
            return false;
        }
        for (int i = 0; i < b.length; i++) {
            if (!b[i].equals(UNKNOWN_SERDE) && !n[i].equals(UNKNOWN_SERDE) && !b[i].equals(n[i])) {
                return false;
            }
        }
        return true;
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(timeMode);
            out.writeUTF(outputMode);
            out.writeInt(variables.size());
            for (Variable v : variables.values()) {
                out.writeUTF(v.name());
                out.writeUTF(v.kind().name());
                out.writeBoolean(v.ttl());
                out.writeUTF(v.serde());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static OperatorMetadata decode(byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(encoded))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalStateException("unknown operator metadata version " + version);
            }
            String timeMode = in.readUTF();
            String outputMode = in.readUTF();
            int n = in.readInt();
            Map<String, Variable> vars = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                Variable v = new Variable(in.readUTF(), Kind.valueOf(in.readUTF()), in.readBoolean(), in.readUTF());
                vars.put(v.name(), v);
            }
            return new OperatorMetadata(timeMode, outputMode, vars);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
