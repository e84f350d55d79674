package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.processor.RtmException;
import java.util.Map;

/**
 * An input record that decodes but cannot be processed: no key, no value, or a key that differs
 * from the id field it must equal (which would break co-partitioning). Such records go to the
 * dead-letter topic with this class name in the error header.
 */
public final class BadInputException extends RtmException {
    private static final long serialVersionUID = 1L;

    /** Error code: the record has no key. */
    public static final String MISSING_KEY = "ADATTRIBUTION_MISSING_KEY";
    /** Error code: the record has no value (a tombstone). */
    public static final String MISSING_VALUE = "ADATTRIBUTION_MISSING_VALUE";
    /** Error code: the key differs from the value's id field. */
    public static final String KEY_MISMATCH = "ADATTRIBUTION_KEY_MISMATCH";
    /**
     * Error code: the event time is more than {@code rtm.max.event.time.skew.ms} ahead of the wall clock (the
     * watermark guard); such a record would move its partition's watermark ahead and make every later one late.
     */
    public static final String EVENT_TIME_TOO_FAR_AHEAD = "ADATTRIBUTION_EVENT_TIME_TOO_FAR_AHEAD";

    BadInputException(String errorCode, Map<String, String> parameters, String message) {
        super(errorCode, parameters, message);
    }
}
