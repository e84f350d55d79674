package dev.rtmstreams.processor.spi;

import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.spi.internals.QueryableOperatorStore;
import dev.rtmstreams.processor.spi.internals.RestoreHook;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * State stores for operators built on rtm-streams (its own {@code transformWithState} and joins, or a user's
 * operator): byte-keyed key-value stores on RocksDB or in memory, with record caching off (real-time output must not
 * wait for a cache flush), optionally changelogged.
 *
 * <p>Unless Kafka Streams' offset-vector consistency is on, their innermost layer does not copy the store's IQv2
 * {@code Position} for each changelogged write: Kafka Streams' change-logging layer asks the store for its position
 * on every write but uses it only with that (internal, default off) setting, and RocksDB's position copy was
 * measured at ~3% of a real-time stream thread's CPU (BENCHMARKS.md). Interactive queries still see the exact
 * position.
 */
@InterfaceStability.Unstable
public final class OperatorStores {

    private OperatorStores() {}

    /**
     * @param name store name (also the changelog topic's suffix); not null
     * @param backend RocksDB or in-memory; not null
     * @param logged whether the store is changelogged (fault tolerant)
     * @return a builder of the store
     */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> keyValue(
            String name, StoreBackend backend, boolean logged) {
        StoreBuilder<KeyValueStore<Bytes, byte[]>> b = builder(name, backend, () -> null);
        return logged ? b.withLoggingEnabled(Map.of()) : b.withLoggingDisabled();
    }

    /**
     * A changelogged store whose changelog need not carry every deletion: its topic gets {@code changelogConfig}
     * (e.g. {@code cleanup.policy=compact,delete} with a {@code retention.ms}) and each instance a
     * {@link RestoreObserver} that applies, to a restoring or standby copy, the deletions the changelog leaves out.
     *
     * @param name store name (also the changelog topic's suffix); not null
     * @param backend RocksDB or in-memory; not null
     * @param changelogConfig topic configs of the changelog; not null
     * @param restoreObserver a new observer per store instance; not null
     * @return a builder of the store
     */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> keyValue(
            String name,
            StoreBackend backend,
            Map<String, String> changelogConfig,
            Supplier<RestoreObserver> restoreObserver) {
        return keyValue(name, backend, changelogConfig, restoreObserver, false);
    }

    /**
     * As {@link #keyValue(String, StoreBackend, Map, Supplier)}, for a store whose keys begin with a time prefix that
     * grows (rows keyed by time segment first): with {@code levelCompaction} a RocksDB store is opened with level
     * compaction instead of Kafka Streams' default universal compaction, before the application's
     * {@code rocksdb.config.setter} (which thus has the last word). Level compaction rewrites little of a store whose
     * writes go to its newest key range, and drops whole files under a {@link #deleteRange}.
     *
     * @param levelCompaction whether a RocksDB store uses level compaction
     * @return a builder of the store
     */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> keyValue(
            String name,
            StoreBackend backend,
            Map<String, String> changelogConfig,
            Supplier<RestoreObserver> restoreObserver,
            boolean levelCompaction) {
        Objects.requireNonNull(changelogConfig, "changelogConfig");
        Objects.requireNonNull(restoreObserver, "restoreObserver");
        return builder(name, backend, restoreObserver, levelCompaction).withLoggingEnabled(Map.copyOf(changelogConfig));
    }

    private static StoreBuilder<KeyValueStore<Bytes, byte[]>> builder(
            String name, StoreBackend backend, Supplier<RestoreObserver> restoreObserver) {
        return builder(name, backend, restoreObserver, false);
    }

    private static StoreBuilder<KeyValueStore<Bytes, byte[]>> builder(
            String name, StoreBackend backend, Supplier<RestoreObserver> restoreObserver, boolean levelCompaction) {
        return QueryableOperatorStore.builder(name, backend, () -> hook(restoreObserver.get()), null, levelCompaction);
    }

    /**
     * Deletes every key in {@code [from, to)} from the local store, skipping its changelog, with the contract of
     * {@link #localWrites}: only what a restore re-derives (e.g. rows an eviction marker covers). On RocksDB it is one
     * range deletion (no tombstone per key; compaction drops whole files under it), otherwise key by key.
     *
     * @param store a store built by {@link #keyValue}, as returned by {@code ProcessorContext#getStateStore}
     * @param from the first key deleted; not null
     * @param to the first key after the range (exclusive); not null
     * @throws IllegalArgumentException when {@code store} was not built by {@link #keyValue}, or is changelogged and
     *     was built without a {@link RestoreObserver}
     */
    public static void deleteRange(KeyValueStore<Bytes, byte[]> store, Bytes from, Bytes to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (!(localWrites(store) instanceof QueryableOperatorStore local)) {
            throw new IllegalArgumentException("store " + store.name() + " was not built by OperatorStores.keyValue");
        }
        local.deleteRange(from, to);
    }

