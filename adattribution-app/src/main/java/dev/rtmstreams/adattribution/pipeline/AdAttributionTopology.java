package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.model.AvroWireSerde;
import dev.rtmstreams.adattribution.model.SchemaRegistryClient;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.topology.ForeachSink;
import java.time.Duration;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Builds the service's Kafka Streams topology from its configuration, on the public APIs of
 * rtm-stateful-processor and rtm-join only (as any user would).
 *
 * <pre>
 *  ad-impressions ─ decode ─┐
 *                           ├ IntervalJoin(impression_id, 0..window, wm delay, distinct impression_id / click_id) ─ stamp ─ attributed-clicks
 *  ad-clicks ────── decode ─┘
 *  ad-requests ─ decode ─┐
 *                        ├ merge ─ TransformWithState(LogRecordProcessor, PROCESSING_TIME) ─ ad-log-records
 *  ad-acks ───── decode ─┘
 *  every decode step ── failures (with error headers) ─ adattribution-dlq
 * </pre>
 *
 * Two sub-topologies, so {@code 2 x partitions} tasks (slots).
 */
public final class AdAttributionTopology {

    /** Name of the click attribution join (metric tag {@code rtm-join-id}). */
    public static final String JOIN_NAME = "click-attribution";
    /** Name of the optional PostgreSQL sink of attributed clicks ({@code --postgres-url}). */
    public static final String POSTGRES_SINK_NAME = "attributed-clicks-postgres";
    /** Name of the request/ack correlation operator. */
    public static final String CORRELATION_NAME = "request-ack-correlation";

    /** Serde of dead-lettered values: the raw bytes the decode step forwards to the dead-letter sink. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final Serde<Object> RAW = (Serde) Serdes.ByteArray();

    private AdAttributionTopology() {}

    /**
     * Builds the topology.
     *
     * @param config the service configuration
     * @param deadLetters counts dead-lettered records (shared with /metrics)
     * @return the topology
     */
    public static Topology build(AppConfig config, DeadLetterCounter deadLetters) {
        StreamsBuilder builder = new StreamsBuilder();
        ServiceTopics topics = config.topics();
        // Every topic's Avro framing (--wire-format) comes from here; the rest of the topology does not care which.
        AvroWire wire = wire(config);
        AvroWireSerde<Impression> impressionSerde = wire.serde(Impression.class, topics.impressions());
        AvroWireSerde<Click> clickSerde = wire.serde(Click.class, topics.clicks());

        // The join inputs carry their wire bytes, so buffering a row needs no Avro encoding.
        KStream<String, Encoded<Impression>> impressions = decoded(
                builder,
                topics.impressions(),
                topics.dlq(),
                "impressions",
                impressionSerde::decode,
                Impression::getImpressionId,
                "impression_id",
                (v, bytes, ts) -> new Encoded<>(v, bytes),
                (v, ts) -> Times.millis(v.getImpressionTime()),
                deadLetters);
        KStream<String, Encoded<Click>> clicks = decoded(
                builder,
                topics.clicks(),
                topics.dlq(),
                "clicks",
                clickSerde::decode,
                Click::getImpressionId,
                "impression_id",
                (v, bytes, ts) -> new Encoded<>(v, bytes),
                (v, ts) -> Times.millis(v.getClickTime()),
                deadLetters);

        IntervalJoin<String, Encoded<Impression>, Encoded<Click>> join =
                clickAttribution(config, impressionSerde, clickSerde);
        Serde<AttributedClick> attributedSerde = wire.serde(AttributedClick.class, topics.attributedClicks());
        KStream<String, AttributedClick> attributed = join.join(
                        impressions, clicks, (impressionId, imp, click) -> attribute(imp.value(), click.value()))
                .processValues(StampAttributedAt::new, Named.as("stamp-attributed-at"));
        attributed.to(
                topics.attributedClicks(),
                Produced.with(Serdes.String(), attributedSerde).withName("attributed-clicks-sink"));
        config.postgres()
                .ifPresent(pg -> attributed.process(
                        ForeachSink.processor(POSTGRES_SINK_NAME, () -> new AttributedClickPostgresSink(pg)),
                        Named.as(POSTGRES_SINK_NAME)));

        KStream<String, CorrelationEvent> requests = decoded(
                builder,
                topics.requests(),
                topics.dlq(),
                "requests",
                wire.serde(AdRequest.class, topics.requests())::decode,
                AdRequest::getTransactionId,
                "transaction_id",
                (v, bytes, ts) -> CorrelationEvent.ofRequest(v, ts),
                (v, ts) -> ts, // the correlation counts its window in record time
                deadLetters);
        KStream<String, CorrelationEvent> acks = decoded(
                builder,
                topics.acks(),
                topics.dlq(),
                "acks",
                wire.serde(AdAck.class, topics.acks())::decode,
                AdAck::getTransactionId,
                "transaction_id",
                (v, bytes, ts) -> CorrelationEvent.ofAck(v, ts),
                (v, ts) -> ts,
                deadLetters);
        Duration window = config.correlationWindow();
        TransformWithState<String, CorrelationEvent, LogRecord> correlation =
                TransformWithState.<String, CorrelationEvent, LogRecord>builder(
                                () -> new LogRecordProcessor(window), TimeMode.PROCESSING_TIME)
                        .name(CORRELATION_NAME)
                        .keySerde(Serdes.String())
                        .valueSerde(CorrelationEvent.serde())
                        .build();
        requests.merge(acks, Named.as("merge-requests-acks"))
                .process(correlation, Named.as(CORRELATION_NAME))
                .to(
                        topics.logRecords(),
                        Produced.with(Serdes.String(), wire.serde(LogRecord.class, topics.logRecords()))
                                .withName("log-records-sink"));
        return builder.build();
    }

