package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.spi.ConfigValues;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The resolved settings of one operator task: each from the operator's builder when set there, else from the
 * application config ({@code rtm.*} keys), else the default. Validated when built.
 *
 * @param executionMode execution contract
 * @param microBatchIntervalMs micro-batch interval (positive)
 * @param timerResolutionMs real-time punctuation interval (positive)
 * @param idleTimeoutMs watermark idle timeout, 0 = off
 * @param ttlCleanupBatch TTL index entries handled per cleanup pass (positive)
 * @param watermarkDelayMs allowed lateness
 * @param commitIntervalMs Kafka Streams' commit interval (the real-time epoch)
 * @param maxEventTimeSkewMs watermark guard: event times further ahead of the wall clock are rejected (positive)
 */
record OperatorConfig(
        ExecutionMode executionMode,
        long microBatchIntervalMs,
        long timerResolutionMs,
        long idleTimeoutMs,
        int ttlCleanupBatch,
        long watermarkDelayMs,
        long commitIntervalMs,
        long maxEventTimeSkewMs) {

    OperatorConfig {
        if (maxEventTimeSkewMs <= 0) {
            throw new IllegalArgumentException(
                    RtmProcessorConfig.MAX_EVENT_TIME_SKEW_MS_CONFIG + " must be positive: " + maxEventTimeSkewMs);
        }
        if (microBatchIntervalMs <= 0 || timerResolutionMs <= 0 || idleTimeoutMs < 0 || ttlCleanupBatch <= 0) {
            throw new IllegalArgumentException(
                    "invalid rtm.* configuration: microBatchIntervalMs=" + microBatchIntervalMs
                            + ", timerResolutionMs=" + timerResolutionMs + ", idleTimeoutMs=" + idleTimeoutMs
                            + ", ttlCleanupBatch=" + ttlCleanupBatch
                            + " (intervals and the batch must be positive, the idle timeout 0 or more)");
        }
    }

    /** @return the settings of {@code spec}'s operator under the application config {@code cfg} */
    static OperatorConfig resolve(OperatorSpec<?, ?, ?> spec, Map<String, Object> cfg) {
        ExecutionMode mode = spec.executionMode() != null
                ? spec.executionMode()
                : ExecutionMode.fromConfig(String.valueOf(cfg.getOrDefault(
                        RtmProcessorConfig.EXECUTION_MODE_CONFIG, RtmProcessorConfig.EXECUTION_MODE_REAL_TIME)));
        long microBatch = spec.microBatchInterval() != null
                ? spec.microBatchInterval().toMillis()
                : ConfigValues.longValue(
                        cfg,
                        RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_MICRO_BATCH_INTERVAL_MS);
        long resolution = spec.timerResolution() != null
                ? spec.timerResolution().toMillis()
                : ConfigValues.longValue(
                        cfg,
                        RtmProcessorConfig.TIMER_RESOLUTION_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_TIMER_RESOLUTION_MS);
        long idle = spec.watermarkIdleTimeout() != null
                ? spec.watermarkIdleTimeout().toMillis()
                : ConfigValues.longValue(
                        cfg,
                        RtmProcessorConfig.WATERMARK_IDLE_TIMEOUT_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_WATERMARK_IDLE_TIMEOUT_MS);
        int ttlBatch = (int) ConfigValues.longValue(
                cfg, RtmProcessorConfig.TTL_CLEANUP_BATCH_CONFIG, RtmProcessorConfig.DEFAULT_TTL_CLEANUP_BATCH);
        long commit = ConfigValues.longValue(cfg, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 30_000L);
        long skew = RtmProcessorConfig.maxEventTimeSkewMs(cfg);
        try {
            return new OperatorConfig(
                    mode,
                    microBatch,
                    resolution,
                    idle,
                    ttlBatch,
                    spec.watermarkDelay().toMillis(),
                    commit,
                    skew);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("operator " + spec.name() + ": " + e.getMessage(), e);
        }
    }
}
