package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.spi.TaskShared;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * The per-task {@link OperatorRuntime}s of one operator, shared by its main processor and its initial-state
 * processor (both run in the same task because they share the operator's store): the shell's task-shared object
 * ({@link TaskShared}, as the interval join shares its task state), typed for the runtime. The first processor of a
 * task incarnation creates and initializes the runtime; the last one to close closes it. Accepts the contexts of
 * key-changing and fixed-key processors alike.
 */
public final class RuntimeRegistry {

    private final TaskShared<OperatorRuntime<?, ?, ?>> runtimes = new TaskShared<>(OperatorRuntime::close);

    /** A failed initialization leaves no half-initialized runtime for the task's next attempt. */
    @SuppressWarnings("unchecked")
    <K, I, O> OperatorRuntime<K, I, O> acquire(OperatorSpec<K, I, O> spec, ProcessingContext context) {
        return (OperatorRuntime<K, I, O>) runtimes.acquire(context, () -> {
            OperatorRuntime<K, I, O> rt = new OperatorRuntime<>(spec);
            rt.initOnce(context);
            return rt;
        });
    }

    void release(ProcessingContext context) {
        runtimes.release(context);
    }
}
