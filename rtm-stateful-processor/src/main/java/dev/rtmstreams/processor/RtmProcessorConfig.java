package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Kafka Streams configuration keys read by {@code TransformWithState} operators (and by the joins of rtm-join)
 * from the application's {@code StreamsConfig} properties ({@code ProcessorContext#appConfigs()}).
 * rtm-topology's {@code Trigger} sets them; they can also be set by hand. Values given on an operator's builder
 * take precedence over these.
 */
@InterfaceStability.Evolving
public final class RtmProcessorConfig {

    /**
     * Execution contract: {@value #EXECUTION_MODE_REAL_TIME} (default: one {@code handleInputRows} call per record,
     * output forwarded at once) or {@value #EXECUTION_MODE_MICRO_BATCH} (rows buffered for
     * {@link #MICRO_BATCH_INTERVAL_MS_CONFIG}, then one call per key with all its rows in arrival order).
     */
    public static final String EXECUTION_MODE_CONFIG = "rtm.execution.mode";
    /** Value of {@link #EXECUTION_MODE_CONFIG} for the real-time contract (the default). */
    public static final String EXECUTION_MODE_REAL_TIME = "real-time";
    /** Value of {@link #EXECUTION_MODE_CONFIG} for the micro-batch contract. */
    public static final String EXECUTION_MODE_MICRO_BATCH = "micro-batch";

    /** Micro-batch interval in milliseconds (default {@value #DEFAULT_MICRO_BATCH_INTERVAL_MS}). */
    public static final String MICRO_BATCH_INTERVAL_MS_CONFIG = "rtm.micro.batch.interval.ms";
    /** Default of {@link #MICRO_BATCH_INTERVAL_MS_CONFIG}. */
    public static final long DEFAULT_MICRO_BATCH_INTERVAL_MS = 1_000L;

    /**
     * How often, in wall-clock milliseconds, processing-time timers and TTL cleanup are checked
     * (default {@value #DEFAULT_TIMER_RESOLUTION_MS}). A due timer fires at most this late.
     */
    public static final String TIMER_RESOLUTION_MS_CONFIG = "rtm.timer.resolution.ms";
    /** Default of {@link #TIMER_RESOLUTION_MS_CONFIG}. */
    public static final long DEFAULT_TIMER_RESOLUTION_MS = 100L;

    /**
     * Once a task's input has been silent for longer than this many wall-clock milliseconds, the watermark is
     * advanced by the wall clock as if the input were still flowing (so an idle input cannot stall event-time timers
     * forever); a join leaves such an input out of its MIN instead.
     * {@code 0} disables (default {@value #DEFAULT_WATERMARK_IDLE_TIMEOUT_MS}).
     */
    public static final String WATERMARK_IDLE_TIMEOUT_MS_CONFIG = "rtm.watermark.idle.timeout.ms";
    /** Default of {@link #WATERMARK_IDLE_TIMEOUT_MS_CONFIG} (disabled). */
    public static final long DEFAULT_WATERMARK_IDLE_TIMEOUT_MS = 0L;

    /** Maximum number of expired TTL entries physically removed per cleanup pass (default {@value #DEFAULT_TTL_CLEANUP_BATCH}). */
    public static final String TTL_CLEANUP_BATCH_CONFIG = "rtm.ttl.cleanup.batch";
    /** Default of {@link #TTL_CLEANUP_BATCH_CONFIG}. */
    public static final int DEFAULT_TTL_CLEANUP_BATCH = 1_000;

    /**
     * Watermark guard: a record whose event time is more than this many milliseconds ahead of the wall clock does
     * not advance any watermark. Event-time {@code TransformWithState} operators and interval joins drop it (counted
     * in {@code future-records-total}; a join with a late-records topic writes it there, with header
     * {@code rtm.late.reason=EVENT_TIME_TOO_FAR_AHEAD}). Without the guard, one record stamped years ahead moves the
     * watermark there and every later record of its partition is late. Default {@value #DEFAULT_MAX_EVENT_TIME_SKEW_MS}
     * (1 h); must be positive.
     */
    public static final String MAX_EVENT_TIME_SKEW_MS_CONFIG = "rtm.max.event.time.skew.ms";
    /** Default of {@link #MAX_EVENT_TIME_SKEW_MS_CONFIG}: one hour. */
    public static final long DEFAULT_MAX_EVENT_TIME_SKEW_MS = 3_600_000L;

    /**
     * The watermark guard's bound, read the same way by every operator that applies it.
     *
     * @param configs the application config (e.g. {@code ProcessingContext#appConfigs()})
     * @return {@link #MAX_EVENT_TIME_SKEW_MS_CONFIG}, or its default when unset
     * @throws IllegalArgumentException naming the key and the value when it is not a positive number
     */
    public static long maxEventTimeSkewMs(java.util.Map<String, ?> configs) {
        return longValue(configs, MAX_EVENT_TIME_SKEW_MS_CONFIG, DEFAULT_MAX_EVENT_TIME_SKEW_MS, 1);
    }

