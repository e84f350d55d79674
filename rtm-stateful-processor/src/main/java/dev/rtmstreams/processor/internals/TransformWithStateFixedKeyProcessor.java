package dev.rtmstreams.processor.internals;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.InternalFixedKeyRecordFactory;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The key-preserving ({@code KStream#processValues}) variant of {@link TransformWithStateProcessor}: the same
 * runtime, stores and behaviour. Every output record carries the grouping key of the call that produced it, which is
 * the input record's key, so Kafka Streams need not repartition downstream.
 *
 * <p>Outputs of timers and micro-batches have no input record to derive a {@link FixedKeyRecord} from; they are
 * built with Kafka Streams' {@link InternalFixedKeyRecordFactory} (public, in the {@code processor.api} package),
 * which is what {@code FixedKeyProcessorContext#forward} turns back into a plain record anyway.
 */
public final class TransformWithStateFixedKeyProcessor<K, I, O> implements FixedKeyProcessor<K, I, O> {

    private final OperatorTask<K, I, O> task;

    /** @param spec the operator */
    public TransformWithStateFixedKeyProcessor(OperatorSpec<K, I, O> spec) {
        this.task = new OperatorTask<>(spec);
    }

    @Override
    public void init(FixedKeyProcessorContext<K, O> context) {
        task.init(
                context,
                (key, value, timestamp, headers) -> context.forward(
                        InternalFixedKeyRecordFactory.create(new Record<>(key, value, timestamp, headers))));
    }

    @Override
    public void process(FixedKeyRecord<K, I> record) {
        task.process(record.key(), record.value(), record.timestamp(), record.headers());
    }

    @Override
    public void close() {
        task.close();
    }
}
