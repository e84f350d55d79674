package dev.rtmstreams.processor.avro;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The processor of the schema-evolution tests, one class for every version: its declaration is data. Per row of key
 * {@code k}: the value state {@code profile} (a record with at least {@code visits}) is read and written back with
 * {@code visits + 1} and {@code name = k}; the map state {@code counts} counts the rows per row value; the list state
 * {@code rows} (when declared) appends the row; an optional plain {@code Long} value state {@code extra} counts rows
 * too. The output shows what was read before the write: {@code k profile=<record> counts={..} rows=[..] extra=..}.
 */
final class Profiles extends StatefulProcessor<String, String, String> {

    /** One version of the operator's declaration. */
    record Version(
            Serde<?> profile,
            Serde<?> countKey,
            Serde<?> count,
            Serde<?> rows,
            String extra,
            TtlConfig ttl,
            List<String> deleteIfExists) {

        static Version of(Serde<?> profile, Serde<?> count) {
            return new Version(profile, Serdes.String(), count, null, null, TtlConfig.NONE, List.of());
        }

        Version withExtra(String name) {
            return new Version(profile, countKey, count, rows, name, ttl, deleteIfExists);
        }

        Version withRows(Serde<?> serde) {
            return new Version(profile, countKey, count, serde, extra, ttl, deleteIfExists);
        }

        Version withTtl(Duration d) {
            return new Version(profile, countKey, count, rows, extra, TtlConfig.of(d), deleteIfExists);
        }

        Version withCountKey(Serde<?> serde) {
            return new Version(profile, serde, count, rows, extra, ttl, deleteIfExists);
        }

        Version deleting(String... names) {
            return new Version(profile, countKey, count, rows, extra, ttl, List.of(names));
        }

        TransformWithState<String, String, String> operator(TimeMode timeMode, ExecutionMode mode) {
            return TransformWithState.<String, String, String>builder(() -> new Profiles(this), timeMode)
                    .name("profiles")
                    .keySerde(Serdes.String())
                    .valueSerde(Serdes.String())
                    .executionMode(mode)
                    .microBatchInterval(Duration.ofMillis(100))
                    .build();
        }

        TransformWithState<String, String, String> operator() {
            return operator(TimeMode.NONE, ExecutionMode.REAL_TIME);
        }
    }

    private final Version version;
    private ValueState<Object> profile;
    private MapState<Object, Object> counts;
    private ListState<Object> rows;
    private ValueState<Long> extra;

    Profiles(Version version) {
        this.version = version;
    }

    @SuppressWarnings("unchecked")
    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        TtlConfig ttl = version.ttl();
        profile = getHandle().getValueState("profile", (Serde<Object>) version.profile(), ttl);
        counts = getHandle()
                .getMapState("counts", (Serde<Object>) version.countKey(), (Serde<Object>) version.count(), ttl);
        if (version.rows() != null) {
            rows = getHandle().getListState("rows", (Serde<Object>) version.rows(), ttl);
        }
        if (version.extra() != null) {
            extra = getHandle().getValueState(version.extra(), Serdes.Long(), ttl);
        }
        version.deleteIfExists().forEach(getHandle()::deleteIfExists);
    }

    @Override
    public Iterator<String> handleInputRows(String key, Iterator<String> input, TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (input.hasNext()) {
            String row = input.next();
            out.add(describe(key));
            Object p = profile.get();
            profile.update(next(p, key));
            Object countKey = countKey(row);
            counts.updateValue(countKey, increment(counts.getValue(countKey)));
            if (rows != null) {
                rows.appendValue(rowValue(row));
            }
            if (extra != null) {
                extra.update(extra.getOption().orElse(0L) + 1);
            }
        }
        return out.iterator();
    }

    private String describe(String key) {
        Map<String, String> c = new TreeMap<>();
        counts.iterator().forEachRemaining(e -> c.put(String.valueOf(e.getKey()), describeNumber(e.getValue())));
        StringBuilder b = new StringBuilder(key)
                .append(" profile=")
                .append(profile.get())
                .append(" counts=")
                .append(c);
        if (rows != null) {
            List<String> r = new ArrayList<>();
            rows.get().forEachRemaining(v -> r.add(String.valueOf(v)));
            b.append(" rows=").append(r);
        }
        if (extra != null) {
            b.append(" ")
                    .append(version.extra())
                    .append("=")
                    .append(extra.getOption().orElse(0L));
        }
        return b.toString();
    }

    /** A number with its Java type's initial, to see widening: {@code 2i}, {@code 2L}. */
    static String describeNumber(Object n) {
        return n instanceof Integer ? n + "i" : n instanceof Long ? n + "L" : String.valueOf(n);
    }

    private Object countKey(String row) {
        if (version.countKey() instanceof AvroStateSerde<?> a && a.avroSchema().getType() == Schema.Type.RECORD) {
            return new GenericRecordBuilder(a.avroSchema()).set("row", row).build();
        }
        return row;
    }

    private Object rowValue(String row) {
        if (version.rows() instanceof AvroStateSerde<?> a && a.avroSchema().getType() == Schema.Type.RECORD) {
            GenericRecordBuilder b = new GenericRecordBuilder(a.avroSchema()).set("row", row);
            return b.build();
        }
        return row;
    }

    private Object increment(Object old) {
        Schema.Type t =
                version.count() instanceof AvroStateSerde<?> a ? a.avroSchema().getType() : Schema.Type.LONG;
        long n = old == null ? 1 : ((Number) old).longValue() + 1;
        return t == Schema.Type.INT ? (Object) (int) n : (Object) n;
    }

    private Object next(Object old, String key) {
        if (!(version.profile() instanceof AvroStateSerde<?> a)) {
            return old == null ? 1L : ((Number) old).longValue() + 1;
        }
        Schema s = a.avroSchema();
        GenericRecordBuilder b = old == null
                ? new GenericRecordBuilder(s)
                : new GenericRecordBuilder((org.apache.avro.generic.GenericData.Record) old);
        long visits = old == null ? 1 : ((Number) ((GenericRecord) old).get("visits")).longValue() + 1;
        Schema.Type t = s.getField("visits").schema().getType();
        b.set("visits", t == Schema.Type.INT ? (Object) (int) visits : (Object) visits);
        if (s.getField("name") != null) {
            b.set("name", key);
        }
        return b.build();
    }

    /** @return the RtmException in the cause chain of {@code t} */
    static RtmException rtmCause(Throwable t) {
        Throwable c = t;
        while (c != null && !(c instanceof RtmException)) {
            c = c.getCause();
        }
        if (c == null) {
            throw new AssertionError("no RtmException in the cause chain", t);
        }
        return (RtmException) c;
    }
}
