package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ExecutionMode;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * The per-task body shared by {@link TransformWithStateProcessor} and {@link TransformWithStateFixedKeyProcessor}:
 * acquires the task's {@link OperatorRuntime}, schedules its wall-clock punctuator through the shell's settings
 * ({@code OperatorSettings#schedule}: timer resolution in real-time mode, micro-batch interval in micro-batch mode), routes each input record to the runtime and releases it on
 * close. The two processors differ only in how they forward output records ({@link Output}).
 */
final class OperatorTask<K, I, O> {

    private final OperatorSpec<K, I, O> spec;
    private ProcessingContext context;
    private OperatorRuntime<K, I, O> runtime;
    private boolean microBatch;

    OperatorTask(OperatorSpec<K, I, O> spec) {
        this.spec = spec;
    }

    /** Acquires the runtime for the context's task, sets its output and schedules its punctuator. */
    void init(ProcessingContext context, Output<K, O> output) {
        this.context = context;
        this.runtime = spec.registry().acquire(spec, context);
        runtime.setOutput(context, output);
        runtime.config.shell().schedule(context, runtime::punctuateRealTime, runtime::runMicroBatch);
        microBatch = runtime.config.executionMode() == ExecutionMode.MICRO_BATCH;
    }

    /** Buffers the record in micro-batch mode, processes it at once in real-time mode. */
    void process(K key, I value, long timestamp, Headers headers) {
        if (microBatch) {
            runtime.bufferRecord(key, value, timestamp, headers);
        } else {
            runtime.processRealTime(key, value, timestamp, headers);
        }
    }

    /** Releases the task's runtime if {@link #init} acquired one. */
    void close() {
        if (runtime != null) {
            spec.registry().release(context);
        }
    }
}
