package dev.rtmstreams.topology;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * What {@link RtmStreams#start()} does when the topology needs more task slots (stream threads) than the
 * application has ({@code num.stream.threads} x expected instances, with tasks-per-slot packing).
 */
@InterfaceStability.Evolving
public enum SlotCheckMode {
    /** Refuse to start with an {@link InsufficientSlotsException} (the default in real-time mode, like Spark RTM). */
    FAIL,
    /** Log a warning with the sizing report and start anyway (the default in micro-batch mode). */
    WARN,
    /** Do not check (no partition counts are asked of the cluster). */
    OFF;

    /**
     * Parses {@code fail}, {@code warn} or {@code off} (case-insensitive), as command lines and config files spell it.
     *
     * @param value the value
     * @return the mode
     * @throws IllegalArgumentException naming the value otherwise
     */
    public static SlotCheckMode parse(String value) {
        String normalized = value == null ? "" : value.trim().toUpperCase(java.util.Locale.ROOT);
        for (SlotCheckMode mode : values()) {
            if (mode.name().equals(normalized)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("slot-check must be fail, warn or off: '" + value + "'");
    }
}
