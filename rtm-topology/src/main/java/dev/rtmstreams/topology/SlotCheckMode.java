package dev.rtmstreams.topology;

/**
 * What {@link RtmStreams#start()} does when the topology needs more task slots (stream threads) than the
 * application has ({@code num.stream.threads} x expected instances, with tasks-per-slot packing).
 */
public enum SlotCheckMode {
    /** Refuse to start with an {@link InsufficientSlotsException} (the default in real-time mode, like Spark RTM). */
    FAIL,
    /** Log a warning with the sizing report and start anyway (the default in micro-batch mode). */
    WARN,
    /** Do not check (no partition counts are asked of the cluster). */
    OFF
}
