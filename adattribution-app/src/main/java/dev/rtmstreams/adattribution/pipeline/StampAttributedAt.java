package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Sets {@code attributed_at} to the processing time at which the match is emitted, read from
 * Kafka Streams' wall clock ({@code currentSystemTimeMs}, which TopologyTestDriver controls).
 */
final class StampAttributedAt extends ContextualFixedKeyProcessor<String, AttributedClick, AttributedClick> {
    @Override
    public void process(FixedKeyRecord<String, AttributedClick> record) {
        // The value was built by the join for this output alone: set the field in place instead of copying it.
        record.value().setAttributedAt(Times.wire(context().currentSystemTimeMs()));
        context().forward(record);
    }
}
