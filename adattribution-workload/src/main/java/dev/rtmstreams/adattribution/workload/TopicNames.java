package dev.rtmstreams.adattribution.workload;

import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import java.util.Objects;

/**
 * The topics of a run.
 *
 * @param impressions input impressions
 * @param clicks input clicks
 * @param requests input ad requests
 * @param acks input acks
 * @param attributedClicks output of the click attribution
 * @param logRecords output of the request/ack correlation
 * @param echo output of the echo pass-through
 */
public record TopicNames(
        String impressions,
        String clicks,
        String requests,
        String acks,
        String attributedClicks,
        String logRecords,
        String echo) {

    /** The service's default topic names. */
    public static final TopicNames DEFAULTS = new TopicNames(
            AdAttributionTopics.IMPRESSIONS,
            AdAttributionTopics.CLICKS,
            AdAttributionTopics.REQUESTS,
            AdAttributionTopics.ACKS,
            AdAttributionTopics.ATTRIBUTED_CLICKS,
            AdAttributionTopics.LOG_RECORDS,
            "attributed-clicks-echo");

    /** Validates non-null names. */
    public TopicNames {
        Objects.requireNonNull(impressions, "impressions");
        Objects.requireNonNull(clicks, "clicks");
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(acks, "acks");
        Objects.requireNonNull(attributedClicks, "attributedClicks");
        Objects.requireNonNull(logRecords, "logRecords");
        Objects.requireNonNull(echo, "echo");
    }

    /**
     * Returns these names with a suffix appended to each.
     *
     * @param suffix the suffix; not null
     * @return the new names
     */
    public TopicNames withSuffix(String suffix) {
        return new TopicNames(
                impressions + suffix,
                clicks + suffix,
                requests + suffix,
                acks + suffix,
                attributedClicks + suffix,
                logRecords + suffix,
                echo + suffix);
    }

    /**
     * Returns these names as the topics of a service instance, whose command-line options
     * {@link ServiceTopics#serviceArgs()} assembles. The dead-letter topic is the service's default: runs of the load
     * generator send no undecodable input.
     *
     * @return the service's topics
     */
    public ServiceTopics serviceTopics() {
        return new ServiceTopics(
                impressions, clicks, requests, acks, attributedClicks, logRecords, AdAttributionTopics.DLQ);
    }

    /**
     * Returns the input topic of an event kind.
     *
     * @param kind the kind
     * @return the topic name
     */
    public String inputTopic(EventKind kind) {
        switch (kind) {
            case IMPRESSION:
                return impressions;
            case CLICK:
                return clicks;
            case REQUEST:
                return requests;
            default:
                return acks;
        }
    }
}
