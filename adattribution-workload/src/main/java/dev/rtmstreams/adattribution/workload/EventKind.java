package dev.rtmstreams.adattribution.workload;

/** The four input record kinds; each goes to its own topic. */
public enum EventKind {
    /** An ad impression (topic ad-impressions). */
    IMPRESSION,
    /** A click on an impression (topic ad-clicks). */
    CLICK,
    /** An ad request (topic ad-requests). */
    REQUEST,
    /** An ack of a request (topic ad-acks). */
    ACK
}
