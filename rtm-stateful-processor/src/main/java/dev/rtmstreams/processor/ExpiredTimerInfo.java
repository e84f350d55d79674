package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/** Information on the timer being handled by {@link StatefulProcessor#handleExpiredTimer}. */
@InterfaceStability.Stable
public interface ExpiredTimerInfo {

    /** @return the time, in epoch milliseconds, the timer was registered for */
    long getExpiryTimeInMs();
}
