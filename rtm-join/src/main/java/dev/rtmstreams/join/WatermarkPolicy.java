package dev.rtmstreams.join;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * How the global watermark of an {@link IntervalJoin} is derived from the two input watermarks (each input's
 * watermark = max event time seen on that input minus its watermark delay), as Spark's
 * {@code spark.sql.streaming.multipleWatermarkPolicy}. The global watermark never moves backwards, also across
 * restarts. Like Spark, the policy must not change across restarts of the same application.
 */
@InterfaceStability.Evolving
public enum WatermarkPolicy {
    /**
     * Minimum of the two input watermarks (default, Spark's default): the slower input holds back lateness and
     * eviction. Undefined (nothing is late, nothing is evicted) until both inputs have seen a record.
     */
    MIN,
    /**
     * Maximum of the input watermarks that are defined: the faster input drives lateness and eviction; records of the
     * slower input are more likely to be late.
     */
    MAX
}
