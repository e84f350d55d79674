package dev.rtmstreams.processor.internals;

import org.apache.kafka.common.header.Headers;

/**
 * Where an {@link OperatorRuntime} sends output records: the Kafka Streams context of the operator's processor,
 * either a key-changing {@code Processor} or a {@code FixedKeyProcessor} (whose output key is always the grouping
 * key of the call that produced it, so it is key-preserving).
 */
interface Output<K, O> {

    /**
     * @param key the grouping key of the call that produced the value
     * @param value an output row
     * @param timestamp the output record timestamp
     * @param headers headers to copy onto the output record, or null for none
     */
    void forward(K key, O value, long timestamp, Headers headers);
}
