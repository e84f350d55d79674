package dev.rtmstreams.adattribution.workload;

/** The kinds of output record the oracle predicts. */
public enum OutputKind {
    /** An AttributedClick on attributed-clicks (identity: click_id). */
    ATTRIBUTED_CLICK,
    /** A LogRecord on ad-log-records (identity: transaction_id, ack status, ack delivery time). */
    LOG_RECORD,
    /** A click copied by the echo pass-through (identity: click_id; one per click sent). */
    ECHO,
    /**
     * A row of a published latency workload copied or enriched by the system under test (identity: the input row's
     * key for a copy, {@code timestamp/joinKey} for a join result).
     */
    ROW,
    /** An updated count of the aggregation workload (identity: the group, {@code timestamp/valueId}). */
    COUNT
}
