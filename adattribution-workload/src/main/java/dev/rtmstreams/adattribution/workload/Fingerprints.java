package dev.rtmstreams.adattribution.workload;

/** The canonical content strings compared between expected and observed outputs. */
public final class Fingerprints {

    private Fingerprints() {}

    /**
     * Fingerprint of an AttributedClick: every field except attributed_at.
     *
     * @return the canonical string
     */
    public static String attributedClick(
            String clickId,
            String impressionId,
            String userId,
            String campaignId,
            String adId,
            String publisherId,
            long bidMicros,
            long impressionTime,
            long clickTime) {
        return String.join(
                "|",
                clickId,
                impressionId,
                userId,
                campaignId,
                adId,
                publisherId,
                Long.toString(bidMicros),
                Long.toString(impressionTime),
                Long.toString(clickTime));
    }

    /**
     * Fingerprint of a LogRecord: transaction id, the request's ids, bid and time, the ack's fields
     * (not the record times and matched_at, which the broker and the service choose).
     *
     * @return the canonical string
     */
    public static String logRecord(
            String transactionId,
            String requestAdId,
            String campaignId,
            String userId,
            long bidMicros,
            long requestTime,
            String ackAdId,
            String status,
            long deliveryTime) {
        return String.join(
                "|",
                transactionId,
                requestAdId,
                campaignId,
                userId,
                Long.toString(bidMicros),
                Long.toString(requestTime),
                ackAdId,
                status,
                Long.toString(deliveryTime));
    }

    /**
     * Identity of a LogRecord.
     *
     * @return transaction id, ack status and delivery time joined
     */
    public static String logRecordIdentity(String transactionId, String status, long deliveryTime) {
        return transactionId + "|" + status + "|" + deliveryTime;
    }

    /**
     * Fingerprint of an echoed click.
     *
     * @return the canonical string
     */
    public static String click(String clickId, String impressionId, String userId, long clickTime) {
        return String.join("|", clickId, impressionId, userId, Long.toString(clickTime));
    }
}
