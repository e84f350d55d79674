package dev.rtmstreams.adattribution.workload;

/** Why the generator produced an event; informational (statistics, debugging), not used by the oracle. */
public enum EventTag {
    /** An ordinary event. */
    NORMAL,
    /** An impression whose event time lies behind the stream, but well inside the watermark delay. */
    OUT_OF_ORDER,
    /** An event far behind the watermark (late; must be dropped). */
    LATE,
    /** A resend of an earlier event. */
    DUPLICATE,
    /** An event whose partner never exists (click without impression, ack without request, ...). */
    ORPHAN,
    /** A click whose time lies outside its impression's attribution window. */
    OUTSIDE_WINDOW,
    /** A click exactly at an edge of the attribution window (delay 0 or exactly the window). */
    WINDOW_EDGE,
    /** An ack sent before its request. */
    ACK_FIRST
}
