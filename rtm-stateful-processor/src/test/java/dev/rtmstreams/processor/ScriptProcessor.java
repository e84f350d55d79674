package dev.rtmstreams.processor;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A processor whose behaviour tests give as lambdas: {@code init} declares state, each input row is a command the
 * row handler interprets; output is what the handlers add to the output list.
 */
class ScriptProcessor extends StatefulProcessor<String, String, String> {

    interface RowHandler {
        void handle(ScriptProcessor p, String key, String row, TimerValues tv, List<String> out);
    }

    interface TimerHandler {
        void handle(ScriptProcessor p, String key, TimerValues tv, long expiry, List<String> out);
    }

    final Consumer<ScriptProcessor> init;
    final RowHandler rows;
    final TimerHandler timers;
    /** Every call: "rows:key:[r1, r2]" or "timer:key:time" (shared by all instances of one test). */
    final List<String> calls;

    ValueState<String> value;
    ListState<String> list;
    MapState<String, String> map;

    ScriptProcessor(Consumer<ScriptProcessor> init, RowHandler rows, TimerHandler timers, List<String> calls) {
        this.init = init;
        this.rows = rows;
        this.timers = timers;
        this.calls = calls;
    }

    static Supplier<ScriptProcessor> supplier(
            Consumer<ScriptProcessor> init, RowHandler rows, TimerHandler timers, List<String> calls) {
        return () -> new ScriptProcessor(init, rows, timers, calls);
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        if (init != null) {
            init.accept(this);
        }
    }

    @Override
    public Iterator<String> handleInputRows(String key, Iterator<String> inputRows, TimerValues timerValues) {
        List<String> all = new ArrayList<>();
        inputRows.forEachRemaining(all::add);
        if (calls != null) {
            calls.add("rows:" + key + ":" + all + "@" + timerValues.getCurrentProcessingTimeInMs());
        }
        List<String> out = new ArrayList<>();
        for (String r : all) {
            if (rows != null) {
                rows.handle(this, key, r, timerValues, out);
            }
        }
        return out.iterator();
    }

    @Override
    public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
        if (calls != null) {
            calls.add("timer:" + key + ":" + info.getExpiryTimeInMs());
        }
        List<String> out = new ArrayList<>();
        if (timers != null) {
            timers.handle(this, key, timerValues, info.getExpiryTimeInMs(), out);
        }
        return out.iterator();
    }
}
