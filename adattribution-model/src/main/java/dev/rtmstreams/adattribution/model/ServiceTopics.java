package dev.rtmstreams.adattribution.model;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The topic names one ad-attribution service instance reads and writes, and the command-line options that hand them
 * to it: the one place the topic options of the service's command line are assembled for a child process (the load
 * generator's bench and the chaos runner both start the service with {@link #serviceArgs()}).
 *
 * <pre>{@code
 * ServiceTopics topics = ServiceTopics.DEFAULTS.withPrefix("chaos-1a2b3c.");
 * List<String> args = topics.serviceArgs(); // --impressions-topic chaos-1a2b3c.ad-impressions ... --dlq-topic ...
 * }</pre>
 *
 * @param impressions input impressions; not null
 * @param clicks input clicks; not null
 * @param requests input ad requests; not null
 * @param acks input ad acks; not null
 * @param attributedClicks output of the click attribution; not null
 * @param logRecords output of the request/ack correlation; not null
 * @param dlq dead-letter topic of undecodable input; not null
 */
public record ServiceTopics(
        String impressions,
        String clicks,
        String requests,
        String acks,
        String attributedClicks,
        String logRecords,
        String dlq) {

    /** The service's default topic names ({@link AdAttributionTopics}). */
    public static final ServiceTopics DEFAULTS = new ServiceTopics(
            AdAttributionTopics.IMPRESSIONS,
            AdAttributionTopics.CLICKS,
            AdAttributionTopics.REQUESTS,
            AdAttributionTopics.ACKS,
            AdAttributionTopics.ATTRIBUTED_CLICKS,
            AdAttributionTopics.LOG_RECORDS,
            AdAttributionTopics.DLQ);

    /**
     * Validates non-null names.
     *
     * @throws NullPointerException naming the missing topic
     */
    public ServiceTopics {
        Objects.requireNonNull(impressions, "impressions");
        Objects.requireNonNull(clicks, "clicks");
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(acks, "acks");
        Objects.requireNonNull(attributedClicks, "attributedClicks");
        Objects.requireNonNull(logRecords, "logRecords");
        Objects.requireNonNull(dlq, "dlq");
    }

    /**
     * Returns these names with a prefix put before each.
     *
     * @param prefix the prefix, e.g. {@code chaos-1a2b3c.}; not null
     * @return the new names
     */
    public ServiceTopics withPrefix(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        return renamed(name -> prefix + name);
    }

    /**
     * Returns these names with a suffix appended to each.
     *
     * @param suffix the suffix, e.g. {@code -n1real-time}; not null
     * @return the new names
     */
    public ServiceTopics withSuffix(String suffix) {
        Objects.requireNonNull(suffix, "suffix");
        return renamed(name -> name + suffix);
    }

    /**
     * Returns these names with another dead-letter topic.
     *
     * @param dlqTopic the dead-letter topic; not null
     * @return the new names
     */
    public ServiceTopics withDlq(String dlqTopic) {
        return new ServiceTopics(impressions, clicks, requests, acks, attributedClicks, logRecords, dlqTopic);
    }

    private ServiceTopics renamed(UnaryOperator<String> rename) {
        return new ServiceTopics(
                rename.apply(impressions),
                rename.apply(clicks),
                rename.apply(requests),
                rename.apply(acks),
                rename.apply(attributedClicks),
                rename.apply(logRecords),
                rename.apply(dlq));
    }

    /** @return the input topics: impressions, clicks, requests, acks */
    public List<String> inputs() {
        return List.of(impressions, clicks, requests, acks);
    }

    /** @return every topic: the inputs, the two outputs and the dead-letter topic */
    public List<String> all() {
        return List.of(impressions, clicks, requests, acks, attributedClicks, logRecords, dlq);
    }

    /**
     * Returns the service's command-line options naming these topics ({@code --impressions-topic NAME ...
     * --dlq-topic NAME}), to append to its {@code run} arguments.
     *
     * @return the options and their values, in pairs; immutable
     */
    public List<String> serviceArgs() {
        return List.of(
                "--impressions-topic",
                impressions,
                "--clicks-topic",
                clicks,
                "--requests-topic",
                requests,
                "--acks-topic",
                acks,
                "--attributed-clicks-topic",
                attributedClicks,
                "--log-records-topic",
                logRecords,
                "--dlq-topic",
                dlq);
    }
}
