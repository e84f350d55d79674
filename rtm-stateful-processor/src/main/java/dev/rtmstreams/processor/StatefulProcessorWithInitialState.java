package dev.rtmstreams.processor;

/**
 * A {@link StatefulProcessor} that also receives initial state, as in Spark's
 * {@code StatefulProcessorWithInitialState}. {@link #handleInitialState} is called once per key of the initial
 * state, before the input rows of that key are handled.
 *
 * @param <K> grouping key
 * @param <I> input row type
 * @param <O> output row type
 * @param <S> initial state type
 */
public abstract class StatefulProcessorWithInitialState<K, I, O, S> extends StatefulProcessor<K, I, O> {

    /**
     * Seeds the state of {@code key} from {@code initialState}. State variables and timers may be used as in
     * {@link #handleInputRows}. No output.
     */
    public abstract void handleInitialState(K key, S initialState, TimerValues timerValues);
}
