package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Device;
import dev.rtmstreams.adattribution.avro.Geo;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.avro.User;
import dev.rtmstreams.adattribution.model.AvroSerde;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends hand-made probe records (Avro single-object encoding, like the generator) whose outputs the
 * {@link OutputMonitor} counts: each send waits for the broker's acknowledgement.
 */
public final class Probes implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final ServiceTopics topics;
    private final AvroSerde<Impression> impressions = AvroSerde.of(Impression.class);
    private final AvroSerde<Click> clicks = AvroSerde.of(Click.class);
    private final AvroSerde<AdRequest> requests = AvroSerde.of(AdRequest.class);
    private final AvroSerde<AdAck> acks = AvroSerde.of(AdAck.class);

    /**
     * @param kafka the cluster and client settings
     * @param topics topic names
     */
    public Probes(KafkaConnection kafka, ServiceTopics topics) {
        this.topics = topics;
        producer = new KafkaProducer<>(kafka.config(Map.of(
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.CLIENT_ID_CONFIG,
                "chaos-probes")));
    }

    /**
     * Sends an impression.
     *
     * @param impressionId id (the key)
     * @param eventTime impression_time (also the record timestamp)
     */
    public void impression(String impressionId, long eventTime) {
        Impression i = Impression.newBuilder()
                .setImpressionId(impressionId)
                .setUserId("u-" + impressionId)
                .setCampaignId("c1")
                .setAdId("a1")
                .setPublisherId("p1")
                .setBidMicros(1000)
                .setImpressionTime(Instant.ofEpochMilli(eventTime))
                .build();
        send(topics.impressions(), impressionId, eventTime, impressions.encode(i));
    }

    /**
     * Sends a click.
     *
     * @param clickId id
     * @param impressionId the impression (the key)
     * @param eventTime click_time (also the record timestamp)
     */
    public void click(String clickId, String impressionId, long eventTime) {
        Click c = Click.newBuilder()
                .setClickId(clickId)
                .setImpressionId(impressionId)
                .setUserId("u-" + impressionId)
                .setClickTime(Instant.ofEpochMilli(eventTime))
                .build();
        send(topics.clicks(), impressionId, eventTime, clicks.encode(c));
    }

    /**
     * Sends an ad request.
     *
     * @param transactionId the key
     * @param time request_time and record timestamp
     */
    public void request(String transactionId, long time) {
        AdRequest r = AdRequest.newBuilder()
                .setTransactionId(transactionId)
                .setAdId("ad-" + transactionId)
                .setCampaignId("c1")
                .setBid(1.0)
                .setUser(User.newBuilder()
                        .setUserId("u1")
                        .setGeo(Geo.newBuilder()
                                .setCountry("NL")
                                .setCity("Delft")
                                .build())
                        .build())
                .setDevice(Device.newBuilder().setOs("linux").setModel("m1").build())
                .setRequestTime(Instant.ofEpochMilli(time))
                .build();
        send(topics.requests(), transactionId, time, requests.encode(r));
    }

    /**
     * Sends an ad ack; its {@code ad_id} tells acks of one transaction apart in the outputs.
     *
     * @param transactionId the key
     * @param ackId the ack's ad_id
     * @param time delivery_time and record timestamp
     */
    public void ack(String transactionId, String ackId, long time) {
        AdAck a = AdAck.newBuilder()
                .setTransactionId(transactionId)
                .setAdId(ackId)
                .setStatus("delivered")
                .setDeliveryTime(Instant.ofEpochMilli(time))
                .build();
        send(topics.acks(), transactionId, time, acks.encode(a));
    }

    private void send(String topic, String key, long timestamp, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, null, timestamp, key, value))
                    .get(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending a probe", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot send a probe to " + topic + ": " + e, e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