    /** The store layer's view of {@code observer} (null: none). */
    private static RestoreHook hook(RestoreObserver observer) {
        return observer == null
                ? null
                : new RestoreHook() {
                    @Override
                    public Collection<ConsumerRecord<byte[], byte[]>> rewrite(
                            Collection<ConsumerRecord<byte[], byte[]>> batch) {
                        return observer.rewrite(batch);
                    }

                    @Override
                    public void restored(
                            KeyValueStore<Bytes, byte[]> store, Collection<ConsumerRecord<byte[], byte[]>> batch) {
                        observer.restored(store, batch);
                    }
                };
    }

    /**
     * A read-only view of the store below Kafka Streams' metered and change-logging layers, for reads on a hot path.
     *
     * <p>Kafka Streams' metered layer registers, times and deregisters every iterator and records every call in a
     * sensor; for a join that opens an iterator per input record this was measured at ~3% of a real-time stream
     * thread's CPU. Reads through the view return the same data without those metrics.
     *
     * @param store a store built by {@link #keyValue}, as returned by {@code ProcessorContext#getStateStore}
     * @return a read-only view of the innermost layer of {@code store}, or {@code store} itself when it was not built
     *     by {@link #keyValue} (then nothing is bypassed)
     */
    public static ReadOnlyKeyValueStore<Bytes, byte[]> unmeteredReads(KeyValueStore<Bytes, byte[]> store) {
        QueryableOperatorStore innermost = QueryableOperatorStore.innermost(Objects.requireNonNull(store, "store"));
        return innermost != null ? innermost.reads() : store;
    }

    /**
     * The store below Kafka Streams' metered and change-logging layers, for reads and writes on a hot path, where
     * writes that skip the changelog cannot be lost: a store built with {@code logged} false (only the metered layer
     * is skipped), or one built with a {@link RestoreObserver}. <b>Writes through the view to the latter skip its
     * changelog</b>: write through it only what a restore re-derives without the changelog (e.g. the deletions its
     * observer applies, or entries whose changelog record is written under a {@link #changelogOnly} key).
     *
     * @param store a store built by {@link #keyValue}, as returned by {@code ProcessorContext#getStateStore}
     * @return the innermost layer of {@code store}, or {@code store} itself when it was not built by
     *     {@link #keyValue} (then nothing is bypassed)
     * @throws IllegalArgumentException when {@code store} is changelogged and was built without a
     *     {@link RestoreObserver} (a restore would not re-derive what skips its changelog; read through
     *     {@link #unmeteredReads} instead)
     */
    public static KeyValueStore<Bytes, byte[]> localWrites(KeyValueStore<Bytes, byte[]> store) {
        return QueryableOperatorStore.localWrites(Objects.requireNonNull(store, "store"));
    }

    /**
     * Makes writes of the keys {@code keys} accepts changelog-only: a {@code put} of such a key through the store's
     * change-logging layer reaches the changelog and not the local store (replacing a predicate set earlier). For a
     * store built with a {@link RestoreObserver} that expands such records on restore (e.g. a batch of rows the
     * local store already holds one by one): the local copy would only be written and deleted again.
     *
     * @param store a changelogged store built by {@link #keyValue}, as returned by {@code ProcessorContext#getStateStore}
     * @param keys which keys are changelog-only; not null
     * @return true when set; false when {@code store} was not built by {@link #keyValue} (then every put is also
     *     written locally)
     */
    public static boolean changelogOnly(KeyValueStore<Bytes, byte[]> store, Predicate<Bytes> keys) {
        Objects.requireNonNull(keys, "keys");
        QueryableOperatorStore innermost = QueryableOperatorStore.innermost(Objects.requireNonNull(store, "store"));
        if (innermost == null) {
            return false;
        }
        innermost.changelogOnly(keys);
        return true;
    }

    /**
     * Runs {@code action} on the stream thread before each commit of the task (replacing an action set earlier):
     * Kafka Streams flushes the caches of a task's stores right before it flushes the producer and commits the input
     * offsets (or the transaction), so store writes made by {@code action}, changelog records included, belong to
     * that commit.
     *
     * @param store a store built by {@link #keyValue}, as returned by {@code ProcessorContext#getStateStore}
     * @param action what to run; not null
     * @return true when the action is set; false when {@code store} was not built by {@link #keyValue} (nothing is
     *     run: the caller must not defer writes to the commit)
     */
    public static boolean beforeCommit(KeyValueStore<Bytes, byte[]> store, Runnable action) {
        Objects.requireNonNull(action, "action");
        QueryableOperatorStore innermost = QueryableOperatorStore.innermost(Objects.requireNonNull(store, "store"));
        if (innermost == null) {
            return false;
        }
        innermost.beforeCommit(action);
        return true;
    }
}
