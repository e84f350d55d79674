package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.adattribution.model.AvroSerde;
import dev.rtmstreams.adattribution.workload.TopicNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
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
 * The peer of the benchmark: the click attribution written the way a Kafka Streams user would
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
 * Client settings: at-least-once, the bench's stream-thread count, producer linger 1 ms, record cache off.
 */
public final class KafkaStreamsJoinPipeline implements AutoCloseable {

    private static final String IMPRESSION_DEDUP = "impression-dedup";
    private static final String CLICK_DEDUP = "click-dedup";

    private final KafkaStreams streams;
    private final Path stateDir;

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

    /**
     * Starts the pipeline.
     *
     * @param bootstrapServers the cluster
     * @param applicationId the application id (consumer group, internal topic prefix)
     * @param topics topic names
     * @param window attribution window
     * @param grace grace period
     * @param streamThreads number of stream threads
     * @throws IOException if the state directory cannot be created
     */
    public KafkaStreamsJoinPipeline(
            String bootstrapServers,
            String applicationId,
            TopicNames topics,
            Duration window,
            Duration grace,
            int streamThreads)
            throws IOException {
        this.stateDir = Files.createTempDirectory("loadgen-ksj-");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, streamThreads);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 1);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 100);
        this.streams = new KafkaStreams(topology(topics, window, grace), p);
        this.streams.start();
    }

    /**
     * Waits until the application is RUNNING (partitions assigned, stores restored).
     *
     * @param timeout how long to wait
     * @return whether it is running
     * @throws InterruptedException if interrupted
     */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (streams.state() == KafkaStreams.State.RUNNING) {
                return true;
            }
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING) {
                return false;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** Closes the application and deletes its state directory. */
    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
        StateDirectories.delete(stateDir);
    }
}
