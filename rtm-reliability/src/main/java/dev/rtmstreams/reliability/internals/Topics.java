package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import java.util.List;

/**
 * The service's topic names (its defaults).
 *
 * @param impressions ad-impressions
 * @param clicks ad-clicks
 * @param requests ad-requests
 * @param acks ad-acks
 * @param attributedClicks attributed-clicks
 * @param logRecords ad-log-records
 * @param dlq adattribution-dlq
 */
public record Topics(
        String impressions,
        String clicks,
        String requests,
        String acks,
        String attributedClicks,
        String logRecords,
        String dlq) {

    /** The service's default topic names. */
    public static final Topics DEFAULTS = new Topics(
            AdAttributionTopics.IMPRESSIONS,
            AdAttributionTopics.CLICKS,
            AdAttributionTopics.REQUESTS,
            AdAttributionTopics.ACKS,
            AdAttributionTopics.ATTRIBUTED_CLICKS,
            AdAttributionTopics.LOG_RECORDS,
            AdAttributionTopics.DLQ);

    /** @return the input topics */
    public List<String> inputs() {
        return List.of(impressions, clicks, requests, acks);
    }

    /** @return every topic */
    public List<String> all() {
        return List.of(impressions, clicks, requests, acks, attributedClicks, logRecords, dlq);
    }
}
