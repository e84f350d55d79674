package dev.rtmstreams.processor.internals;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Feeds initial-state records to {@code StatefulProcessorWithInitialState#handleInitialState} of the same task's
 * processor instance (shared through the operator's {@link RuntimeRegistry}). Forwards nothing.
 */
public final class InitialStateProcessor<K, S> implements Processor<K, S, Void, Void> {

    private final OperatorSpec<K, ?, ?> spec;
    private ProcessorContext<Void, Void> context;
    private OperatorRuntime<K, ?, ?> runtime;

    /** @param spec the operator whose processor receives the initial state */
    public InitialStateProcessor(OperatorSpec<K, ?, ?> spec) {
        this.spec = spec;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.runtime = spec.registry().acquire(spec, context);
    }

    @Override
    public void process(Record<K, S> record) {
        runtime.handleInitialState(record.key(), record.value(), context.currentSystemTimeMs());
    }

    @Override
    public void close() {
        if (runtime != null) {
            spec.registry().release(context);
        }
    }
}
