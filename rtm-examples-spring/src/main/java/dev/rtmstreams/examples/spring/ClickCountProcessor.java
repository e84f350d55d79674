package dev.rtmstreams.examples.spring;

import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;

/** Counts the clicks of each key (state kept for a day after the key's last click); emits the count at every click. */
public final class ClickCountProcessor extends StatefulProcessor<String, String, Long> {

    private ValueState<Long> count;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.of(Duration.ofDays(1)));
    }

    @Override
    public Iterator<Long> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
        long n = count.getOption().orElse(0L);
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        count.update(n);
        return List.of(n).iterator();
    }
}
