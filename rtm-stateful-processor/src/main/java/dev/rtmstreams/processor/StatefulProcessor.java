package dev.rtmstreams.processor;

import java.util.Collections;
import java.util.Iterator;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * User logic of a {@code transformWithState} operator, with Spark's names and contracts so that a Spark
 * {@code StatefulProcessor} ports mechanically.
 *
 * <pre>{@code
 * class CountProcessor extends StatefulProcessor<String, String, Long> {
 *     private ValueState<Long> count;
 *
 *     public void init(OutputMode outputMode, TimeMode timeMode) {
 *         count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.of(Duration.ofMinutes(10)));
 *     }
 *
 *     public Iterator<Long> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
 *         long n = count.getOption().orElse(0L);
 *         while (rows.hasNext()) { rows.next(); n++; }
 *         count.update(n);
 *         return List.of(n).iterator();
 *     }
 * }
 * KStream<String, Long> counts = input.process(TransformWithState.of(CountProcessor::new, TimeMode.PROCESSING_TIME));
 * }</pre>
 *
 * <p>Execution contracts: in real-time mode (the default) {@link #handleInputRows} is called once per record with a
 * single-row iterator as soon as the record arrives; in micro-batch mode it is called once per key per batch with
 * all of that key's rows in arrival order. Write processors that are correct under both (see the mode-contract
 * checker of rtm-topology).
 *
 * <p>One instance serves one Kafka Streams task; instances are created by the supplier given to
 * {@code TransformWithState}. Calls on one instance are never concurrent.
 *
 * @param <K> grouping key (the record key)
 * @param <I> input row type (the record value)
 * @param <O> output row type (forwarded with the grouping key as record key)
 */
@InterfaceStability.Stable
public abstract class StatefulProcessor<K, I, O> {

    private StatefulProcessorHandle handle;

    /**
     * Called once per task before any other method. Declare state variables here (and only here).
     * Timers may not be registered here.
     */
    public abstract void init(OutputMode outputMode, TimeMode timeMode);

    /**
     * Handles the rows of one grouping key.
     *
     * @param key the grouping key, never null
     * @param rows the rows, at least one, in arrival order; valid only during the call
     * @param timerValues current processing time and watermark
     * @return output rows, forwarded downstream at once with {@code key} as record key; never null
     */
    public abstract Iterator<O> handleInputRows(K key, Iterator<I> rows, TimerValues timerValues);

    /**
     * Handles one expired timer of {@code key}. Called once per timer; the timer is removed before the call.
     * Default: no output.
     *
     * @return output rows, never null
     */
    public Iterator<O> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo expiredTimerInfo) {
        return Collections.emptyIterator();
    }

    /** Called once when the task closes. Default: nothing. */
    public void close() {}

    /**
     * @return the handle to state, timers and query info
     * @throws RtmException with code {@code STATE_STORE_HANDLE_NOT_INITIALIZED} when called before the runtime has
     *     set the handle (e.g. on a processor not run by {@code TransformWithState})
     */
    public final StatefulProcessorHandle getHandle() {
        if (handle == null) {
            throw new RtmException(
                    "STATE_STORE_HANDLE_NOT_INITIALIZED",
                    java.util.Map.of(),
                    "The StatefulProcessorHandle is not initialized: call getHandle() from init() or later, once the"
                            + " processor runs inside TransformWithState");
        }
        return handle;
    }

    /**
     * Sets the handle. Called by the runtime once, before {@link #init}; not for user code.
     *
     * @throws IllegalStateException when a handle is already set
     */
    public final void setHandle(StatefulProcessorHandle handle) {
        if (this.handle != null) {
            throw new IllegalStateException(
                    "the StatefulProcessorHandle is already set; a processor instance serves one task");
        }
        this.handle = handle;
    }
}
