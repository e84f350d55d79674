package dev.rtmstreams.adattribution.model;

/**
 * The ad-attribution service's default topic names, the one place they are spelled: the service's configuration and
 * command line, its demo, the load generator and the chaos runner all take them from here.
 */
public final class AdAttributionTopics {

    /** Input impressions. */
    public static final String IMPRESSIONS = "ad-impressions";
    /** Input clicks. */
    public static final String CLICKS = "ad-clicks";
    /** Input ad requests. */
    public static final String REQUESTS = "ad-requests";
    /** Input ad acks. */
    public static final String ACKS = "ad-acks";
    /** Output of the click attribution. */
    public static final String ATTRIBUTED_CLICKS = "attributed-clicks";
    /** Output of the request/ack correlation. */
    public static final String LOG_RECORDS = "ad-log-records";
    /** Dead-letter topic of undecodable input. */
    public static final String DLQ = "adattribution-dlq";

    private AdAttributionTopics() {}
}
