package dev.rtmstreams.topology;

import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Progress of one source topic within one checkpoint epoch.
 * @param topic the topic (repartition topics of the application appear under their full name)
 * @param numInputRows records returned by the consumer for this topic during the epoch (records re-read after a
 *     rebalance or restart are counted again, as delivery is at-least-once)
 * @param inputRowsPerSecond {@code numInputRows} divided by the epoch's duration
 * @param committedOffsets partition to committed offset (the next offset to read) committed at the end of the
 *     epoch; empty when this epoch committed nothing for the topic; unmodifiable
 */
@InterfaceStability.Evolving
public record SourceProgress(
        String topic, long numInputRows, double inputRowsPerSecond, Map<Integer, Long> committedOffsets) {

    /** Copies the offsets. */
    public SourceProgress {
        committedOffsets = Map.copyOf(committedOffsets);
    }
}
