package dev.rtmstreams.examples;

import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.ValueState;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;

/**
 * {@code groupBy(...).count()} in update output mode: keeps the count of each grouping key in a value state and emits
 * the key's new count once per call. Under the real-time contract that is once per row (1, 2, 3...); under the
 * micro-batch contract once per key per batch with the count at the end of the batch (Spark's update mode). Both
 * agree on the latest count of every key (the mode-contract checker's {@code LATEST_PER_BATCH} equivalence).
 *
 * @param <K> grouping key
 * @param <I> input row (ignored, only counted)
 */
public final class CountProcessor<K, I> extends StatefulProcessor<K, I, Long> {

    private ValueState<Long> count;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Serdes.Long());
    }

    @Override
    public Iterator<Long> handleInputRows(K key, Iterator<I> rows, TimerValues timerValues) {
        long n = count.getOption().orElse(0L);
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        count.update(n);
        return List.of(n).iterator();
    }
}
