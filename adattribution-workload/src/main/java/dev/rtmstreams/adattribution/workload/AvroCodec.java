package dev.rtmstreams.adattribution.workload;

import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Device;
import dev.rtmstreams.adattribution.avro.Geo;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.avro.User;
import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.model.AvroWireSerde;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Maps {@link Event}s to the generated Avro classes of adattribution-model and encodes them with
 * its serdes in the run's wire format ({@link AvroWire}: single-object by default, or Confluent's framing with a
 * Schema Registry), and decodes output records into {@link Observed}s. Thread-safe.
 */
public final class AvroCodec {

    private static final String[] COUNTRIES = {"US", "DE", "FR", "GB", "JP", "BR", "IN", "CA"};
    private static final String[] CITIES = {
        "Springfield", "Berlin", "Lyon", "Leeds", "Osaka", "Recife", "Pune", "Quebec"
    };
    private static final String[] OSES = {"android", "ios", "tvos", "webos"};
    private static final String[] MODELS = {"pixel-8", "iphone-15", "apple-tv", "lg-c3", "galaxy-s24"};

    private final AvroWireSerde<Impression> impressions;
    private final AvroWireSerde<Click> clicks;
    private final AvroWireSerde<AdRequest> requests;
    private final AvroWireSerde<AdAck> acks;
    private final AvroWireSerde<AttributedClick> attributed;
    private final AvroWireSerde<LogRecord> logRecords;

    /** A codec of Avro single-object encoding on the default topics. */
    public AvroCodec() {
        this(AvroWire.singleObject(), TopicNames.DEFAULTS);
    }

    /**
     * A codec of a wire format; with Confluent's framing each topic's schema lives under {@code <topic>-value}.
     *
     * @param wire the wire format
     * @param topics the topic names
     */
    public AvroCodec(AvroWire wire, TopicNames topics) {
        this.impressions = wire.serde(Impression.class, topics.impressions());
        this.clicks = wire.serde(Click.class, topics.clicks());
        this.requests = wire.serde(AdRequest.class, topics.requests());
        this.acks = wire.serde(AdAck.class, topics.acks());
        this.attributed = wire.serde(AttributedClick.class, topics.attributedClicks());
        this.logRecords = wire.serde(LogRecord.class, topics.logRecords());
    }

    /**
     * Encodes the key of an event (UTF-8).
     *
     * @param e the event
     * @return the key bytes
     */
    public byte[] key(Event e) {
        return e.key().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Encodes an event's value in the codec's wire format.
     *
     * @param e the event
     * @return the value bytes
     */
    public byte[] value(Event e) {
        switch (e.kind()) {
            case IMPRESSION:
                return impressions.encode(Impression.newBuilder()
                        .setImpressionId(e.id())
                        .setUserId(e.userId())
                        .setCampaignId(e.campaignId())
                        .setAdId(e.adId())
                        .setPublisherId(e.publisherId())
                        .setBidMicros(e.bidMicros())
                        .setImpressionTime(Instant.ofEpochMilli(e.eventTime()))
                        .build());
            case CLICK:
                return clicks.encode(Click.newBuilder()
                        .setClickId(e.id())
                        .setImpressionId(e.ref())
                        .setUserId(e.userId())
                        .setClickTime(Instant.ofEpochMilli(e.eventTime()))
                        .build());
            case REQUEST:
                return requests.encode(request(e));
            default:
                return acks.encode(AdAck.newBuilder()
                        .setTransactionId(e.id())
                        .setAdId(e.adId())
                        .setStatus(e.status())
                        .setDeliveryTime(Instant.ofEpochMilli(e.eventTime()))
                        .build());
        }
    }

    /**
     * Builds the AdRequest of a request event; geo and device derive from the user id.
     *
     * @param e a REQUEST event
     * @return the record
     */
    static AdRequest request(Event e) {
        int h = Math.floorMod(e.userId().hashCode(), 1 << 20);
        return AdRequest.newBuilder()
                .setTransactionId(e.id())
                .setAdId(e.adId())
                .setCampaignId(e.campaignId())
                .setBid(e.bidMicros() / 1e6)
                .setUser(User.newBuilder()
                        .setUserId(e.userId())
                        .setGeo(Geo.newBuilder()
                                .setCountry(COUNTRIES[h % COUNTRIES.length])
                                .setCity(CITIES[h % CITIES.length])
                                .build())
                        .build())
                .setDevice(Device.newBuilder()
                        .setOs(OSES[h % OSES.length])
                        .setModel(MODELS[h % MODELS.length])
                        .build())
                .setRequestTime(Instant.ofEpochMilli(e.eventTime()))
                .build();
    }

    /**
     * Decodes an AttributedClick output.
     *
     * @param key the record key (may be null)
     * @param value the value bytes
     * @param receivedNanos receive time
     * @return the observed output
     * @throws RuntimeException if the bytes are not an AttributedClick
     */
    public Observed attributedClick(byte[] key, byte[] value, long receivedNanos) {
        AttributedClick r = attributed.decode(value);
        return new Observed(
                OutputKind.ATTRIBUTED_CLICK,
                keyString(key),
                r.getClickId(),
                Fingerprints.attributedClick(
                        r.getClickId(),
                        r.getImpressionId(),
                        r.getUserId(),
                        r.getCampaignId(),
                        r.getAdId(),
                        r.getPublisherId(),
                        r.getBidMicros(),
                        r.getImpressionTime().toEpochMilli(),
                        r.getClickTime().toEpochMilli()),
                receivedNanos);
    }

    /**
     * Decodes a LogRecord output.
     *
     * @param key the record key (may be null)
     * @param value the value bytes
     * @param receivedNanos receive time
     * @return the observed output
     * @throws RuntimeException if the bytes are not a LogRecord
     */
    public Observed logRecord(byte[] key, byte[] value, long receivedNanos) {
        LogRecord r = logRecords.decode(value);
        AdRequest req = r.getRequest();
        AdAck ack = r.getAck();
        long delivery = ack.getDeliveryTime().toEpochMilli();
        return new Observed(
                OutputKind.LOG_RECORD,
                keyString(key),
                Fingerprints.logRecordIdentity(r.getTransactionId(), ack.getStatus(), delivery),
                Fingerprints.logRecord(
                        r.getTransactionId(),
                        req.getAdId(),
                        req.getCampaignId(),
                        req.getUser().getUserId(),
                        Math.round(req.getBid() * 1e6),
                        req.getRequestTime().toEpochMilli(),
                        ack.getAdId(),
                        ack.getStatus(),
                        delivery),
                receivedNanos);
    }

    /**
     * Decodes an echoed click.
     *
     * @param key the record key (may be null)
     * @param value the value bytes
     * @param receivedNanos receive time
     * @return the observed output
     * @throws RuntimeException if the bytes are not a Click
     */
    public Observed echo(byte[] key, byte[] value, long receivedNanos) {
        Click r = clicks.decode(value);
        return new Observed(
                OutputKind.ECHO,
                keyString(key),
                r.getClickId(),
                Fingerprints.click(
                        r.getClickId(),
                        r.getImpressionId(),
                        r.getUserId(),
                        r.getClickTime().toEpochMilli()),
                receivedNanos);
    }

    private static String keyString(byte[] key) {
        return key == null ? "" : new String(key, StandardCharsets.UTF_8);
    }
}
