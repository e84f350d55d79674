package dev.rtmstreams.adattribution.workload;

import java.util.Objects;

/**
 * One generated input record, independent of the wire format (see {@link AvroCodec} for the Avro
 * mapping). Events are immutable and listed in send order: {@link #seq()} is the position in that
 * order and {@link #offsetMicros()} the scheduled send time relative to the start of the run.
 *
 * <p>Field use per kind:
 * <ul>
 *   <li>IMPRESSION: key = id = impression_id; userId, campaignId, adId, publisherId, bidMicros;
 *       eventTime = impression_time.</li>
 *   <li>CLICK: key = ref = impression_id, id = click_id, userId; eventTime = click_time.</li>
 *   <li>REQUEST: key = id = transaction_id; userId, campaignId, adId, bidMicros (bid = micros / 1e6);
 *       eventTime = request_time.</li>
 *   <li>ACK: key = id = transaction_id; adId, status; eventTime = delivery_time.</li>
 * </ul>
 * Unused string fields are empty strings, never null.
 *
 * @param seq position in send order, from 0
 * @param offsetMicros scheduled send time in microseconds after the start of the run
 * @param kind the record kind (selects the topic)
 * @param id impression_id, click_id or transaction_id
 * @param ref the referenced impression_id of a click; empty otherwise
 * @param eventTime event time in epoch milliseconds (also used as the Kafka record timestamp)
 * @param userId user id
 * @param campaignId campaign id
 * @param adId ad id
 * @param publisherId publisher id
 * @param bidMicros bid in micro-units
 * @param status ack status
 * @param tag why the generator produced the event (statistics and debugging only)
 */
public record Event(
        long seq,
        long offsetMicros,
        EventKind kind,
        String id,
        String ref,
        long eventTime,
        String userId,
        String campaignId,
        String adId,
        String publisherId,
        long bidMicros,
        String status,
        EventTag tag) {

    /** Validates that no field is null. */
    public Event {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(campaignId, "campaignId");
        Objects.requireNonNull(adId, "adId");
        Objects.requireNonNull(publisherId, "publisherId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(tag, "tag");
    }

    /**
     * Returns the Kafka record key: impression_id for impressions and clicks, transaction_id for
     * requests and acks.
     *
     * @return the key; never null
     */
    public String key() {
        return kind == EventKind.CLICK ? ref : id;
    }

    /**
     * Returns a copy placed at another position of the send order.
     *
     * @param newSeq the new position
     * @param newOffsetMicros the new scheduled send offset
     * @return the copy
     */
    public Event at(long newSeq, long newOffsetMicros) {
        return copy(newSeq, newOffsetMicros, eventTime, tag);
    }

    /**
     * Returns a copy with event time shifted by {@code deltaMillis}.
     *
     * @param deltaMillis milliseconds to add
     * @return the copy
     */
    public Event shifted(long deltaMillis) {
        return copy(seq, offsetMicros, eventTime + deltaMillis, tag);
    }

    /**
     * Returns a copy with another tag.
     *
     * @param newTag the tag
     * @return the copy
     */
    public Event tagged(EventTag newTag) {
        return copy(seq, offsetMicros, eventTime, newTag);
    }

    /** @return a copy with the given send position, event time and tag, the other fields kept */
    private Event copy(long newSeq, long newOffsetMicros, long newEventTime, EventTag newTag) {
        return new Event(
                newSeq,
                newOffsetMicros,
                kind,
                id,
                ref,
                newEventTime,
                userId,
                campaignId,
                adId,
                publisherId,
                bidMicros,
                status,
                newTag);
    }

    /** Creates an impression. */
    static Event impression(
            String impressionId,
            long time,
            String user,
            String campaign,
            String ad,
            String publisher,
            long bidMicros,
            EventTag tag) {
        return new Event(
                0, 0, EventKind.IMPRESSION, impressionId, "", time, user, campaign, ad, publisher, bidMicros, "", tag);
    }

    /** Creates a click. */
    static Event click(String clickId, String impressionId, long time, String user, EventTag tag) {
        return new Event(0, 0, EventKind.CLICK, clickId, impressionId, time, user, "", "", "", 0, "", tag);
    }

    /** Creates an ad request. */
    static Event request(
            String transactionId, long time, String user, String campaign, String ad, long bidMicros, EventTag tag) {
        return new Event(0, 0, EventKind.REQUEST, transactionId, "", time, user, campaign, ad, "", bidMicros, "", tag);
    }

    /** Creates an ack. */
    static Event ack(String transactionId, long time, String ad, String status, EventTag tag) {
        return new Event(0, 0, EventKind.ACK, transactionId, "", time, "", "", ad, "", 0, status, tag);
    }
}
