package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Real-time or micro-batch: the execution contract of every rtm-streams operator (see
 * {@link RtmProcessorConfig#EXECUTION_MODE_CONFIG}), and the mode rtm-topology's {@code Trigger} selects for a whole
 * application. The one enum of this choice in the project.
 */
@InterfaceStability.Evolving
public enum ExecutionMode {
    /** One {@code handleInputRows} call per record with a single-row iterator; output forwarded at once. */
    REAL_TIME,
    /**
     * Rows are buffered (in a changelogged store) for the micro-batch interval; then {@code handleInputRows} is
     * called once per key with all of that key's rows in arrival order, and due timers fire.
     */
    MICRO_BATCH;

    /**
     * @param configValue {@value RtmProcessorConfig#EXECUTION_MODE_REAL_TIME} or
     *     {@value RtmProcessorConfig#EXECUTION_MODE_MICRO_BATCH} (case-insensitive, {@code _} for {@code -})
     * @return the mode
     * @throws IllegalArgumentException for any other value (the message names it)
     */
    public static ExecutionMode fromConfig(String configValue) {
        if (configValue != null) {
            String v = configValue.trim().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            if (v.equals(RtmProcessorConfig.EXECUTION_MODE_REAL_TIME)) {
                return REAL_TIME;
            }
            if (v.equals(RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH)) {
                return MICRO_BATCH;
            }
        }
        throw new IllegalArgumentException(RtmProcessorConfig.EXECUTION_MODE_CONFIG + " must be '"
                + RtmProcessorConfig.EXECUTION_MODE_REAL_TIME + "' or '" + RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH
                + "': " + configValue);
    }

    /**
     * @return the mode's name in configuration and on command lines: {@value RtmProcessorConfig#EXECUTION_MODE_REAL_TIME}
     *     or {@value RtmProcessorConfig#EXECUTION_MODE_MICRO_BATCH}
     */
    public String configValue() {
        return this == REAL_TIME
                ? RtmProcessorConfig.EXECUTION_MODE_REAL_TIME
                : RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH;
    }
}
