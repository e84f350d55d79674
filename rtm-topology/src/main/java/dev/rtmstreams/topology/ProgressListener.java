package dev.rtmstreams.topology;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Receives progress of a running {@link RtmStreams} application, like Spark's {@code StreamingQueryListener}.
 * Callbacks run on one dedicated progress thread of the application (never on a stream thread), in the order
 * the events happened per stream thread; a slow listener delays later reports but never processing. An exception
 * thrown by a listener is logged and otherwise ignored.
 */
@InterfaceStability.Evolving
public interface ProgressListener {

    /**
     * Called once per closed checkpoint epoch (once per commit of one stream thread).
     * @param progress the epoch's report, never null
     */
    void onEpochProgress(EpochProgress progress);

    /**
     * Called after every rebalance that ends with the application RUNNING, with the actual task assignment of this
     * instance and its slot check. Default: nothing.
     * @param report the assignment report, never null
     */
    default void onAssignment(AssignmentReport report) {}
}
