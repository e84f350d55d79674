package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ExecutionMode;
import java.time.Duration;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The Kafka Streams {@link Processor} of a {@code TransformWithState} operator: one per task. Delegates to the
 * task's {@link OperatorRuntime} and schedules its wall-clock punctuator (timer resolution in real-time mode,
 * micro-batch interval in micro-batch mode). Kafka Streams treats its output as key-changing; see
 * {@link TransformWithStateFixedKeyProcessor} for the key-preserving variant.
 */
public final class TransformWithStateProcessor<K, I, O> implements Processor<K, I, K, O> {

    private final OperatorSpec<K, I, O> spec;
    private ProcessorContext<K, O> context;
    private OperatorRuntime<K, I, O> runtime;
    private boolean microBatch;

    /** @param spec the operator */
    public TransformWithStateProcessor(OperatorSpec<K, I, O> spec) {
        this.spec = spec;
    }

    @Override
    public void init(ProcessorContext<K, O> context) {
        this.context = context;
        this.runtime = spec.registry().acquire(spec, context);
        runtime.setOutput(context, (key, value, timestamp, headers) ->
            context.forward(new Record<>(key, value, timestamp, headers)));
        microBatch = schedulePunctuator(runtime, context);
    }

    /** Schedules the runtime's wall-clock punctuator. @return true in micro-batch mode */
    static boolean schedulePunctuator(OperatorRuntime<?, ?, ?> runtime,
                                      org.apache.kafka.streams.processor.api.ProcessingContext context) {
        if (runtime.executionMode == ExecutionMode.MICRO_BATCH) {
            context.schedule(Duration.ofMillis(runtime.microBatchIntervalMs), PunctuationType.WALL_CLOCK_TIME,
                runtime::runMicroBatch);
            return true;
        }
        context.schedule(Duration.ofMillis(runtime.timerResolutionMs), PunctuationType.WALL_CLOCK_TIME,
            runtime::punctuateRealTime);
        return false;
    }

    @Override
    public void process(Record<K, I> record) {
        if (microBatch) {
            runtime.bufferRecord(record.key(), record.value(), record.timestamp(), record.headers());
        } else {
            runtime.processRealTime(record.key(), record.value(), record.timestamp(), record.headers());
        }
    }

    @Override
    public void close() {
        if (runtime != null) {
            spec.registry().release(context);
        }
    }
}
