package dev.rtmstreams.processor;

/** Information on the timer being handled by {@link StatefulProcessor#handleExpiredTimer}. */
public interface ExpiredTimerInfo {

    /** @return the time, in epoch milliseconds, the timer was registered for */
    long getExpiryTimeInMs();
}
