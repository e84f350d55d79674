package dev.rtmstreams.reliability.internals;

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
            "ad-impressions",
            "ad-clicks",
            "ad-requests",
            "ad-acks",
            "attributed-clicks",
            "ad-log-records",
            "adattribution-dlq");

    /** @return the input topics */
    public List<String> inputs() {
        return List.of(impressions, clicks, requests, acks);
    }

    /** @return every topic */
    public List<String> all() {
        return List.of(impressions, clicks, requests, acks, attributedClicks, logRecords, dlq);
    }
}
