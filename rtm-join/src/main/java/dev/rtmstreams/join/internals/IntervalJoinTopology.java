package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.ValueJoiner3;
import dev.rtmstreams.processor.StoreBackend;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires an interval join into a DSL topology: two side processors sharing four stores, merged into one stream. */
public final class IntervalJoinTopology {

    private static final Logger LOG = LoggerFactory.getLogger(IntervalJoinTopology.class);

    private IntervalJoinTopology() {}

    /**
     * Adds the join of {@code left} and {@code right} and returns the joined stream.
     */
    @SuppressWarnings("unchecked")
    public static <K, L, R, VR> KStream<K, VR> build(
            JoinSpec<K, L, R> spec, KStream<K, L> left, KStream<K, R> right, ValueJoiner3<K, L, R, VR> joiner) {
        KStream<K, L> l = left;
        KStream<K, R> r = right;
        if (spec.repartitionIfKeyChanged() && repartitionRequired(l)) {
            l = l.repartition(Repartitioned.<K, L>as(spec.name() + "-left")
                    .withKeySerde(spec.keySerde())
                    .withValueSerde(spec.leftSerde()));
        }
        if (spec.repartitionIfKeyChanged() && repartitionRequired(r)) {
            r = r.repartition(Repartitioned.<K, R>as(spec.name() + "-right")
                    .withKeySerde(spec.keySerde())
                    .withValueSerde(spec.rightSerde()));
        }
        ensureCopartitioned(l, r);

        Set<StoreBuilder<?>> stores = new LinkedHashSet<>();
        stores.add(store(spec.leftBufferStore(), spec.backend(), true));
        stores.add(store(spec.rightBufferStore(), spec.backend(), true));
        // Each side's time index, for eviction: local only. Kafka Streams' own window store needs none (it drops whole
        // time segments); a row-level index changelogged beside each row would double the changelog writes per input.
        stores.add(store(spec.leftIndexStore(), spec.backend(), false));
        stores.add(store(spec.rightIndexStore(), spec.backend(), false));
        // Watermarks/sequence (one key, read and written per record) and the micro-batch buffer (one interval of
        // input) are small: in memory, changelogged - no RocksDB instance and no memtable flush per commit for them.
        stores.add(store(spec.metaStore(), StoreBackend.IN_MEMORY, true));
        stores.add(store(spec.pendingStore(), StoreBackend.IN_MEMORY, true));
        // Last arrival per input (wall clock) for the watermark idle timeout: a fresh incarnation of the task starts
        // with both inputs active, as Flink's idleness, so it is not changelogged.
        stores.add(store(spec.activityStore(), StoreBackend.IN_MEMORY, false));
        // The task's live watermarks, shared by both side processors (see JoinCore#readMeta).
        stores.add(new TaskLocalStore.Builder<>(spec.taskStateStore(), JoinTaskState::new));

        KStream<K, Object> leftOut = l.process(
                new JoinSideProcessor.Supplier<>(true, spec, joiner, spec.leftEventTime(), stores),
                Named.as(spec.name() + "-left-join"));
        KStream<K, Object> rightOut = r.process(
                new JoinSideProcessor.Supplier<>(false, spec, joiner, spec.rightEventTime(), stores),
                Named.as(spec.name() + "-right-join"));
        KStream<K, Object> merged = leftOut.merge(rightOut, Named.as(spec.name() + "-merge"));
        if (spec.lateTopic() == null) {
            return (KStream<K, VR>) (KStream<K, ?>) merged;
        }
        merged.filter((k, v) -> v instanceof LateRecord, Named.as(spec.name() + "-late-filter"))
                .mapValues(v -> ((LateRecord) v).value(), Named.as(spec.name() + "-late-bytes"))
                .to(
                        spec.lateTopic(),
                        Produced.with(spec.keySerde(), Serdes.ByteArray()).withName(spec.name() + "-late-sink"));
        return merged.filterNot((k, v) -> v instanceof LateRecord, Named.as(spec.name() + "-output"))
                .mapValues(v -> (VR) v, Named.as(spec.name() + "-output-cast"));
    }

    private static StoreBuilder<KeyValueStore<Bytes, byte[]>> store(String name, StoreBackend backend, boolean logged) {
        KeyValueBytesStoreSupplier supplier = backend == StoreBackend.IN_MEMORY
                ? Stores.inMemoryKeyValueStore(name)
                : Stores.persistentKeyValueStore(name);
        StoreBuilder<KeyValueStore<Bytes, byte[]>> b = Stores.keyValueStoreBuilder(
                        supplier, Serdes.Bytes(), Serdes.ByteArray())
                .withCachingDisabled();
        return logged ? b.withLoggingEnabled(java.util.Map.of()) : b.withLoggingDisabled();
    }

    /**
     * Whether Kafka Streams marked the stream as needing a repartition (its key was changed by selectKey/map), read
     * from {@code KStreamImpl#repartitionRequired}; the DSL's own joins repartition such streams automatically.
     */
    private static boolean repartitionRequired(KStream<?, ?> stream) {
        try {
            Field f = stream.getClass().getDeclaredField("repartitionRequired");
            f.setAccessible(true);
            return f.getBoolean(stream);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("cannot tell whether {} needs a repartition ({}); assuming it does not", stream, e.toString());
            return false;
        }
    }

    /**
     * Registers both inputs as a co-partition group, exactly as Kafka Streams' built-in joins do
     * ({@code AbstractStream#ensureCopartitionWith}): at startup the partition assignor then fails with a
     * {@code TopologyException} naming the topics and their partition counts when source topics differ, and sizes
     * repartition topics to match.
     */
    private static void ensureCopartitioned(KStream<?, ?> left, KStream<?, ?> right) {
        try {
            Class<?> abstractStream = Class.forName("org.apache.kafka.streams.kstream.internals.AbstractStream");
            Method m = abstractStream.getDeclaredMethod("ensureCopartitionWith", Collection.class);
            m.setAccessible(true);
            m.invoke(left, List.of(right));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "cannot register the inputs of the interval join as co-partitioned with"
                            + " this Kafka Streams version: " + e,
                    e);
        }
    }
}
