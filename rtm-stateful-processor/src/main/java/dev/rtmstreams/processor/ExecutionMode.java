package dev.rtmstreams.processor;

/**
 * Execution contract of a {@link TransformWithState} operator (see {@link RtmProcessorConfig#EXECUTION_MODE_CONFIG}).
 */
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
     *     {@value RtmProcessorConfig#EXECUTION_MODE_MICRO_BATCH} (case-insensitive)
     * @return the mode
     * @throws IllegalArgumentException for any other value (the message names it)
     */
    public static ExecutionMode fromConfig(String configValue) {
        if (configValue != null) {
            String v = configValue.trim().toLowerCase(java.util.Locale.ROOT);
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
}
