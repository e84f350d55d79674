package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.processor.spi.OperatorSensors;
import dev.rtmstreams.processor.spi.TimeQueue;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * The metrics of one join side processor: per side, sensors tagged {@code thread-id, task-id, rtm-join-id, side} and
 * named {@code rtm-join.<thread>.<task>.<join>.<side>.<sensor>}, shared with the task's other side processor (a
 * sensor still registered under a name is reused, not replaced). The drop counters are {@link JoinDrops}'; the gauge of
 * the heap time index is here.
 */
final class JoinSensors {

    /** Per side (0 left, 1 right). */
    private final OperatorSensors[] sides;
    /** Whether the time indexes are on the heap. */
    private final boolean heapIndex;

    JoinSensors(JoinSpec<?, ?, ?> spec, ProcessorContext<?, ?> context) {
        this.heapIndex = spec.evictionIndex() == EvictionIndex.HEAP;
        this.sides = new OperatorSensors[] {sideSensors(spec, context, "left"), sideSensors(spec, context, "right")};
    }

    private static OperatorSensors sideSensors(JoinSpec<?, ?, ?> spec, ProcessorContext<?, ?> context, String side) {
        String thread = Thread.currentThread().getName();
        String task = context.taskId().toString();
        return new OperatorSensors(
                context.metrics(),
                String.join(".", "rtm-join", thread, task, spec.name(), side) + ".",
                IntervalJoin.METRICS_GROUP,
                OperatorSensors.taskTags(thread, task, IntervalJoin.JOIN_NAME_TAG, spec.name(), "side", side),
                OperatorSensors.Registration.REUSE_EXISTING);
    }

    /** @return side {@code s}'s sensors (0 left, 1 right) */
    OperatorSensors side(int s) {
        return sides[s];
    }

    /** Registers the gauge {@value IntervalJoin#TIME_INDEX_BYTES} of a side whose time index is on the heap. */
    void gaugeTimeIndex(int s, TimeQueue index) {
        if (heapIndex) {
            sides[s].gauge(
                    "time-index-bytes",
                    IntervalJoin.TIME_INDEX_BYTES,
                    "Heap bytes held by the interval join's time index of this side's buffered rows",
                    index::retainedBytes);
        }
    }

    /** Removes the sensors. */
    void close() {
        for (OperatorSensors s : sides) {
            s.close();
        }
    }
}
