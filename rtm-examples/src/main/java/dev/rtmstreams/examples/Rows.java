package dev.rtmstreams.examples;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Small record-level steps that need the Kafka record timestamp, which {@code KStream#map} does not see: Spark's Kafka
 * source exposes it as the {@code timestamp} column.
 */
public final class Rows {

    private Rows() {}

    /**
     * Re-keys each record by {@code (timestamp, value)} and keeps the original key as the value, so that a later
     * repartition groups by the page's {@code ["timestamp", "value"]} columns and the original row can be rebuilt.
     *
     * @return a key-changing processor (follow it with a repartition before a stateful operator)
     */
    public static ProcessorSupplier<String, String, TimestampValue, String> keyByTimestampAndValue() {
        return () -> new Processor<>() {
            private ProcessorContext<TimestampValue, String> context;

            @Override
            public void init(ProcessorContext<TimestampValue, String> context) {
                this.context = context;
            }

            @Override
            public void process(Record<String, String> record) {
                context.forward(record.withKey(new TimestampValue(record.timestamp(), record.value()))
                        .withValue(record.key()));
            }
        };
    }

    /**
     * Replaces each value with the record's timestamp: the {@code (key, source-timestamp)} input rows of the page's
     * {@code RTMStatefulProcessor}.
     *
     * @return a key-preserving processor
     */
    public static FixedKeyProcessorSupplier<String, String, Long> sourceTimestamp() {
        return () -> new FixedKeyProcessor<>() {
            private FixedKeyProcessorContext<String, Long> context;

            @Override
            public void init(FixedKeyProcessorContext<String, Long> context) {
                this.context = context;
            }

            @Override
            public void process(FixedKeyRecord<String, String> record) {
                context.forward(record.withValue(record.timestamp()));
            }
        };
    }
}
