package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.adattribution.model.AvroSerde;
import dev.rtmstreams.adattribution.workload.TopicNames;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The join peers of the benchmark: the click attribution written the way a Kafka Streams user would
 * write it with the built-in windowed join, on the same topics and Avro wire format.
 *
 * <pre>
 * impressions --dedup(impression_id)--+
 *                                      +-- KStream#join(JoinWindows [imp_time, imp_time + window], grace) --> attributed-clicks
 * clicks ------dedup(click_id)---------+
 * </pre>
 *
 * <p>Semantics differences from the service (none of which the generated workload exercises,
 * see {@code WorkloadConfig}): event time is the record timestamp (the generator sets it to the
 * event-time field); lateness is decided per window store against the task's stream time, the
 * maximum timestamp seen on either side, with the grace period ({@code watermarkDelay}) instead of
 * the service's global watermark {@code min(max imp, max click) - delay}; a record is dropped
 * only once its window (plus grace) has closed, so "late" is looser on the slower side; the dedup
 * stores here are never pruned (fine for a benchmark run, unbounded in production).
 * {@link KafkaStreamsPeer} runs it, with the stock or with real-time mode's client settings.
 */
public final class KafkaStreamsJoinPipeline {

    private static final String IMPRESSION_DEDUP = "impression-dedup";
    private static final String CLICK_DEDUP = "click-dedup";

    private KafkaStreamsJoinPipeline() {}

    /**
     * Builds the topology.
     *
     * @param topics topic names
     * @param window attribution window
     * @param grace grace period of the join windows (the watermark delay)
     * @return the topology
     */
    public static Topology topology(TopicNames topics, Duration window, Duration grace) {
        AvroSerde<Impression> impressionSerde = AdAttributionSerdes.impression();
        AvroSerde<Click> clickSerde = AdAttributionSerdes.click();
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(IMPRESSION_DEDUP), Serdes.String(), Serdes.Long())
                .withCachingDisabled());
        builder.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CLICK_DEDUP), Serdes.String(), Serdes.Long())
                        .withCachingDisabled());
        KStream<String, Impression> impressions = builder.stream(
                        topics.impressions(),
                        Consumed.with(Serdes.String(), impressionSerde).withName("impressions"))
                .processValues(
                        () -> new Dedup<Impression>(IMPRESSION_DEDUP, Impression::getImpressionId),
                        Named.as("dedup-impressions"),
                        IMPRESSION_DEDUP);
        KStream<String, Click> clicks = builder.stream(
                        topics.clicks(),
                        Consumed.with(Serdes.String(), clickSerde).withName("clicks"))
                .processValues(
                        () -> new Dedup<Click>(CLICK_DEDUP, Click::getClickId), Named.as("dedup-clicks"), CLICK_DEDUP);
        // click_time in [impression_time, impression_time + window]
        JoinWindows windows =
                JoinWindows.ofTimeDifferenceAndGrace(window, grace).before(Duration.ZERO);
        impressions
                .join(
                        clicks,
                        KafkaStreamsJoinPipeline::attributed,
                        windows,
                        StreamJoined.with(Serdes.String(), impressionSerde, clickSerde)
                                .withName("attribution")
                                .withStoreName("attribution"))
                .processValues(Stamp::new, Named.as("stamp-attributed-at"))
                .to(
                        topics.attributedClicks(),
                        Produced.with(Serdes.String(), AdAttributionSerdes.attributedClick())
                                .withName("attributed-clicks"));
        return builder.build();
    }

    private static AttributedClick attributed(Impression impression, Click click) {
        return AttributedClick.newBuilder()
                .setClickId(click.getClickId())
                .setImpressionId(impression.getImpressionId())
                .setUserId(click.getUserId())
                .setCampaignId(impression.getCampaignId())
                .setAdId(impression.getAdId())
                .setPublisherId(impression.getPublisherId())
                .setBidMicros(impression.getBidMicros())
                .setImpressionTime(impression.getImpressionTime())
                .setClickTime(click.getClickTime())
                .setAttributedAt(Instant.EPOCH)
                .build();
    }

    /** Forwards the first record per id; later copies are dropped. */
    private static final class Dedup<V> implements FixedKeyProcessor<String, V, V> {
        private final String storeName;
        private final Function<V, String> id;
        private FixedKeyProcessorContext<String, V> context;
        private KeyValueStore<String, Long> seen;

        Dedup(String storeName, Function<V, String> id) {
            this.storeName = storeName;
            this.id = id;
        }

        @Override
        public void init(FixedKeyProcessorContext<String, V> context) {
            this.context = context;
            this.seen = context.getStateStore(storeName);
        }

        @Override
        public void process(FixedKeyRecord<String, V> record) {
            if (record.value() == null) {
                return;
            }
            if (seen.putIfAbsent(id.apply(record.value()), record.timestamp()) == null) {
                context.forward(record);
            }
        }
    }

    /** Sets attributed_at to the processing time at which the match is emitted. */
    private static final class Stamp implements FixedKeyProcessor<String, AttributedClick, AttributedClick> {
        private FixedKeyProcessorContext<String, AttributedClick> context;

        @Override
        public void init(FixedKeyProcessorContext<String, AttributedClick> context) {
            this.context = context;
        }

        @Override
        public void process(FixedKeyRecord<String, AttributedClick> record) {
            record.value().setAttributedAt(Instant.ofEpochMilli(context.currentSystemTimeMs()));
            context.forward(record);
        }
    }
}
