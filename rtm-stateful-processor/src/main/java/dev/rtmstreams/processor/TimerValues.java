package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Time as seen by one call of a {@link StatefulProcessor}, as in Spark's {@code TimerValues}.
 * Values are constant within one call.
 */
@InterfaceStability.Stable
public interface TimerValues {

    /**
     * @return the current processing time in epoch milliseconds (from Kafka Streams' wall clock, which
     *     {@code TopologyTestDriver#advanceWallClockTime} moves in tests)
     */
    long getCurrentProcessingTimeInMs();

    /**
     * @return the current event-time watermark in epoch milliseconds; {@code 0} before the first watermark and
     *     always {@code 0} unless the processor runs in {@link TimeMode#EVENT_TIME}
     */
    long getCurrentWatermarkInMs();
}