    /**
     * How many times the schema of one evolvable state variable ({@link EvolvableSerde}) may change over the operator's
     * life (its recorded schemas less one); a restart that would exceed it fails with
     * {@code STATE_STORE_VALUE_SCHEMA_EVOLUTION_THRESHOLD_EXCEEDED}. Spark's
     * {@code spark.sql.streaming.stateStore.valueStateSchemaEvolutionThreshold}. Default
     * {@value #DEFAULT_VALUE_SCHEMA_EVOLUTION_THRESHOLD}; 0 or more.
     */
    public static final String VALUE_SCHEMA_EVOLUTION_THRESHOLD_CONFIG = "rtm.state.value.schema.evolution.threshold";
    /** Default of {@link #VALUE_SCHEMA_EVOLUTION_THRESHOLD_CONFIG}, Spark's. */
    public static final int DEFAULT_VALUE_SCHEMA_EVOLUTION_THRESHOLD = 16;

    /**
     * @param configs the application config (e.g. {@code ProcessingContext#appConfigs()})
     * @return {@link #VALUE_SCHEMA_EVOLUTION_THRESHOLD_CONFIG}, or its default when unset
     * @throws IllegalArgumentException naming the key and the value when it is not a number of 0 or more
     */
    public static int valueSchemaEvolutionThreshold(java.util.Map<String, ?> configs) {
        return (int) Math.min(
                Integer.MAX_VALUE,
                longValue(
                        configs, VALUE_SCHEMA_EVOLUTION_THRESHOLD_CONFIG, DEFAULT_VALUE_SCHEMA_EVOLUTION_THRESHOLD, 0));
    }

    /**
     * The newest state format version a transformWithState operator of this instance may write (the first byte of its
     * metadata record, see docs/upgrading.md). Unset: the newest this release writes ({@value #NEWEST_STATE_FORMAT_VERSION}).
     * An operator writes the lowest version that holds its state (2 without evolvable state variables), so this only
     * matters for opt-in features that need a newer one: during a rolling upgrade from a release that reads only
     * versions 1 and 2, set it to 2 on the new instances, and an operator that declares (or whose state retains) a
     * variable with an {@link EvolvableSerde} refuses to start ({@code STATE_STORE_FORMAT_VERSION_NOT_WRITABLE})
     * instead of writing version 3, which the old instances cannot read; remove it once every instance runs this
     * release (Kafka Streams' two-phase {@code upgrade.from}). 2 or more, at most the newest.
     */
    public static final String STATE_WRITE_FORMAT_VERSION_CONFIG = "rtm.state.write.format.version";
    /** The newest transformWithState state format version this release writes (and the default of the above). */
    public static final int NEWEST_STATE_FORMAT_VERSION = 3;

    /**
     * @param configs the application config (e.g. {@code ProcessingContext#appConfigs()})
     * @return {@link #STATE_WRITE_FORMAT_VERSION_CONFIG}, or {@link #NEWEST_STATE_FORMAT_VERSION} when unset
     * @throws IllegalArgumentException naming the key and the value when it is not 2 to
     *     {@link #NEWEST_STATE_FORMAT_VERSION}
     */
    public static int stateWriteFormatVersion(java.util.Map<String, ?> configs) {
        long v = longValue(configs, STATE_WRITE_FORMAT_VERSION_CONFIG, NEWEST_STATE_FORMAT_VERSION, 2);
        if (v > NEWEST_STATE_FORMAT_VERSION) {
            throw new IllegalArgumentException(STATE_WRITE_FORMAT_VERSION_CONFIG + " must be at most "
                    + NEWEST_STATE_FORMAT_VERSION + " (the newest state format version of this release): " + v);
        }
        return (int) v;
    }

    /**
     * Reads a whole-number setting from Kafka Streams' application configs, where a value may be a {@link Number} or
     * its text: the one parser of every rtm setting (the SPI's {@code ConfigValues} reads through it), so that a bad
     * value fails the same way everywhere.
     *
     * @param configs the application configs; not null
     * @param key the setting
     * @param defaultValue returned when {@code key} is absent
     * @param min the smallest valid value (0: "must not be negative", 1: "must be positive")
     * @return the setting as a long, at least {@code min}
     * @throws IllegalArgumentException when the value is not a whole number or below {@code min}, naming the key and
     *     the value
     */
    public static long longValue(java.util.Map<String, ?> configs, String key, long defaultValue, long min) {
        Object v = configs.get(key);
        long parsed;
        if (v == null) {
            parsed = defaultValue;
        } else {
            try {
                parsed = v instanceof Number n
                        ? n.longValue()
                        : Long.parseLong(v.toString().trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a number: " + v, e);
            }
        }
        if (parsed < min) {
            String rule = min == 0 ? "must not be negative" : min == 1 ? "must be positive" : "must be at least " + min;
            throw new IllegalArgumentException(key + " " + rule + ": " + v);
        }
        return parsed;
    }

    /** @return whether {@code eventTime} is more than {@code maxSkewMs} ahead of {@code wallClockMs} */
    public static boolean tooFarAhead(long eventTime, long wallClockMs, long maxSkewMs) {
        return eventTime - wallClockMs > maxSkewMs;
    }

    private RtmProcessorConfig() {}
}
