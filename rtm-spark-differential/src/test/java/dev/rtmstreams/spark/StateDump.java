package dev.rtmstreams.spark;

import dev.rtmstreams.processor.StateReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * The final state of both sides as comparable lines, {@code key|variable|[mapKey=]value[@ttlExpirationMs]} and
 * {@code key|timer|expiryMs}: Spark's from its state data source ({@code format("statestore")}, one read per variable
 * and one with {@code readRegisteredTimers}), ours from {@link StateReader}. Lines are sorted, except that a list's
 * elements keep their order within a key.
 */
final class StateDump {
    private StateDump() {}

    /** One state variable: its name, kind, and how our side decodes it. */
    record Var(String name, Kind kind, Deserializer<?> values) {}

    enum Kind {
        VALUE,
        LIST,
        MAP
    }

    static List<String> spark(SparkRunner s, List<Var> vars) {
        List<String> out = new ArrayList<>();
        for (Var v : vars) {
            List<String> lines = new ArrayList<>();
            for (Row r : s.readState(v.name(), Map.of())) {
                String key = r.getStruct(0).getString(0);
                String value = v.kind() == Kind.MAP ? render(r.get(1)) + "=" + render(r.get(2)) : render(r.get(1));
                lines.add(key + "|" + v.name() + "|" + value);
            }
            out.addAll(order(lines, v.kind()));
        }
        List<String> timers = new ArrayList<>();
        for (Row r : s.readTimers()) {
            timers.add(r.getStruct(0).getString(0) + "|timer|" + render(r.get(1)));
        }
        out.addAll(order(timers, Kind.VALUE));
        return out;
    }

    static List<String> rtm(StateReader reader, List<Var> vars) {
        StateReader r = reader.withKeyDeserializer(new StringDeserializer());
        for (Var v : vars) {
            r = r.withDeserializer(v.name(), v.values());
            if (v.kind() == Kind.MAP) {
                r = r.withMapKeyDeserializer(v.name(), new StringDeserializer());
            }
        }
        List<String> out = new ArrayList<>();
        List<StateReader.KeyState> all = r.readAll();
        for (Var v : vars) {
            List<String> lines = new ArrayList<>();
            for (StateReader.KeyState ks : all) {
                for (StateReader.StoredValue sv : ks.variables().getOrDefault(v.name(), List.of())) {
                    String value = (sv.mapKey() == null ? "" : sv.mapKey() + "=")
                            + sv.value()
                            + (sv.expiresAtMs() == null ? "" : "@" + sv.expiresAtMs());
                    lines.add(ks.key() + "|" + v.name() + "|" + value);
                }
            }
            out.addAll(order(lines, v.kind()));
        }
        // state of any other variable (e.g. one deleted with deleteIfExists) would be a difference: Spark's side
        // reads only the variables named
        List<String> names = vars.stream().map(Var::name).toList();
        for (StateReader.KeyState ks : all) {
            ks.variables().keySet().stream()
                    .filter(n -> !names.contains(n))
                    .forEach(n -> out.add(ks.key() + "|" + n + "|(not compared)"));
        }
        List<String> timers = new ArrayList<>();
        for (StateReader.KeyState ks : all) {
            ks.timers().forEach(t -> timers.add(ks.key() + "|timer|" + t));
        }
        out.addAll(order(timers, Kind.VALUE));
        return out;
    }

    private static List<String> order(List<String> lines, Kind kind) {
        List<String> c = new ArrayList<>(lines);
        // List.sort is stable: a list's elements keep their order within a key
        c.sort(
                kind == Kind.LIST
                        ? Comparator.comparing(l -> l.substring(0, l.indexOf('|')))
                        : Comparator.naturalOrder());
        return c;
    }

    /** Spark's nested value structs: {@code value}, or {@code value@ttlExpirationMs} for a variable with TTL. */
    static String render(Object o) {
        if (o instanceof Row row) {
            StructType schema = row.schema();
            if (schema != null && Arrays.asList(schema.fieldNames()).contains("ttlExpirationMs")) {
                return render(row.get(0)) + "@" + row.getLong(schema.fieldIndex("ttlExpirationMs"));
            }
            if (row.size() == 1) {
                return render(row.get(0));
            }
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                parts.add(render(row.get(i)));
            }
            return String.join(",", parts);
        }
        return String.valueOf(o);
    }
}