    /**
     * The click attribution join as the topology builds it (also for reading its state, {@link ReadableOperators}).
     *
     * @param config the service configuration
     * @param impressionSerde the impressions' serde
     * @param clickSerde the clicks' serde
     * @return the join
     */
    static IntervalJoin<String, Encoded<Impression>, Encoded<Click>> clickAttribution(
            AppConfig config, AvroWireSerde<Impression> impressionSerde, AvroWireSerde<Click> clickSerde) {
        IntervalJoin.Builder<String, Encoded<Impression>, Encoded<Click>> join =
                IntervalJoin.<String, Encoded<Impression>, Encoded<Click>>builder()
                        .keySerde(Serdes.String())
                        .leftSerde(Encoded.serde(impressionSerde))
                        .rightSerde(Encoded.serde(clickSerde))
                        .leftEventTime((k, imp, ts) -> Times.millis(imp.value().getImpressionTime()))
                        .rightEventTime(
                                (k, click, ts) -> Times.millis(click.value().getClickTime()))
                        .leftWatermarkDelay(config.watermarkDelay())
                        .rightWatermarkDelay(config.watermarkDelay())
                        .lowerBound(Duration.ZERO)
                        .upperBound(config.attributionWindow())
                        .joinType(JoinType.INNER)
                        // Duplicates are dropped inside the join, first copy wins: an impression whose impression_id
                        // is still buffered, a click whose click_id is still buffered under its impression_id. So
                        // each distinct click joins its impression once: exactly one AttributedClick per distinct
                        // matching click, as the oracle's first-copy rule says. The buffers are the memory (an exact
                        // copy meets its first copy or is late); no deduplication store and no repartition.
                        .leftDistinctBy((impressionId, imp) -> imp.value().getImpressionId(), Serdes.String())
                        .rightDistinctBy((impressionId, click) -> click.value().getClickId(), Serdes.String())
                        .evictionIndex(config.evictionIndex())
                        .name(JOIN_NAME);
        config.lateRecordsTopic().ifPresent(join::lateRecordsTopic);
        return join.build();
    }

    /**
     * Returns the wire format of a configuration: single-object, or Confluent's framing with a registry client built
     * from the configured url and credentials (schemas are registered and looked up on first use, not here).
     *
     * @param config the service configuration
     * @return the wire
     */
    public static AvroWire wire(AppConfig config) {
        return config.schemaRegistry()
                .map(r -> AvroWire.confluent(SchemaRegistryClient.builder(r.url())
                        .basicAuth(r.user(), r.password())
                        .build()))
                .orElse(AvroWire.singleObject());
    }

    static AttributedClick attribute(Impression imp, Click click) {
        return AttributedClick.newBuilder()
                .setClickId(click.getClickId())
                .setImpressionId(imp.getImpressionId())
                .setUserId(click.getUserId())
                .setCampaignId(imp.getCampaignId())
                .setAdId(imp.getAdId())
                .setPublisherId(imp.getPublisherId())
                .setBidMicros(imp.getBidMicros())
                .setImpressionTime(imp.getImpressionTime())
                .setClickTime(click.getClickTime())
                .setAttributedAt(Times.wire(0L)) // set by StampAttributedAt at emission
                .build();
    }

    private static <T, O> KStream<String, O> decoded(
            StreamsBuilder builder,
            String topic,
            String dlqTopic,
            String name,
            DecodeProcessor.Decoder<T> decoder,
            Function<T, String> idOf,
            String idField,
            DecodeProcessor.Wrapper<T, O> wrapper,
            DecodeProcessor.EventTime<T> eventTime,
            DeadLetterCounter deadLetters) {
        String valueNode = "value-" + name;
        String deadLetterSink = "dlq-" + name + "-sink";
        // The decode step forwards each record to exactly one of its two children, by name: decoded values to
        // valueNode, undecodable records (raw bytes, error headers) to the dead-letter sink.
        KStream<String, Object> decoded = builder.stream(
                        topic,
                        Consumed.with(Serdes.String(), Serdes.ByteArray()).withName(name + "-source"))
                .processValues(
                        () -> new DecodeProcessor<>(
                                decoder, idOf, idField, wrapper, eventTime, deadLetters, valueNode, deadLetterSink),
                        Named.as("decode-" + name));
        decoded.to(dlqTopic, Produced.with(Serdes.String(), RAW).withName(deadLetterSink));
        @SuppressWarnings("unchecked")
        KStream<String, O> values = decoded.mapValues(v -> (O) v, Named.as(valueNode));
        return values;
    }
}
