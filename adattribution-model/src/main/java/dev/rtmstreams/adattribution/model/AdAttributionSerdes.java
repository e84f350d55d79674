package dev.rtmstreams.adattribution.model;

import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.avro.LogRecord;

/**
 * Ready-made {@link AvroSerde}s for the ad-attribution topics, each reading payloads written with
 * the current schema. Each call returns a new serde; serdes are thread-safe and may be shared.
 */
public final class AdAttributionSerdes {

    private AdAttributionSerdes() {}

    /**
     * Returns the serde of topic {@code ad-impressions}.
     *
     * @return a serde for {@link Impression}
     */
    public static AvroSerde<Impression> impression() {
        return AvroSerde.of(Impression.class);
    }

    /**
     * Returns the serde of topic {@code ad-clicks}.
     *
     * @return a serde for {@link Click}
     */
    public static AvroSerde<Click> click() {
        return AvroSerde.of(Click.class);
    }

    /**
     * Returns the serde of topic {@code attributed-clicks}.
     *
     * @return a serde for {@link AttributedClick}
     */
    public static AvroSerde<AttributedClick> attributedClick() {
        return AvroSerde.of(AttributedClick.class);
    }

    /**
     * Returns the serde of topic {@code ad-requests}.
     *
     * @return a serde for {@link AdRequest}
     */
    public static AvroSerde<AdRequest> adRequest() {
        return AvroSerde.of(AdRequest.class);
    }

    /**
     * Returns the serde of topic {@code ad-acks}.
     *
     * @return a serde for {@link AdAck}
     */
    public static AvroSerde<AdAck> adAck() {
        return AvroSerde.of(AdAck.class);
    }

    /**
     * Returns the serde of topic {@code ad-log-records}.
     *
     * @return a serde for {@link LogRecord}
     */
    public static AvroSerde<LogRecord> logRecord() {
        return AvroSerde.of(LogRecord.class);
    }
}
