package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.TimerValues;

/** Immutable {@link TimerValues}; also the {@link ExpiredTimerInfo} of a timer call. */
record TimerValuesImpl(long processingTime, long watermark) implements TimerValues {

    @Override
    public long getCurrentProcessingTimeInMs() {
        return processingTime;
    }

    @Override
    public long getCurrentWatermarkInMs() {
        return watermark;
    }

    record Expired(long expiry) implements ExpiredTimerInfo {
        @Override
        public long getExpiryTimeInMs() {
            return expiry;
        }
    }
}
