package dev.rtmstreams.processor.spark;

import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessorHandle;
import dev.rtmstreams.processor.StatefulProcessorWithInitialState;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * A processor whose every phase runs an action on the handle, so that Spark's handle-level unit suites (which set
 * the handle state by hand) run through the phases that put our handle in that state: {@code init} (CREATED),
 * {@code handleInitialState} (INITIALIZED), {@code handleInputRows} (DATA_PROCESSED), {@code handleExpiredTimer}
 * and after {@code close} (CLOSED). The row handler gets the row and an output list.
 */
final class HandleProbe extends StatefulProcessorWithInitialState<String, String, String, String> {

    Consumer<StatefulProcessorHandle> onInit = h -> {};
    Consumer<StatefulProcessorHandle> onInitialState = h -> {};
    RowAction onRow = (h, row, out) -> {};
    TimerAction onTimer = (h, expiryMs, out) -> {};
    /** The last probe created (one task per test). */
    static volatile HandleProbe last;

    interface TimerAction {
        void run(StatefulProcessorHandle handle, long expiryMs, List<String> out);
    }

    interface RowAction {
        void run(StatefulProcessorHandle handle, String row, List<String> out);
    }

    HandleProbe() {
        last = this;
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        onInit.accept(getHandle());
    }

    @Override
    public void handleInitialState(String key, String initialState, TimerValues timerValues) {
        onInitialState.accept(getHandle());
    }

    @Override
    public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        rows.forEachRemaining(r -> onRow.run(getHandle(), r, out));
        return out.iterator();
    }

    @Override
    public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
        List<String> out = new ArrayList<>();
        onTimer.run(getHandle(), info.getExpiryTimeInMs(), out);
        return out.iterator();
    }
}
