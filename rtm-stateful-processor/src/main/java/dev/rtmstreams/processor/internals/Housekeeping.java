package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.TimeMode;
import java.util.List;

/**
 * The end-of-pass work of one operator's {@link OperatorRuntime}, at each real-time punctuation, after each
 * real-time record (timers) and at the end of each micro-batch: fires the due timers of the operator's time mode and
 * evicts expired TTL state. Not thread-safe (a task is single-threaded).
 */
final class Housekeeping {

    private final OperatorRuntime<?, ?, ?> runtime;
    private final TimeMode timeMode;
    private final WatermarkTracker watermark;
    private final TimerService timers;
    private final TtlCleaner ttl;
    /**
     * Event time: the watermark of the last pass that fired timers (Long.MIN_VALUE: none since start). A micro-batch
     * without data fires timers only when the watermark moved past it (see {@link MicroBatchContract#run}).
     */
    private long lastTimerPassWatermark = Long.MIN_VALUE;

    /**
     * @param runtime the operator's runtime, which fires each timer and holds the handle and the metrics
     * @param ttl the operator's TTL cleanup
     */
    Housekeeping(OperatorRuntime<?, ?, ?> runtime, TtlCleaner ttl) {
        this.runtime = runtime;
        this.timeMode = runtime.timeMode;
        this.watermark = runtime.watermark;
        this.timers = runtime.timers;
        this.ttl = ttl;
    }

    /** @return whether the watermark moved since the last pass that fired timers (or there is none yet) */
    boolean watermarkMovedSinceLastTimerPass() {
        return !watermark.has()
                || lastTimerPassWatermark == Long.MIN_VALUE
                || watermark.value() > lastTimerPassWatermark;
    }

    /**
     * Fires the due timers of the operator's time mode: those at or below the watermark (event time; none before
     * the first watermark) or at or below now (processing time), in time order, each once (Spark 4.2's
     * {@code TimerStateImpl.getExpiredTimers} returns the timers whose time is at most the batch timestamp or the
     * eviction watermark, as the differential test against Spark shows). As in Spark
     * ({@code TransformWithStateExec#handleTimerRows}) a timer is deleted after {@code handleExpiredTimer} returned
     * and its output was forwarded, so {@code listTimers()} inside the handler still lists it. A due timer that an
     * earlier handler of this pass deleted does not fire. Timers registered while firing fire in the next pass.
     *
     * @param now processing time
     */
    void fireDueTimers(long now) {
        long upTo;
        if (timeMode == TimeMode.EVENT_TIME) {
            if (!watermark.has()) {
                return;
            }
            upTo = watermark.value();
            lastTimerPassWatermark = upTo;
        } else if (timeMode == TimeMode.PROCESSING_TIME) {
            upTo = now;
        } else {
            return;
        }
        // TimerService#due takes an exclusive bound
        List<TimerService.Timer> due = timers.due(upTo == Long.MAX_VALUE ? upTo : upTo + 1);
        if (due.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        for (TimerService.Timer timer : due) {
            if (timers.exists(timer.key(), timer.time())) {
                runtime.fireTimer(timer, now);
            }
        }
        timers.passDone(true);
        runtime.metrics.timerProcessingMs.record((System.nanoTime() - start) / 1e6);
    }

    /**
     * Evicts expired TTL state, a bounded batch per pass, when some state variable has a TTL.
     *
     * @param now processing time
     */
    void cleanupTtl(long now) {
        HandleImpl handle = runtime.handle;
        if (!handle.anyTtl) {
            return;
        }
        int removed = ttl.cleanup(now, handle.variables);
        if (removed > 0) {
            runtime.metrics.ttlExpiredRemoved.record(removed);
        }
    }
}
