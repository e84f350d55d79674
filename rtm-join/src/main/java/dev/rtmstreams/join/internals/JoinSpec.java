package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.WatermarkPolicy;
import dev.rtmstreams.processor.EventTimeExtractor;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StoreBackend;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;

/**
 * Immutable, validated configuration of one interval join (built by {@code IntervalJoin.Builder}). Times in ms.
 */
public record JoinSpec<K, L, R>(
        String name,
        Serde<K> keySerde,
        Serde<L> leftSerde,
        Serde<R> rightSerde,
        EventTimeExtractor<K, L> leftEventTime,
        EventTimeExtractor<K, R> rightEventTime,
        long leftDelayMs,
        long rightDelayMs,
        long lowerMs,
        long upperMs,
        JoinType joinType,
        WatermarkPolicy policy,
        String lateTopic,
        StoreBackend backend,
        EvictionIndex evictionIndex,
        ExecutionMode executionMode,
        long evictionIntervalMs,
        int maxEvictionsPerPass,
        boolean repartitionIfKeyChanged,
        long idleTimeoutMs,
        boolean distinctRows,
        DistinctBy<K, L> leftDistinctBy,
        DistinctBy<K, R> rightDistinctBy) {

    /**
     * @return whether a row must be kept at least until the watermark passes its own event time, so that a later copy
     *     of it is late if it is not dropped as a copy ({@code distinctRows} or a side's {@code distinctBy})
     */
    public boolean keepsRowsUntilOwnTime() {
        return distinctRows || leftDistinctBy != null || rightDistinctBy != null;
    }

    /** @return changelogged store of the left rows */
    public String leftBufferStore() {
        return name + "-left-buffer";
    }

    /** @return changelogged store of the right rows */
    public String rightBufferStore() {
        return name + "-right-buffer";
    }

    /**
     * @return local (not changelogged) time index of the left rows, rebuilt from the buffer at task init; a store of
     *     the topology only with {@link EvictionIndex#STATE_STORE}
     */
    public String leftIndexStore() {
        return name + "-left-index";
    }

    /** @return the right side's {@link #leftIndexStore} */
    public String rightIndexStore() {
        return name + "-right-index";
    }

    /** @return changelogged store of watermarks and the sequence allocator */
    public String metaStore() {
        return name + "-meta";
    }

    /** @return changelogged store of inputs buffered for the next micro-batch */
    public String pendingStore() {
        return name + "-pending";
    }

    /**
     * @return in-memory, not changelogged store of each input's last arrival (wall-clock ms) in this task, shared by
     *     both side processors for the watermark idle timeout
     */
    public String activityStore() {
        return name + "-activity";
    }

    /** @return all store names: the index stores only with {@link EvictionIndex#STATE_STORE} */
    public List<String> storeNames() {
        List<String> names = new ArrayList<>(List.of(leftBufferStore(), rightBufferStore()));
        if (evictionIndex == EvictionIndex.STATE_STORE) {
            names.add(leftIndexStore());
            names.add(rightIndexStore());
        }
        names.addAll(List.of(metaStore(), pendingStore(), activityStore()));
        return List.copyOf(names);
    }
}
