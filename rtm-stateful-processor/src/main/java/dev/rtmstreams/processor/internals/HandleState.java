package dev.rtmstreams.processor.internals;

/** Lifecycle of a {@code StatefulProcessorHandle}, as in Spark's {@code StatefulProcessorHandleState}. */
enum HandleState {
    /** Handle created; {@code init} is running: state variables may be declared. */
    CREATED,
    /** {@code init} finished; also the state while {@code handleInitialState} runs. */
    INITIALIZED,
    /** {@code handleInputRows} is running. */
    DATA_PROCESSED,
    /** {@code handleExpiredTimer} is running. */
    TIMER_PROCESSED,
    /** The task closed: nothing may be called. */
    CLOSED
}
