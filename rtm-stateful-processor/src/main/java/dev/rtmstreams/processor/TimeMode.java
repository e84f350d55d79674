package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The notion of time a {@link StatefulProcessor} runs with, as in Spark's {@code TimeMode}.
 *
 * <ul>
 *   <li>{@link #NONE}: no timers and no TTL.</li>
 *   <li>{@link #PROCESSING_TIME}: processing-time timers (fire on the wall clock, also without new input) and state TTL.</li>
 *   <li>{@link #EVENT_TIME}: event-time timers that fire when the watermark passes them; TTL is rejected.</li>
 * </ul>
 */
@InterfaceStability.Stable
public enum TimeMode {
    /** No timers, no TTL. */
    NONE,
    /** Processing-time timers and TTL. */
    PROCESSING_TIME,
    /** Event-time timers driven by the watermark; no TTL. */
    EVENT_TIME
}
