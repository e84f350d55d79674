package dev.rtmstreams.processor.internals;

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

    private final OperatorTask<K, I, O> task;

    /** @param spec the operator */
    public TransformWithStateProcessor(OperatorSpec<K, I, O> spec) {
        this.task = new OperatorTask<>(spec);
    }

    @Override
    public void init(ProcessorContext<K, O> context) {
        task.init(
                context,
                (key, value, timestamp, headers) -> context.forward(new Record<>(key, value, timestamp, headers)));
    }

    @Override
    public void process(Record<K, I> record) {
        task.process(record.key(), record.value(), record.timestamp(), record.headers());
    }

    @Override
    public void close() {
        task.close();
    }
}
