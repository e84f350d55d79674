package dev.rtmstreams.join;

import dev.rtmstreams.join.internals.JoinSpec;
import dev.rtmstreams.join.internals.JoinStateQueries;
import dev.rtmstreams.join.internals.JoinStateScan;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.spi.JsonText;
import dev.rtmstreams.processor.spi.StoreCopies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads the state of an {@link IntervalJoin}, like Spark's state data source on a stream-stream join with its
 * {@code joinSide} option: the rows each side holds, per join key, with their event times, and the join's watermarks.
 * The state is per task (per partition); a reader reads one task's. Sources:
 *
 * <ul>
 *   <li>a running application, through interactive queries on the active task that owns the key ({@link #query});
 *   <li>a stopped application's RocksDB task directory ({@link #fromRocksDbDirectory}; stores on
 *       {@code StoreBackend.ROCKS_DB} only);
 *   <li>the changelog topics, replayed ({@link #ofChangelogs}): row batches are expanded, the eviction marker is
 *       honoured;
 *   <li>any readable copy of the stores ({@link #of}), e.g. {@code TopologyTestDriver#getKeyValueStore}.
 * </ul>
 *
 * A row is shown while the join holds it: rows the join has evicted are not, also those still present in a store
 * until a restore or a task start sweeps them (at or below the side's eviction marker). A row that is evictable but
 * not yet evicted (eviction runs in bounded passes) is shown. Keys and values are decoded with the join's serdes,
 * else with the deserializers given to {@link #withKeyDeserializer} and {@link #withDeserializer}; a value no
 * deserializer can read is shown as {@link StateReader.Base64Value}. Instances are immutable; the {@code with...}
 * methods return copies. Reading never changes the state.
 *
 * <pre>{@code
 * JoinStateReader r = JoinStateReader.query(streams, join, "imp-1".getBytes(UTF_8));
 * r.read("imp-1".getBytes(UTF_8)).ifPresent(s -> System.out.println(JoinStateReader.toJson(s)));
 * }</pre>
 */
@InterfaceStability.Evolving
public final class JoinStateReader {

    /** A side of the join, as Spark's state data source option {@code joinSide} ({@code left}, {@code right}). */
    public enum JoinSide {
        /** The left input's rows. */
        LEFT,
        /** The right input's rows. */
        RIGHT
    }

    private final JoinSpec<?, ?, ?> spec;
    private final ReadOnlyKeyValueStore<Bytes, byte[]> left;
    private final ReadOnlyKeyValueStore<Bytes, byte[]> right;
    /** Read on each use: a reader of live store copies ({@link #of}) follows their changes. */
    private final Supplier<Watermarks> watermarks;

    private final Integer partition;
    private final Deserializer<?> keyDeserializer;
    private final Deserializer<?> leftDeserializer;
    private final Deserializer<?> rightDeserializer;

    private JoinStateReader(
            JoinSpec<?, ?, ?> spec,
            ReadOnlyKeyValueStore<Bytes, byte[]> left,
            ReadOnlyKeyValueStore<Bytes, byte[]> right,
            Supplier<Watermarks> watermarks,
            Integer partition,
            Deserializer<?> keyDeserializer,
            Deserializer<?> leftDeserializer,
            Deserializer<?> rightDeserializer) {
        this.spec = spec;
        this.left = left;
        this.right = right;
        this.watermarks = watermarks;
        this.partition = partition;
        this.keyDeserializer = keyDeserializer;
        this.leftDeserializer = leftDeserializer;
        this.rightDeserializer = rightDeserializer;
    }

    private static JoinStateReader create(
            IntervalJoin<?, ?, ?> join,
            ReadOnlyKeyValueStore<Bytes, byte[]> left,
            ReadOnlyKeyValueStore<Bytes, byte[]> right,
            Supplier<Watermarks> watermarks,
            Integer partition) {
        JoinSpec<?, ?, ?> spec = join.spec();
        return new JoinStateReader(spec, left, right, watermarks, partition, null, null, null)
                .decodedWith(
                        spec.keySerde().deserializer(),
                        spec.leftSerde().deserializer(),
                        spec.rightSerde().deserializer());
    }

    private JoinStateReader decodedWith(Deserializer<?> keys, Deserializer<?> leftValues, Deserializer<?> rightValues) {
        return new JoinStateReader(spec, left, right, watermarks, partition, keys, leftValues, rightValues);
    }

    /**
     * Reads readable copies of a join task's stores.
     *
     * @param join the join; not null
     * @param leftBuffer the store {@link IntervalJoin#leftBufferStoreName()} of one task; not null
     * @param rightBuffer the store {@link IntervalJoin#rightBufferStoreName()} of the same task; not null
     * @param meta the store {@link IntervalJoin#metaStoreName()} of the same task; null when not at hand (then the
     *     watermarks are derived from the rows where the join itself can do so, see {@link #watermarks()})
     * @return a reader of the task's state (the stores are read on every call: a live copy's later changes show)
     */
    public static JoinStateReader of(
            IntervalJoin<?, ?, ?> join,
            ReadOnlyKeyValueStore<Bytes, byte[]> leftBuffer,
            ReadOnlyKeyValueStore<Bytes, byte[]> rightBuffer,
            ReadOnlyKeyValueStore<Bytes, byte[]> meta) {
        Objects.requireNonNull(join, "join");
        Objects.requireNonNull(leftBuffer, "leftBuffer");
        Objects.requireNonNull(rightBuffer, "rightBuffer");
        JoinSpec<?, ?, ?> spec = join.spec();
        return create(
                join,
                leftBuffer,
                rightBuffer,
                () -> derive(
                        spec,
                        meta == null ? null : meta.get(JoinStateScan.metaKey()),
                        meta != null,
                        leftBuffer,
                        rightBuffer),
                null);
    }

    /**
     * Reads a join task of a stopped application from its RocksDB stores (the join must use
     * {@code StoreBackend.ROCKS_DB}). The meta store is in memory, so not in the directory: the watermarks are derived
     * from the rows where the join itself recovers them so after a restart (see {@link #watermarks()}).
     *
     * @param join the join; not null
     * @param taskDirectory a task's directory, {@code <state.dir>/<application.id>/<task id>} (e.g. {@code 0_1}),
     *     holding {@code rocksdb/<join name>-left-buffer} and {@code -right-buffer}; not null
     * @return a reader of the task's state; its partition is taken from the task id
     * @throws IllegalArgumentException naming the directory when it holds no readable buffer stores of the join
     */
    public static JoinStateReader fromRocksDbDirectory(IntervalJoin<?, ?, ?> join, Path taskDirectory) {
        Objects.requireNonNull(join, "join");
        Path rocksdb = Objects.requireNonNull(taskDirectory, "taskDirectory").resolve("rocksdb");
        ReadOnlyKeyValueStore<Bytes, byte[]> l = StoreCopies.fromRocksDb(rocksdb.resolve(join.leftBufferStoreName()));
        ReadOnlyKeyValueStore<Bytes, byte[]> r = StoreCopies.fromRocksDb(rocksdb.resolve(join.rightBufferStoreName()));
        Watermarks w = derive(join.spec(), null, false, l, r);
        return create(join, l, r, () -> w, partitionOf(taskDirectory));
    }

    /**
     * Reads a join task from its changelog topics, replayed: one partition of each, from the beginning, in offset
     * order (read with {@code isolation.level=read_committed}). Row batches are expanded into their rows and the rows
     * at or below the eviction marker are dropped, as a restore does.
     *
     * @param join the join; not null
     * @param partition the partition (task) the records are of
     * @param leftBufferChangelog the records of {@code <application.id>-<left buffer store>-changelog}; not null
     * @param rightBufferChangelog the records of the right buffer store's changelog; not null
     * @param metaChangelog the records of the meta store's changelog; null when not at hand (as {@link #of})
     * @return a reader of the task's state
     */
    public static JoinStateReader ofChangelogs(
            IntervalJoin<?, ?, ?> join,
            int partition,
            Iterable<KeyValue<Bytes, byte[]>> leftBufferChangelog,
            Iterable<KeyValue<Bytes, byte[]>> rightBufferChangelog,
            Iterable<KeyValue<Bytes, byte[]>> metaChangelog) {
        Objects.requireNonNull(join, "join");
        ReadOnlyKeyValueStore<Bytes, byte[]> l = StoreCopies.of(
                JoinStateScan.replayBuffer(Objects.requireNonNull(leftBufferChangelog, "leftBufferChangelog")));
        ReadOnlyKeyValueStore<Bytes, byte[]> r = StoreCopies.of(
                JoinStateScan.replayBuffer(Objects.requireNonNull(rightBufferChangelog, "rightBufferChangelog")));
        byte[] meta = null;
        if (metaChangelog != null) {
            for (KeyValue<Bytes, byte[]> kv : metaChangelog) {
                if (kv.key.equals(JoinStateScan.metaKey())) {
                    meta = kv.value;
                }
            }
        }
        Watermarks w = derive(join.spec(), meta, metaChangelog != null, l, r);
        return create(join, l, r, () -> w, partition);
    }

    /**
     * Reads one key's join state from a running application through interactive queries, on the active task of this
     * instance that owns the key: range queries for the key's rows in both buffer stores (with
     * {@link EvictionIndex#SEGMENTS} a scan of every row, filtered by key: the key's rows are spread over the time
     * segments), then the markers and the watermarks. With {@code application.server} set, the owner is found from Kafka Streams' metadata
     * ({@code KafkaStreams#queryMetadataForKey}); without it, it is the active task whose buffers hold rows of the
     * key. The queries are not one atomic snapshot: a record processed meanwhile may show in one side and not yet in
     * the other.
     *
     * @param streams the running application; not null
     * @param join the join as the application's topology was built with it; not null
     * @param key the join key, serialized with the join's key serde; not null
     * @return a reader over the key's rows (use {@link #read} with the same key); without rows and watermarks when no
     *     active task of this instance owns the key (another instance does, or, without {@code application.server},
     *     the key has no rows here)
     * @throws IllegalStateException when a query fails (e.g. the application is not running)
     */
    public static JoinStateReader query(KafkaStreams streams, IntervalJoin<?, ?, ?> join, byte[] key) {
        Objects.requireNonNull(streams, "streams");
        Objects.requireNonNull(join, "join");
        Objects.requireNonNull(key, "key");
        JoinStateQueries.Snapshot s = JoinStateQueries.query(streams, join.spec(), key);
        ReadOnlyKeyValueStore<Bytes, byte[]> l = StoreCopies.of(s.left());
        ReadOnlyKeyValueStore<Bytes, byte[]> r = StoreCopies.of(s.right());
        Watermarks w = s.local()
                ? toWatermarks(JoinStateScan.watermarks(join.spec(), s.meta(), true, s.leftNewest(), s.rightNewest()))
                : null;
        return create(join, l, r, () -> w, s.partition());
    }

    /**
     * @param deserializer decodes the join keys (default: the join's key serde); not null
     * @return a copy decoding keys with {@code deserializer}
     */
    public JoinStateReader withKeyDeserializer(Deserializer<?> deserializer) {
        return decodedWith(Objects.requireNonNull(deserializer, "deserializer"), leftDeserializer, rightDeserializer);
    }

    /**
     * @param side the side whose values to decode; not null
     * @param deserializer decodes that side's values (default: the join's serde of the side); not null
     * @return a copy decoding the side's values with {@code deserializer}
     */
    public JoinStateReader withDeserializer(JoinSide side, Deserializer<?> deserializer) {
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(deserializer, "deserializer");
        return decodedWith(
                keyDeserializer,
                side == JoinSide.LEFT ? deserializer : leftDeserializer,
                side == JoinSide.RIGHT ? deserializer : rightDeserializer);
    }

    /**
     * One buffered row.
     *
     * @param key the join key (decoded); not null
     * @param eventTime the row's event time (epoch ms), as the side's event-time extractor gave it
     * @param recordTimestamp the input record's timestamp (epoch ms)
     * @param matched whether the row is known to have a match: set when it matched on arrival, and in outer and
     *     semi joins also when a later row of the other side matches it
     * @param value the row's value (decoded); not null
     */
    public record Row(Object key, long eventTime, long recordTimestamp, boolean matched, Object value) {}

    /**
     * The watermarks of the join task, as the join holds them (and restores them after a restart).
     *
     * @param leftMaxEventTime the left input's max event time; null before its first record
     * @param rightMaxEventTime the right input's max event time; null before its first record
     * @param globalWatermark the global watermark (rows at or below it are late); null while there is none
     */
    public record Watermarks(Long leftMaxEventTime, Long rightMaxEventTime, Long globalWatermark) {}

    /**
     * The join state of one key.
     *
     * @param key the join key (decoded); not null
     * @param partition the partition (task) holding it; null when the source does not say ({@link #of})
     * @param left the left rows of the key in event-time order, then arrival; empty when none; not null
     * @param right the right rows of the key, likewise; not null
     * @param watermarks the task's watermarks; null when they cannot be known (see {@link #watermarks()})
     */
    public record KeyState(Object key, Integer partition, List<Row> left, List<Row> right, Watermarks watermarks) {}

    /**
     * The task's watermarks. Read from the meta store, with each input's max raised to its newest buffered row and
     * the global watermark recomputed from them, as the join loads them after a restart (the join may persist its
     * watermarks lazily, when its newest rows prove them). Without the meta store ({@link #fromRocksDbDirectory}, or
     * no meta given) they are derived from the rows alone when the rows prove them: watermark policy MIN, not a left
     * semi join, no idle timeout on the builder (one set only through {@code rtm.watermark.idle.timeout.ms} is not
     * seen), {@code upper >= -leftDelay}, {@code lower <= rightDelay}, and no {@code distinctBy} on either side (a
     * dropped copy may raise its side's max without being buffered).
     *
     * @return the watermarks; empty when they cannot be known, or when another instance owns the key of a
     *     {@link #query}
     */
    public Optional<Watermarks> watermarks() {
        return Optional.ofNullable(watermarks.get());
    }

    /** @return the partition (task) this reader reads; empty when the source does not say ({@link #of}) */
    public Optional<Integer> partition() {
        return Optional.ofNullable(partition);
    }

    /**
     * Spark's state data source with {@code joinSide}: every row one side holds, for all keys.
     *
     * @param side the side; not null
     * @return its rows in (serialized) key order, then event time and arrival; a {@link #query} reader holds only its
     *     key's rows
     */
    public List<Row> rows(JoinSide side) {
        Objects.requireNonNull(side, "side");
        return decode(side, JoinStateScan.rows(side == JoinSide.LEFT ? left : right, null));
    }

    /**
     * @param key the join key, serialized with the join's key serde; not null
     * @return the key's rows on both sides and the watermarks; empty when neither side holds a row of the key
     */
    public Optional<KeyState> read(byte[] key) {
        Objects.requireNonNull(key, "key");
        List<Row> l = decode(JoinSide.LEFT, JoinStateScan.rows(left, key));
        List<Row> r = decode(JoinSide.RIGHT, JoinStateScan.rows(right, key));
        if (l.isEmpty() && r.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new KeyState(decode(keyDeserializer, key), partition, l, r, watermarks.get()));
    }

    /** @return the state of every key that either side holds a row of, in serialized-key order */
    public List<KeyState> readAll() {
        NavigableMap<Bytes, List<List<JoinStateScan.RawRow>>> byKey = new TreeMap<>();
        for (JoinSide side : JoinSide.values()) {
            for (JoinStateScan.RawRow row : JoinStateScan.rows(side == JoinSide.LEFT ? left : right, null)) {
                byKey.computeIfAbsent(Bytes.wrap(row.key()), k -> List.of(new ArrayList<>(), new ArrayList<>()))
                        .get(side.ordinal())
                        .add(row);
            }
        }
        Watermarks w = watermarks.get();
        List<KeyState> out = new ArrayList<>(byKey.size());
        for (Map.Entry<Bytes, List<List<JoinStateScan.RawRow>>> e : byKey.entrySet()) {
            out.add(new KeyState(
                    decode(keyDeserializer, e.getKey().get()),
                    partition,
                    decode(JoinSide.LEFT, e.getValue().get(0)),
                    decode(JoinSide.RIGHT, e.getValue().get(1)),
                    w));
        }
        return out;
    }

    /**
     * @param state a key's state; not null
     * @return one line of JSON: {@code {"key":..,"partition":..,"watermarks":{"leftMaxEventTime":..,
     *     "rightMaxEventTime":..,"globalWatermark":..},"left":[{"eventTime":..,"recordTimestamp":..,"matched":..,
     *     "value":..}],"right":[..]}}; unknown watermarks are {@code null}
     */
    public static String toJson(KeyState state) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"key\":");
        JsonText.value(b, state.key());
        b.append(",\"partition\":");
        JsonText.value(b, state.partition());
        b.append(",\"watermarks\":");
        Watermarks w = state.watermarks();
        if (w == null) {
            b.append("null");
        } else {
            b.append("{\"leftMaxEventTime\":");
            JsonText.value(b, w.leftMaxEventTime());
            b.append(",\"rightMaxEventTime\":");
            JsonText.value(b, w.rightMaxEventTime());
            b.append(",\"globalWatermark\":");
            JsonText.value(b, w.globalWatermark());
            b.append('}');
        }
        b.append(",\"left\":");
        rowsJson(b, state.left());
        b.append(",\"right\":");
        rowsJson(b, state.right());
        return b.append('}').toString();
    }

    private static void rowsJson(StringBuilder b, List<Row> rows) {
        b.append('[');
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            if (i > 0) {
                b.append(',');
            }
            b.append("{\"eventTime\":").append(r.eventTime());
            b.append(",\"recordTimestamp\":").append(r.recordTimestamp());
            b.append(",\"matched\":").append(r.matched());
            b.append(",\"value\":");
            JsonText.value(b, r.value());
            b.append('}');
        }
        b.append(']');
    }

    private List<Row> decode(JoinSide side, List<JoinStateScan.RawRow> raw) {
        Deserializer<?> values = side == JoinSide.LEFT ? leftDeserializer : rightDeserializer;
        List<Row> out = new ArrayList<>(raw.size());
        for (JoinStateScan.RawRow r : raw) {
            out.add(new Row(
                    decode(keyDeserializer, r.key()),
                    r.eventTime(),
                    r.recordTimestamp(),
                    r.matched(),
                    decode(values, r.payload())));
        }
        return out;
    }

    private Object decode(Deserializer<?> d, byte[] bytes) {
        try {
            Object v = d.deserialize(spec.name(), bytes);
            if (v != null) {
                return v;
            }
        } catch (RuntimeException e) {
            // fall through: show the bytes
        }
        return new StateReader.Base64Value(Base64.getEncoder().encodeToString(bytes));
    }

    private static Watermarks derive(
            JoinSpec<?, ?, ?> spec,
            byte[] meta,
            boolean metaAvailable,
            ReadOnlyKeyValueStore<Bytes, byte[]> left,
            ReadOnlyKeyValueStore<Bytes, byte[]> right) {
        return toWatermarks(JoinStateScan.watermarks(
                spec, meta, metaAvailable, JoinStateScan.newest(left), JoinStateScan.newest(right)));
    }

    private static Watermarks toWatermarks(JoinStateScan.RawWatermarks w) {
        if (w == null) {
            return null;
        }
        return new Watermarks(orNull(w.leftMax()), orNull(w.rightMax()), orNull(w.global()));
    }

    private static Long orNull(long t) {
        return t == JoinStateScan.NONE ? null : t;
    }

    /** @return the partition of a task directory named {@code <subtopology>_<partition>}, else null */
    private static Integer partitionOf(Path taskDirectory) {
        Path name = taskDirectory.getFileName();
        String s = name == null ? "" : name.toString();
        int at = s.lastIndexOf('_');
        if (at < 0 || !Files.isDirectory(taskDirectory)) {
            return null;
        }
        try {
            return Integer.parseInt(s.substring(at + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
