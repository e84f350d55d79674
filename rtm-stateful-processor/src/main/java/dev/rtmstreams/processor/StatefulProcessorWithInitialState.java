package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * A {@link StatefulProcessor} that also receives initial state, as in Spark's
 * {@code StatefulProcessorWithInitialState}. {@link #handleInitialState} is called once per initial-state record.
 * Connect the initial state with {@code initialStream.process(tws.initialStateProcessor())} (see
 * {@link TransformWithState#initialStateProcessor()}); Kafka Streams delivers the records of both inputs in timestamp
 * order, so initial-state records with earlier timestamps are handled before that key's input. In micro-batch mode
 * initial state is applied when it arrives, not buffered. The handle is in state INITIALIZED during the call.
 *
 * @param <K> grouping key
 * @param <I> input row type
 * @param <O> output row type
 * @param <S> initial state type
 */
@InterfaceStability.Stable
public abstract class StatefulProcessorWithInitialState<K, I, O, S> extends StatefulProcessor<K, I, O> {

    /**
     * Seeds the state of {@code key} from {@code initialState}. State variables and timers may be used as in
     * {@link #handleInputRows}. No output.
     */
    public abstract void handleInitialState(K key, S initialState, TimerValues timerValues);
}
