package dev.rtmstreams.adattribution.workload;

import dev.rtmstreams.adattribution.model.ServiceTopics;
import java.util.Objects;

/**
 * The topics of a run: those of the service ({@link ServiceTopics}) and the output of the echo pass-through.
 *
 * @param serviceTopics the topics of a service instance, whose command-line options {@link ServiceTopics#serviceArgs()}
 *     assembles; its dead-letter topic is the service's default in {@link #DEFAULTS}, and {@link #withPrefix} and
 *     {@link #withSuffix} keep it: runs of the load generator send no undecodable input
 * @param echo output of the echo pass-through
 */
public record TopicNames(ServiceTopics serviceTopics, String echo) {

    /** The service's default topic names. */
    public static final TopicNames DEFAULTS = new TopicNames(ServiceTopics.DEFAULTS, "attributed-clicks-echo");

    /** Validates non-null names. */
    public TopicNames {
        Objects.requireNonNull(serviceTopics, "serviceTopics");
        Objects.requireNonNull(echo, "echo");
    }

    /**
     * Returns these names with a suffix appended to each, the dead-letter topic kept.
     *
     * @param suffix the suffix; not null
     * @return the new names
     */
    public TopicNames withSuffix(String suffix) {
        return new TopicNames(serviceTopics.withSuffix(suffix).withDlq(serviceTopics.dlq()), echo + suffix);
    }

    /**
     * Returns these names with a prefix put before each, the dead-letter topic kept.
     *
     * @param prefix the prefix; not null
     * @return the new names
     */
    public TopicNames withPrefix(String prefix) {
        return new TopicNames(serviceTopics.withPrefix(prefix).withDlq(serviceTopics.dlq()), prefix + echo);
    }

    /** @return input impressions */
    public String impressions() {
        return serviceTopics.impressions();
    }

    /** @return input clicks */
    public String clicks() {
        return serviceTopics.clicks();
    }

    /** @return input ad requests */
    public String requests() {
        return serviceTopics.requests();
    }

    /** @return input acks */
    public String acks() {
        return serviceTopics.acks();
    }

    /** @return output of the click attribution */
    public String attributedClicks() {
        return serviceTopics.attributedClicks();
    }

    /** @return output of the request/ack correlation */
    public String logRecords() {
        return serviceTopics.logRecords();
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
                return impressions();
            case CLICK:
                return clicks();
            case REQUEST:
                return requests();
            default:
                return acks();
        }
    }
}
