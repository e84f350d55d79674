package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * How output rows relate to earlier output, as in Spark's {@code OutputMode}. Real-time mode supports
 * {@link #UPDATE} semantics (every emitted row is final when emitted); {@link #APPEND} is accepted for
 * processors ported from Spark that declare it. The value is passed to {@link StatefulProcessor#init}.
 */
@InterfaceStability.Stable
public enum OutputMode {
    /** Rows are only ever appended. */
    APPEND,
    /** Rows are emitted as soon as they are known (the only mode of Spark real-time mode). */
    UPDATE
}
