package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Extracts the event time of an input row, used for the watermark in {@link TimeMode#EVENT_TIME}.
 * The default extractor of {@link TransformWithState} returns the record timestamp.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 */
@FunctionalInterface
@InterfaceStability.Evolving
public interface EventTimeExtractor<K, I> {

    /**
     * @param key the record key (grouping key), may be null only if the stream allows null keys
     * @param value the record value
     * @param recordTimestamp the Kafka record timestamp in epoch milliseconds
     * @return the event time in epoch milliseconds
     */
    long extract(K key, I value, long recordTimestamp);
}
