package dev.rtmstreams.processor.spi.internals;

import dev.rtmstreams.processor.StoreBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.ChangeLoggingKeyValueBytesStore;
import org.apache.kafka.streams.state.internals.RocksDBStore;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The innermost layer of an operator store: delegates everything to the RocksDB or in-memory store and answers the
 * operator's own {@link StoreQueries} (Kafka Streams' metered and change-logging layers pass query types they do not
 * know down to the store they wrap; {@code transformWithState}'s store answers {@code OperatorStateQuery}).
 *
 * <p>{@link #getPosition()} is asked by Kafka Streams' change-logging layer on every write, and RocksDB answers with
 * a deep copy merged with its uncommitted deltas; the changelog layer uses it only when the internal
 * {@value org.apache.kafka.streams.StreamsConfig.InternalConfig#IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED} setting is on.
 * With that setting off (the default) this layer answers an empty position instead, and the wrapped store does not
 * track its position either (it updates a {@link Position} of nested concurrent maps on every write): this layer keeps
 * it in a {@link PositionTracker} and answers interactive queries, position bounds included, with that position
 * (exact for the writes since the task started, merged with the one the store had when it was opened).
 */
public final class QueryableOperatorStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
        implements KeyValueStore<Bytes, byte[]> {

    private boolean positionForChangelog = true;
    // What the change-logging layer gets with offset-vector consistency off: it reads the position only with that
    // setting on, so one empty instance serves every write (Position.emptyPosition() allocates a ConcurrentHashMap).
    private final Position noPosition = Position.emptyPosition();
    private StateStoreContext context;
    private PositionTracker tracker; // null: the wrapped store tracks its own position
    private Runnable beforeCommit;
    /** Keys written to the changelog only (the change-logging layer above logs them; this layer skips them). */
    private Predicate<Bytes> changelogOnly;
    /** Sees the changelog batches restored into this store; null for none. */
    private final RestoreHook restoreObserver;
    /** Whether the wrapped RocksDB store is opened with {@link LevelCompaction}. */
    private final boolean levelCompaction;
    /** The operator's own interactive queries; null for none. */
    private final StoreQueries queries;
    /** Reads of the wrapped store, without the write methods. */
    private final ReadOnlyKeyValueStore<Bytes, byte[]> reads;

    QueryableOperatorStore(
            KeyValueStore<Bytes, byte[]> inner,
            RestoreHook restoreObserver,
            StoreQueries queries,
            boolean levelCompaction) {
        super(inner);
        this.restoreObserver = restoreObserver;
        this.levelCompaction = levelCompaction;
        this.queries = queries;
        this.reads = new ReadOnlyView(inner);
    }

    /**
     * An operator store's builder: a byte-keyed key-value store on RocksDB or in memory, with this layer innermost and
     * record caching off (real-time output must not wait for a cache flush). Logging is the builder's default (on,
     * with no topic configs).
     *
     * @param name store name (also the changelog topic's suffix); not null
     * @param backend RocksDB or in-memory; not null
     * @param restoreObserver a new observer of each store's restoration per store instance (returning null: none)
     * @param queries the operator's own interactive queries, or null for none
     * @return a builder of the store
     */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> builder(
            String name, StoreBackend backend, Supplier<RestoreHook> restoreObserver, StoreQueries queries) {
        return builder(name, backend, restoreObserver, queries, false);
    }

    /**
     * As {@link #builder(String, StoreBackend, Supplier, StoreQueries)}, for a store whose keys grow with time.
     *
     * @param levelCompaction whether a RocksDB store is opened with {@link LevelCompaction}
     * @return a builder of the store
     */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> builder(
            String name,
            StoreBackend backend,
            Supplier<RestoreHook> restoreObserver,
            StoreQueries queries,
            boolean levelCompaction) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(backend, "backend");
        KeyValueBytesStoreSupplier supplier = wrap(
                backend == StoreBackend.IN_MEMORY
                        ? Stores.inMemoryKeyValueStore(name)
                        : Stores.persistentKeyValueStore(name),
                restoreObserver,
                queries,
                levelCompaction);
        return Stores.keyValueStoreBuilder(supplier, Serdes.Bytes(), Serdes.ByteArray())
                .withCachingDisabled();
    }

    /**
     * @param store a store as Kafka Streams hands it to a processor (decorated, metered, maybe change-logging)
     * @return this layer inside {@code store}, or null when {@code store} was not built with it
     */
    public static QueryableOperatorStore innermost(StateStore store) {
        StateStore s = store;
        while (!(s instanceof QueryableOperatorStore) && s instanceof WrappedStateStore<?, ?, ?> w) {
            s = w.wrapped();
        }
        return s instanceof QueryableOperatorStore q ? q : null;
    }

    /**
     * The innermost layer of {@code store} for writes that skip its changelog, where they cannot be lost: when
     * {@code store} has no change-logging layer (only the metered layer is skipped), or when its
     * {@link RestoreHook} re-derives such writes on restore (the operator's contract).
     *
     * @param store a store as Kafka Streams hands it to a processor (decorated, metered, maybe change-logging)
     * @return this layer inside {@code store}, or {@code store} itself when it was not built with it (then nothing is
     *     skipped)
     * @throws IllegalArgumentException when {@code store} is changelogged and has no restore observer
     */
    public static KeyValueStore<Bytes, byte[]> localWrites(KeyValueStore<Bytes, byte[]> store) {
        boolean changelogged = false;
        StateStore s = store;
        while (!(s instanceof QueryableOperatorStore) && s instanceof WrappedStateStore<?, ?, ?> w) {
            changelogged |= s instanceof ChangeLoggingKeyValueBytesStore;
            s = w.wrapped();
        }
        if (!(s instanceof QueryableOperatorStore q)) {
            return store;
        }
        if (changelogged && q.restoreObserver == null) {
            throw new IllegalArgumentException("store " + store.name() + " is changelogged and was built without a"
                    + " RestoreObserver: writes that skip its changelog would be lost on restore");
        }
        return q;
    }

    /** @return the reads of the wrapped store (below this layer, which only delegates them), without its writes */
    public ReadOnlyKeyValueStore<Bytes, byte[]> reads() {
        return reads;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        Object consistency =
                context.appConfigs().get(StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED);
        positionForChangelog = consistency != null && Boolean.parseBoolean(consistency.toString());
        this.context = context;
        UnaryOperator<StateRestoreCallback> restore = restoreObserver == null
                ? UnaryOperator.identity()
                : callback -> new RestoringCallback(callback, this, restoreObserver);
        if (positionForChangelog) {
            super.init(
                    restoreObserver == null && !levelCompaction
                            ? context
                            : new StoreContextView(context, false, restore, levelCompaction),
                    root);
        } else {
            super.init(new StoreContextView(context, true, restore, levelCompaction), root);
            tracker = new PositionTracker(context, wrapped().getPosition());
        }
    }

    /**
     * Runs {@code action} on the stream thread before each commit of the task (replacing an earlier one): Kafka
     * Streams flushes the caches of a task's stores right before it flushes the producer and commits the input
     * offsets (or the transaction), so store writes made by {@code action} belong to that commit. Relied on (and checked with the
     * pinned Kafka Streams version) by {@code EventTimeTest#shouldRestoreWatermarkWhenRestarted}: the watermark is
     * written only here.
     */
    public void beforeCommit(Runnable action) {
        this.beforeCommit = action;
    }

    /**
     * Makes puts of keys matching {@code keys} changelog-only: the change-logging layer above still logs them, this
     * layer does not write them to the wrapped store (replacing a predicate set earlier). For records that a
     * {@link RestoreHook} expands on restore and that the live store never needs to hold.
     */
    public void changelogOnly(Predicate<Bytes> keys) {
        this.changelogOnly = keys;
    }

    @Override
    public void flushCache() {
        Runnable action = beforeCommit;
        if (action != null) {
            long start = System.nanoTime();
            action.run();
            PreCommitClock.record(start, System.nanoTime());
        }
        super.flushCache();
    }

    @Override
    public Position getPosition() {
        return positionForChangelog ? wrapped().getPosition() : noPosition;
    }

    /** @return a supplier of {@code inner}'s stores wrapped in this layer */
    public static KeyValueBytesStoreSupplier wrap(KeyValueBytesStoreSupplier inner) {
        return wrap(inner, () -> null, null, false);
    }

    /**
     * @param inner the store supplier to wrap
     * @param restoreObserver a new observer of each store's restoration per store instance (returning null: none)
     * @param queries the operator's own interactive queries, or null for none
     * @return a supplier of {@link QueryableOperatorStore}s around {@code inner}'s stores
     */
    public static KeyValueBytesStoreSupplier wrap(
            KeyValueBytesStoreSupplier inner, Supplier<RestoreHook> restoreObserver, StoreQueries queries) {
        return wrap(inner, restoreObserver, queries, false);
    }

    private static KeyValueBytesStoreSupplier wrap(
            KeyValueBytesStoreSupplier inner,
            Supplier<RestoreHook> restoreObserver,
            StoreQueries queries,
            boolean levelCompaction) {
        return new KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return inner.name();
            }

            @Override
            public KeyValueStore<Bytes, byte[]> get() {
                return new QueryableOperatorStore(inner.get(), restoreObserver.get(), queries, levelCompaction);
            }

            @Override
            public String metricsScope() {
                return inner.metricsScope();
            }
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        Object answer = queries == null ? null : queries.answer(query, wrapped());
        if (answer != null) {
            QueryResult<R> r = (QueryResult<R>) QueryResult.forResult(answer);
            Position position = position();
            r.setPosition(position == null ? Position.emptyPosition() : position);
            return r;
        }
        if (tracker == null) {
            return wrapped().query(query, positionBound, config);
        }
        Position position = tracker.position();
        int partition = context.taskId().partition();
        if (!StoreQueryUtils.isPermitted(position, positionBound, partition)) {
            return QueryResult.notUpToBound(position, positionBound, partition);
        }
        QueryResult<R> r = wrapped().query(query, PositionBound.unbounded(), config);
        if (r.isSuccess()) {
            r.setPosition(position);
        }
        return r;
    }

    private Position position() {
        return tracker != null ? tracker.position() : wrapped().getPosition();
    }

    private void written() {
        if (tracker != null) {
            tracker.update();
        }
    }

    @Override
    public void put(Bytes key, byte[] value) {
        Predicate<Bytes> skip = changelogOnly;
        if (skip == null || !skip.test(key)) {
            wrapped().put(key, value);
        }
        written();
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] old = wrapped().putIfAbsent(key, value);
        written();
        return old;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        wrapped().putAll(entries);
        written();
    }

    @Override
    public byte[] delete(Bytes key) {
        byte[] old = wrapped().delete(key);
        written();
        return old;
    }

    /**
     * Deletes every key in {@code [from, to)} from the wrapped store only (not through a changelog): on RocksDB one
     * range deletion, which compaction applies to whole files; otherwise key by key.
     *
     * @param from the first key deleted
     * @param to the first key after the range (exclusive)
     */
    public void deleteRange(Bytes from, Bytes to) {
        KeyValueStore<Bytes, byte[]> inner = wrapped();
        if (inner instanceof RocksDBStore rocks) {
            try (WriteBatch batch = new WriteBatch()) {
                batch.deleteRange(from.get(), to.get());
                rocks.write(batch);
            } catch (RocksDBException e) {
                throw new ProcessorStateException("range deletion in store " + name() + " failed", e);
            }
        } else {
            List<KeyValue<Bytes, byte[]>> deletes = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = inner.range(from, to)) {
                while (it.hasNext()) {
                    Bytes key = it.next().key;
                    if (!key.equals(to)) {
                        deletes.add(KeyValue.pair(key, null));
                    }
                }
            }
            inner.putAll(deletes);
        }
        written();
    }

    @Override
    public byte[] get(Bytes key) {
        return wrapped().get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return wrapped().range(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return wrapped().reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return wrapped().all();
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return wrapped().reverseAll();
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        return wrapped().prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
        return wrapped().approximateNumEntries();
    }
}
