package dev.rtmstreams.processor.spi;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * The settings every operator shell resolves the same way (transformWithState, the interval join, deduplication):
 * each from the operator's builder when set there, else from the application config ({@code rtm.*} keys), else the
 * default. Validated when built, naming the operator and the bad values.
 *
 * <p>{@code
 * OperatorSettings s = OperatorSettings.resolve("orders-join", null, null, null, null, context.appConfigs());
 * }
 *
 * @param executionMode execution contract; not null
 * @param microBatchIntervalMs micro-batch interval in ms (positive): {@link RtmProcessorConfig#MICRO_BATCH_INTERVAL_MS_CONFIG}
 * @param timerResolutionMs real-time punctuation interval in ms (positive):
 *     {@link RtmProcessorConfig#TIMER_RESOLUTION_MS_CONFIG}
 * @param idleTimeoutMs watermark idle timeout in ms, 0 = off: {@link RtmProcessorConfig#WATERMARK_IDLE_TIMEOUT_MS_CONFIG}
 * @param maxEventTimeSkewMs the watermark guard (positive): {@link RtmProcessorConfig#MAX_EVENT_TIME_SKEW_MS_CONFIG}
 */
@InterfaceStability.Unstable
public record OperatorSettings(
        ExecutionMode executionMode,
        long microBatchIntervalMs,
        long timerResolutionMs,
        long idleTimeoutMs,
        long maxEventTimeSkewMs) {

    /**
     * @throws IllegalArgumentException naming the bad values when an interval or the guard is not positive or the idle
     *     timeout is negative
     */
    public OperatorSettings {
        Objects.requireNonNull(executionMode, "executionMode");
        if (maxEventTimeSkewMs <= 0) {
            throw new IllegalArgumentException(
                    RtmProcessorConfig.MAX_EVENT_TIME_SKEW_MS_CONFIG + " must be positive: " + maxEventTimeSkewMs);
        }
        if (microBatchIntervalMs <= 0 || timerResolutionMs <= 0 || idleTimeoutMs < 0) {
            throw new IllegalArgumentException(
                    "invalid rtm.* configuration: microBatchIntervalMs=" + microBatchIntervalMs
                            + ", timerResolutionMs=" + timerResolutionMs + ", idleTimeoutMs=" + idleTimeoutMs
                            + " (intervals must be positive, the idle timeout 0 or more)");
        }
    }

    /**
     * @param operator the operator's name, for errors; not null
     * @param executionMode the builder's mode, or null for {@link RtmProcessorConfig#EXECUTION_MODE_CONFIG}
     * @param microBatchInterval the builder's micro-batch interval, or null for the config
     * @param timerResolution the builder's timer resolution, or null for the config
     * @param idleTimeout the builder's watermark idle timeout, or null for the config
     * @param configs the application config (e.g. {@code ProcessingContext#appConfigs()}); not null
     * @return the operator's settings
     * @throws IllegalArgumentException naming the operator and the bad value when a setting is invalid
     */
    public static OperatorSettings resolve(
            String operator,
            ExecutionMode executionMode,
            Duration microBatchInterval,
            Duration timerResolution,
            Duration idleTimeout,
            Map<String, ?> configs) {
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(configs, "configs");
        ExecutionMode mode = executionMode != null
                ? executionMode
                : ExecutionMode.fromConfig(String.valueOf(
                        configs.containsKey(RtmProcessorConfig.EXECUTION_MODE_CONFIG)
                                ? configs.get(RtmProcessorConfig.EXECUTION_MODE_CONFIG)
                                : RtmProcessorConfig.EXECUTION_MODE_REAL_TIME));
        long microBatch = microBatchInterval != null
                ? microBatchInterval.toMillis()
                : ConfigValues.longValue(
                        configs,
                        RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_MICRO_BATCH_INTERVAL_MS);
        long resolution = timerResolution != null
                ? timerResolution.toMillis()
                : ConfigValues.longValue(
                        configs,
                        RtmProcessorConfig.TIMER_RESOLUTION_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_TIMER_RESOLUTION_MS);
        long idle = idleTimeout != null
                ? idleTimeout.toMillis()
                : ConfigValues.longValue(
                        configs,
                        RtmProcessorConfig.WATERMARK_IDLE_TIMEOUT_MS_CONFIG,
                        RtmProcessorConfig.DEFAULT_WATERMARK_IDLE_TIMEOUT_MS);
        long skew = RtmProcessorConfig.maxEventTimeSkewMs(configs);
        try {
            return new OperatorSettings(mode, microBatch, resolution, idle, skew);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("operator " + operator + ": " + e.getMessage(), e);
        }
    }

    /**
     * Schedules the operator's wall-clock punctuator for its mode: {@code realTime} every {@link #timerResolutionMs} in
     * real-time mode, {@code microBatch} every {@link #microBatchIntervalMs} in micro-batch mode. Call in the
     * processor's {@code init}.
     *
     * @param context the processor's context; not null
     * @param realTime what runs in real-time mode (timers, eviction); not null
     * @param microBatch what runs in micro-batch mode (one batch), or null when this processor runs none (e.g. the
     *     join's right side, whose batches the left side runs)
     * @return the scheduled punctuator, or null when none was scheduled
     */
    public Cancellable schedule(ProcessingContext context, Punctuator realTime, Punctuator microBatch) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(realTime, "realTime");
        if (executionMode == ExecutionMode.MICRO_BATCH) {
            return microBatch == null
                    ? null
                    : context.schedule(
                            Duration.ofMillis(microBatchIntervalMs), PunctuationType.WALL_CLOCK_TIME, microBatch);
        }
        return context.schedule(Duration.ofMillis(timerResolutionMs), PunctuationType.WALL_CLOCK_TIME, realTime);
    }
}
