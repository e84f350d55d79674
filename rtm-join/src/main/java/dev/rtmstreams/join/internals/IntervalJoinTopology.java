package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.join.ValueJoiner3;
import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.spi.OperatorStores;
import dev.rtmstreams.processor.spi.TaskShared;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.StoreBuilder;

/** Wires an interval join into a DSL topology: two side processors sharing four stores, merged into one stream. */
public final class IntervalJoinTopology {

    /**
     * How much longer than a row can be needed (the join's horizon) its changelog record is kept: one day, the default
     * of Kafka Streams' {@code windowstore.changelog.additional.retention.ms} for its own windowed join stores.
     */
    static final long CHANGELOG_ADDITIONAL_RETENTION_MS = 24L * 60 * 60 * 1000;

    private IntervalJoinTopology() {}

    /**
     * Topic configs of a buffer store's changelog. Evicted rows get no tombstone, so compaction removes nothing but
     * the eviction marker's older versions: records are deleted by time ({@code compact,delete}), like those of Kafka
     * Streams' windowed stores. Retention counts from when a row was written ({@code LogAppendTime}, whatever the
     * input records' timestamps): the join's horizon (both watermark delays plus the bounds' width, the longest a
     * row stays buffered while the watermark advances with the wall clock) plus
     * {@link #CHANGELOG_ADDITIONAL_RETENTION_MS}. The bound this sets: a row that stays buffered longer than that
     * (a watermark stalled for over a day, e.g. an input without data and no idle timeout) is not restored after a
     * restart.
     */
    static Map<String, String> bufferChangelogConfig(JoinSpec<?, ?, ?> spec) {
        long width = spec.lowerMs() == Long.MIN_VALUE || spec.upperMs() == Long.MAX_VALUE
                ? Long.MAX_VALUE
                : Codec.saturatedAdd(spec.upperMs(), -spec.lowerMs());
        long retention = Codec.saturatedAdd(
                Codec.saturatedAdd(Codec.saturatedAdd(spec.leftDelayMs(), spec.rightDelayMs()), width),
                CHANGELOG_ADDITIONAL_RETENTION_MS);
        return Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG,
                TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG,
                Long.toString(retention == Long.MAX_VALUE ? -1 : retention),
                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                "LogAppendTime");
    }

    /**
     * Adds the join of {@code left} and {@code right} and returns the joined stream.
     */
    @SuppressWarnings("unchecked")
    public static <K, L, R, VR> KStream<K, VR> build(
            JoinSpec<K, L, R> spec, KStream<K, L> left, KStream<K, R> right, ValueJoiner3<K, L, R, VR> joiner) {
        KStream<K, L> l = left;
        KStream<K, R> r = right;
        if (spec.repartitionIfKeyChanged() && KafkaStreamsInternals.repartitionRequired(l)) {
            l = l.repartition(Repartitioned.<K, L>as(spec.name() + "-left")
                    .withKeySerde(spec.keySerde())
                    .withValueSerde(spec.leftSerde()));
        }
        if (spec.repartitionIfKeyChanged() && KafkaStreamsInternals.repartitionRequired(r)) {
            r = r.repartition(Repartitioned.<K, R>as(spec.name() + "-right")
                    .withKeySerde(spec.keySerde())
                    .withValueSerde(spec.rightSerde()));
        }
        KafkaStreamsInternals.ensureCopartitioned(l, r);

        Set<StoreBuilder<?>> stores = new LinkedHashSet<>();
        // Rows are evicted without changelog tombstones (SideBuffer#advanceEvictionMarker): the changelog keeps them
        // for a bounded time instead, and a restoring or standby copy deletes them itself (BufferRestorer).
        // With segments (rows keyed by time segment first) the buffers use level compaction (EvictionIndex.SEGMENTS).
        Map<String, String> bufferChangelog = bufferChangelogConfig(spec);
        boolean segments = spec.evictionIndex() == EvictionIndex.SEGMENTS;
        stores.add(OperatorStores.keyValue(
                spec.leftBufferStore(), spec.backend(), bufferChangelog, BufferRestorer::new, segments));
        stores.add(OperatorStores.keyValue(
                spec.rightBufferStore(), spec.backend(), bufferChangelog, BufferRestorer::new, segments));
        // Each side's time index (the shell's TimeQueue), for eviction: local only, in a store of its own by default
        // (EvictionIndex.STATE_STORE), on the heap with EvictionIndex.HEAP, none with EvictionIndex.SEGMENTS, which
        // drops whole time segments as Kafka Streams' own window store does; a row-level index changelogged beside
        // each row would double the changelog writes per input.
        if (spec.evictionIndex() == EvictionIndex.STATE_STORE) {
            stores.add(OperatorStores.keyValue(spec.leftIndexStore(), spec.backend(), false));
            stores.add(OperatorStores.keyValue(spec.rightIndexStore(), spec.backend(), false));
        }
        // Watermarks/sequence (one key, read and written per record) and the micro-batch buffer (one interval of
        // input) are small: in memory, changelogged - no RocksDB instance and no memtable flush per commit for them.
        stores.add(OperatorStores.keyValue(spec.metaStore(), StoreBackend.IN_MEMORY, true));
        stores.add(OperatorStores.keyValue(spec.pendingStore(), StoreBackend.IN_MEMORY, true));
        // Last arrival per input (wall clock) for the watermark idle timeout: a fresh incarnation of the task starts
        // with both inputs active, as Flink's idleness, so it is not changelogged.
        stores.add(OperatorStores.keyValue(spec.activityStore(), StoreBackend.IN_MEMORY, false));
        // The task's live watermarks, filters and pending inputs, shared by both side processors: the shell's
        // task-shared object (one per task incarnation, dropped when both processors closed), not a store.
        TaskShared<JoinTaskState> taskState = new TaskShared<>(state -> {});

        KStream<K, Object> leftOut = l.process(
                new JoinSideProcessor.Supplier<>(true, spec, joiner, spec.leftEventTime(), stores, taskState),
                Named.as(spec.name() + "-left-join"));
        KStream<K, Object> rightOut = r.process(
                new JoinSideProcessor.Supplier<>(false, spec, joiner, spec.rightEventTime(), stores, taskState),
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
}
