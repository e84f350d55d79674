package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.spi.InputDrops;
import dev.rtmstreams.processor.spi.Watermarks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which input records of one operator's {@link OperatorRuntime} are dropped, and accounts for them: records
 * with a null grouping key (counted, logged at the first and every 10 000th), and in event time records at or below
 * the watermark (late) or too far ahead of the wall clock (the watermark guard), counted, recorded and logged by
 * {@link InputDrops} as by every operator shell. Not thread-safe (a task is single-threaded).
 */
final class InputGuard {

    // the operator's warnings keep the runtime's logger
    private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);

    private final String operator;
    private final WatermarkTracker watermark;
    private final long maxEventTimeSkewMs;
    private final OperatorMetrics metrics;
    private final InputDrops drops;

    private long droppedNullKey;

    /**
     * @param operator the operator's name
     * @param watermark the operator's watermark
     * @param maxEventTimeSkewMs {@link RtmProcessorConfig#MAX_EVENT_TIME_SKEW_MS_CONFIG} of the operator
     * @param metrics the operator's metrics, which count the drops
     */
    InputGuard(String operator, WatermarkTracker watermark, long maxEventTimeSkewMs, OperatorMetrics metrics) {
        this.operator = operator;
        this.watermark = watermark;
        this.maxEventTimeSkewMs = maxEventTimeSkewMs;
        this.metrics = metrics;
        this.drops = new InputDrops("operator " + operator, () -> metrics.lateRecords, () -> metrics.futureRecords);
    }

    /** @return whether a record with {@code eventTime} is late by the current watermark, and then drops it */
    boolean dropIfLate(long eventTime) {
        if (!watermark.isLate(eventTime)) {
            return false;
        }
        drops.late(eventTime, watermark.value());
        return true;
    }

    /**
     * @param eventTime the record's event time
     * @param lateBelow the watermark the record is late by, Long.MIN_VALUE for none
     * @return whether the record is late by {@code lateBelow}, and then drops it
     */
    boolean dropIfLate(long eventTime, long lateBelow) {
        if (lateBelow == Long.MIN_VALUE || !Watermarks.isLate(eventTime, lateBelow)) {
            return false;
        }
        drops.late(eventTime, lateBelow);
        return true;
    }

    /** The watermark guard ({@link RtmProcessorConfig#MAX_EVENT_TIME_SKEW_MS_CONFIG}). */
    boolean dropIfTooFarAhead(long eventTime, long now) {
        if (!RtmProcessorConfig.tooFarAhead(eventTime, now, maxEventTimeSkewMs)) {
            return false;
        }
        drops.tooFarAhead(eventTime, now, maxEventTimeSkewMs);
        return true;
    }

    /** Drops a record with a null grouping key. */
    void dropNullKey() {
        droppedNullKey++;
        metrics.nullKeyRecords.record();
        if (droppedNullKey == 1 || droppedNullKey % 10_000 == 0) {
            LOG.warn("operator {} dropped {} record(s) with a null grouping key", operator, droppedNullKey);
        }
    }
}
