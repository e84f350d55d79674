package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.spi.ConfigValues;
import dev.rtmstreams.processor.spi.OperatorSettings;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The resolved settings of one transformWithState task: the shell's ({@link OperatorSettings}, resolved as every
 * operator resolves them) and transformWithState's own (TTL cleanup batch, allowed lateness, commit interval). Each
 * from the operator's builder when set there, else from the application config ({@code rtm.*} keys), else the default.
 * Validated when built.
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
        if (ttlCleanupBatch <= 0) {
            throw new IllegalArgumentException(
                    RtmProcessorConfig.TTL_CLEANUP_BATCH_CONFIG + " must be positive: " + ttlCleanupBatch);
        }
    }

    /** @return the shell's part of these settings (mode, intervals, idle timeout, guard) */
    OperatorSettings shell() {
        return new OperatorSettings(
                executionMode, microBatchIntervalMs, timerResolutionMs, idleTimeoutMs, maxEventTimeSkewMs);
    }

    /**
     * @return the settings of {@code spec}'s operator under the application config {@code cfg}: the shell's settings
     *     ({@link OperatorSettings}, as every operator resolves them) plus transformWithState's own
     */
    static OperatorConfig resolve(OperatorSpec<?, ?, ?> spec, Map<String, Object> cfg) {
        OperatorSettings shell = OperatorSettings.resolve(
                spec.name(),
                spec.executionMode(),
                spec.microBatchInterval(),
                spec.timerResolution(),
                spec.watermarkIdleTimeout(),
                cfg);
        int ttlBatch = (int) ConfigValues.longValue(
                cfg, RtmProcessorConfig.TTL_CLEANUP_BATCH_CONFIG, RtmProcessorConfig.DEFAULT_TTL_CLEANUP_BATCH);
        long commit = ConfigValues.longValue(cfg, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 30_000L);
        try {
            return new OperatorConfig(
                    shell.executionMode(),
                    shell.microBatchIntervalMs(),
                    shell.timerResolutionMs(),
                    shell.idleTimeoutMs(),
                    ttlBatch,
                    spec.watermarkDelay().toMillis(),
                    commit,
                    shell.maxEventTimeSkewMs());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("operator " + spec.name() + ": " + e.getMessage(), e);
        }
    }
}
