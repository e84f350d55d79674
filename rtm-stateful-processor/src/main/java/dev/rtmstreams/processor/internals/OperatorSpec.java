package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.EventTimeExtractor;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import java.time.Duration;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serde;

/**
 * Immutable, validated description of one {@code TransformWithState} operator. Nullable fields mean "take the
 * value from the application config ({@code rtm.*} keys) or the default".
 *
 * @param name operator name (store-name prefix)
 * @param storeName name of the operator's state store
 * @param processorSupplier creates one processor per task
 * @param timeMode time mode
 * @param outputMode output mode passed to init
 * @param keySerde key serde, or null for the application default
 * @param valueSerde input value serde (micro-batch buffer), or null for the application default
 * @param eventTimeExtractor event-time extractor, never null
 * @param watermarkDelay allowed lateness subtracted from the max event time, never null
 * @param executionMode execution contract, or null for the config
 * @param microBatchInterval micro-batch interval, or null for the config
 * @param timerResolution processing-time timer / cleanup resolution, or null for the config
 * @param watermarkIdleTimeout idle timeout, or null for the config
 * @param registry per-task runtimes shared by the main and initial-state processors
 */
public record OperatorSpec<K, I, O>(
        String name,
        String storeName,
        Supplier<? extends StatefulProcessor<K, I, O>> processorSupplier,
        TimeMode timeMode,
        OutputMode outputMode,
        Serde<K> keySerde,
        Serde<I> valueSerde,
        EventTimeExtractor<K, I> eventTimeExtractor,
        Duration watermarkDelay,
        ExecutionMode executionMode,
        Duration microBatchInterval,
        Duration timerResolution,
        Duration watermarkIdleTimeout,
        RuntimeRegistry registry) {}
