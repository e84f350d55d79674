package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Device;
import dev.rtmstreams.adattribution.avro.Geo;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.avro.User;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import java.time.Instant;
import org.apache.avro.specific.SpecificRecord;

/** Test events and their single-object encoding. */
public final class Events {
    private Events() {}

    public static Impression impression(String id, long timeMs) {
        return Impression.newBuilder()
                .setImpressionId(id)
                .setUserId("u-" + id)
                .setCampaignId("c-1")
                .setAdId("ad-" + id)
                .setPublisherId("pub-1")
                .setBidMicros(1500)
                .setImpressionTime(Instant.ofEpochMilli(timeMs))
                .build();
    }

    public static Click click(String clickId, String impressionId, long timeMs) {
        return Click.newBuilder()
                .setClickId(clickId)
                .setImpressionId(impressionId)
                .setUserId("u-" + impressionId)
                .setClickTime(Instant.ofEpochMilli(timeMs))
                .build();
    }

    public static AdRequest request(String txId, long timeMs) {
        return AdRequest.newBuilder()
                .setTransactionId(txId)
                .setAdId("ad-" + txId)
                .setCampaignId("c-1")
                .setBid(0.25)
                .setUser(User.newBuilder()
                        .setUserId("u-" + txId)
                        .setGeo(Geo.newBuilder()
                                .setCountry("NL")
                                .setCity("Utrecht")
                                .build())
                        .build())
                .setDevice(Device.newBuilder().setOs("tvOS").setModel("box").build())
                .setRequestTime(Instant.ofEpochMilli(timeMs))
                .build();
    }

    public static AdAck ack(String txId, String status, long timeMs) {
        return AdAck.newBuilder()
                .setTransactionId(txId)
                .setAdId("ad-" + txId)
                .setStatus(status)
                .setDeliveryTime(Instant.ofEpochMilli(timeMs))
                .build();
    }

    /** Avro single-object encoding of a generated record, with the model's serdes. */
    public static byte[] encode(SpecificRecord record) {
        if (record instanceof Impression i) {
            return AdAttributionSerdes.impression().encode(i);
        } else if (record instanceof Click c) {
            return AdAttributionSerdes.click().encode(c);
        } else if (record instanceof AdRequest r) {
            return AdAttributionSerdes.adRequest().encode(r);
        } else if (record instanceof AdAck a) {
            return AdAttributionSerdes.adAck().encode(a);
        }
        throw new IllegalArgumentException("unsupported " + record.getClass());
    }
}
