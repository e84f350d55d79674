package dev.rtmstreams.examples;

import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The page's {@code RTMStatefulProcessor}, ported line by line: counts the records seen for each key with state
 * variables that have a TTL of 30 seconds. It redundantly maintains the count with a value, a list and a map state to
 * put load on the state cleanup (in practice one value state would do). The input row is the source timestamp of
 * the record (the page's {@code (key, source-timestamp)} tuple, the key being the grouping key); the output is
 * {@link KeyCount} {@code (key, count, source-timestamp)}, one per input row, so it is the same under the real-time
 * and the micro-batch contract.
 */
public final class RtmStatefulProcessor extends StatefulProcessor<String, Long, KeyCount> {

    /** The TTL of every state variable: 30 seconds, as on the page. */
    public static final Duration TTL = Duration.ofSeconds(30);

    private ValueState<Long> valueState;
    private MapState<Long, String> mapState;
    private ListState<String> listState;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        TtlConfig ttl = TtlConfig.of(TTL);
        valueState = getHandle().getValueState("value", Serdes.Long(), ttl);
        mapState = getHandle().getMapState("map", Serdes.Long(), Serdes.String(), ttl);
        listState = getHandle().getListState("list", Serdes.String(), ttl);
    }

    @Override
    public Iterator<KeyCount> handleInputRows(String key, Iterator<Long> rows, TimerValues timerValues) {
        List<KeyCount> out = new ArrayList<>();
        while (rows.hasNext()) {
            long sourceTimestamp = rows.next();
            // the page: old_value = value.get(); if old_value is None: old_value = 0 (getOption works whichever way
            // get() reports absence)
            long old = valueState.getOption().orElse(0L);
            valueState.update(old + 1);
            mapState.updateValue(old, key);
            listState.appendValue(key);
            out.add(new KeyCount(key, old + 1, sourceTimestamp));
        }
        return out.iterator();
    }
}
