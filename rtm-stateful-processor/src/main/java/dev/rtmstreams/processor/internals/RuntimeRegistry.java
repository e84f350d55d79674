package dev.rtmstreams.processor.internals;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * The per-task {@link OperatorRuntime}s of one operator, shared by its main processor and its initial-state
 * processor (both run in the same task because they share the operator's store). Reference counted. Accepts the
 * contexts of key-changing and fixed-key processors alike.
 */
public final class RuntimeRegistry {

    private final Map<String, Entry> runtimes = new HashMap<>();

    private static final class Entry {
        final OperatorRuntime<?, ?, ?> runtime;
        int refs;

        Entry(OperatorRuntime<?, ?, ?> runtime) {
            this.runtime = runtime;
        }
    }

    /** Task id plus state directory, so that several KafkaStreams instances in one JVM do not share runtimes. */
    private static String id(ProcessingContext context) {
        String dir;
        try {
            dir = context.stateDir().getAbsolutePath();
        } catch (RuntimeException e) {
            dir = "-"; // e.g. MockProcessorContext without a state directory
        }
        return context.taskId() + "@" + dir;
    }

    @SuppressWarnings("unchecked")
    synchronized <K, I, O> OperatorRuntime<K, I, O> acquire(OperatorSpec<K, I, O> spec, ProcessingContext context) {
        String id = id(context);
        Entry e = runtimes.computeIfAbsent(id, k -> new Entry(new OperatorRuntime<>(spec)));
        OperatorRuntime<K, I, O> rt = (OperatorRuntime<K, I, O>) e.runtime;
        try {
            rt.initOnce(context);
        } catch (RuntimeException ex) {
            // a failed init must not leave a half-initialized runtime for the task's next attempt
            if (e.refs == 0) {
                runtimes.remove(id);
            }
            throw ex;
        }
        e.refs++;
        return rt;
    }

    synchronized void release(ProcessingContext context) {
        String id = id(context);
        Entry e = runtimes.get(id);
        if (e != null && --e.refs == 0) {
            runtimes.remove(id);
            e.runtime.close();
        }
    }
}
