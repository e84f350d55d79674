package dev.rtmstreams.topology;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Percentiles of one latency metric over one checkpoint epoch, in milliseconds, as Databricks reports them
 * (computed with HdrHistogram, 3 significant digits). All values are 0 when {@link #count()} is 0.
 * @param count number of measured records
 * @param p50 median
 * @param p90 90th percentile
 * @param p95 95th percentile
 * @param p99 99th percentile
 * @param max maximum
 */
@InterfaceStability.Evolving
public record LatencyStats(long count, long p50, long p90, long p95, long p99, long max) {

    /** Stats of an epoch without measurements. */
    public static final LatencyStats EMPTY = new LatencyStats(0, 0, 0, 0, 0, 0);
}
