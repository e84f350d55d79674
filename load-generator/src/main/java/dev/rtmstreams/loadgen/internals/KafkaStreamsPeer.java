package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.tools.Directories;
import dev.rtmstreams.topology.RealTimeClientSettings;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * A Kafka Streams peer of the bench: a topology run by a plain {@link KafkaStreams} (no rtm-streams runtime), with
 * a fresh state directory that is deleted on close. Which topology and which client settings is its {@link Kind}.
 */
final class KafkaStreamsPeer implements AutoCloseable {

    /** The Kafka Streams peers, one per bench mode. */
    enum Kind {
        /**
         * {@code kafka-streams-join}: the built-in {@code KStream#join} ({@link KafkaStreamsJoinPipeline}) with the
         * client settings a user writes down first ({@link #stockProperties}): what you get by switching.
         */
        JOIN("kafka-streams-join", false, LoadRun.Outputs.ATTRIBUTION),
        /**
         * {@code kafka-streams-join-tuned}: the same join with real-time mode's own client settings
         * ({@link #realTimeProperties}): what the engine adds.
         */
        JOIN_TUNED("kafka-streams-join-tuned", true, LoadRun.Outputs.ATTRIBUTION),
        /**
         * {@code kafka-streams-join-eos}: the stock join under {@code exactly_once_v2} with Kafka Streams' default
         * commit interval under exactly-once (100 ms): what a user gets by switching to exactly-once.
         */
        JOIN_EOS("kafka-streams-join-eos", false, LoadRun.Outputs.ATTRIBUTION, true),
        /**
         * {@code kafka-streams-join-eos-tuned}: the join under {@code exactly_once_v2} with real-time mode's client
         * settings and its transaction interval as the commit interval ({@link RtmStreams#DEFAULT_TRANSACTION_INTERVAL}):
         * what real-time exactly-once adds over Kafka Streams tuned the same way.
         */
        JOIN_EOS_TUNED("kafka-streams-join-eos-tuned", true, LoadRun.Outputs.ATTRIBUTION, true),
        /**
         * {@code kafka-streams-passthrough}: a source to sink topology ({@link KafkaStreamsPassthroughPipeline}) with
         * real-time mode's client settings, checked like the echo: the floor any Kafka Streams extension pays.
         */
        PASSTHROUGH("kafka-streams-passthrough", true, LoadRun.Outputs.ECHO);

        private final String mode;
        private final boolean realTimeSettings;
        private final LoadRun.Outputs outputs;
        private final boolean exactlyOnce;

        Kind(String mode, boolean realTimeSettings, LoadRun.Outputs outputs) {
            this(mode, realTimeSettings, outputs, false);
        }

        Kind(String mode, boolean realTimeSettings, LoadRun.Outputs outputs, boolean exactlyOnce) {
            this.mode = mode;
            this.realTimeSettings = realTimeSettings;
            this.outputs = outputs;
            this.exactlyOnce = exactlyOnce;
        }

        /** @return the bench mode that runs this peer */
        String mode() {
            return mode;
        }

        /** @return what it writes, for the run to check */
        LoadRun.Outputs outputs() {
            return outputs;
        }

        /**
         * @param topics topic names
         * @param window attribution window (the join's)
         * @param grace grace period of the join windows (the watermark delay)
         * @return the topology this peer runs
         */
        Topology topology(TopicNames topics, Duration window, Duration grace) {
            return this == PASSTHROUGH
                    ? KafkaStreamsPassthroughPipeline.topology(topics)
                    : KafkaStreamsJoinPipeline.topology(topics, window, grace);
        }

        /**
         * @param mode a bench mode
         * @return the peer that mode runs, or null when it runs none
         */
        static Kind ofMode(String mode) {
            for (Kind k : values()) {
                if (k.mode.equals(mode)) {
                    return k;
                }
            }
            return null;
        }
    }

    private final KafkaStreams streams;
    private final Path stateDir;

    /**
     * Starts a peer.
     *
     * @param kind which peer
     * @param bootstrapServers the cluster
     * @param applicationId the application id (consumer group, internal topic prefix)
     * @param topics topic names
     * @param window attribution window
     * @param grace grace period
     * @param streamThreads number of stream threads
     * @param replicationFactor replication factor of the internal topics (changelogs, repartitions); above 1 the
     *     producer also sends with {@code acks=all}
     * @throws IOException if the state directory cannot be created
     */
    KafkaStreamsPeer(
            Kind kind,
            String bootstrapServers,
            String applicationId,
            TopicNames topics,
            Duration window,
            Duration grace,
            int streamThreads,
            int replicationFactor)
            throws IOException {
        Objects.requireNonNull(kind, "kind");
        this.stateDir = Files.createTempDirectory("loadgen-ksj-");
        this.streams = new KafkaStreams(
                kind.topology(topics, window, grace),
                properties(kind, bootstrapServers, applicationId, stateDir, streamThreads, replicationFactor));
        this.streams.start();
    }

    /**
     * The Kafka Streams properties of a peer: what every peer shares (its guarantee: at-least-once, or
     * {@code exactly_once_v2} for the {@code -eos} peers; input from the earliest offset, replication factor 1 unless given, the
     * bench's stream-thread count), then {@link #stockProperties} or {@link #realTimeProperties}.
     *
     * @param kind which peer
     * @param bootstrapServers the cluster
     * @param applicationId the application id
     * @param stateDir the state directory
     * @param streamThreads number of stream threads
     * @return new properties
     */
    static Properties properties(
            Kind kind, String bootstrapServers, String applicationId, Path stateDir, int streamThreads) {
        return properties(kind, bootstrapServers, applicationId, stateDir, streamThreads, 1);
    }

    /**
     * The Kafka Streams properties of a peer on a cluster whose topics have {@code replicationFactor} replicas: as
     * {@link #properties(Kind, String, String, Path, int)}, with the internal topics at that factor and, above 1, the
     * producer at {@code acks=all} (Kafka's default, set so that no setting of the peer's weakens it).
     *
     * @param kind which peer
     * @param bootstrapServers the cluster
     * @param applicationId the application id
     * @param stateDir the state directory
     * @param streamThreads number of stream threads
     * @param replicationFactor replication factor of the internal topics; positive
     * @return new properties
     */
    static Properties properties(
            Kind kind,
            String bootstrapServers,
            String applicationId,
            Path stateDir,
            int streamThreads,
            int replicationFactor) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, streamThreads);
        p.put(
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                kind.exactlyOnce ? StreamsConfig.EXACTLY_ONCE_V2 : StreamsConfig.AT_LEAST_ONCE);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, replicationFactor);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.putAll(kind.realTimeSettings ? realTimeProperties() : stockProperties());
        if (replicationFactor > 1) {
            p.put(StreamsConfig.producerPrefix(ProducerConfig.ACKS_CONFIG), "all");
        }
        if (kind.exactlyOnce) {
            if (kind.realTimeSettings) {
                // as real-time mode commits under exactly-once: short transactions, the producer lingering for one
                p.putAll(RealTimeClientSettings.exactlyOnceProperties(RtmStreams.DEFAULT_TRANSACTION_INTERVAL));
                p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, RtmStreams.DEFAULT_TRANSACTION_INTERVAL.toMillis());
            } else {
                p.remove(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG); // Kafka Streams' default under exactly-once
            }
        }
        return p;
    }

    /**
     * The stock peer's client settings, as the bench has always run it: Kafka's defaults but a 1 ms producer linger,
     * a 100 ms fetch wait (Kafka's is 500 ms) and no record cache (which would hold the join's output back).
     */
    private static Properties stockProperties() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 1);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 100);
        return p;
    }

    /**
     * The tuned peers' client settings: every setting of {@link RealTimeClientSettings} (the map real-time mode
     * applies for itself, not a copy), and the commit interval of a real-time trigger left at its default
     * ({@link Trigger#DEFAULT_CHECKPOINT_INTERVAL}, as the bench runs the service), instead of Kafka's 30 s.
     */
    private static Properties realTimeProperties() {
        Properties p = new Properties();
        p.putAll(RealTimeClientSettings.properties());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Trigger.DEFAULT_CHECKPOINT_INTERVAL.toMillis());
        return p;
    }

    /**
     * Waits until the application is RUNNING (partitions assigned, stores restored).
     *
     * @param timeout how long to wait
     * @return whether it is running; false at once when it failed
     * @throws InterruptedException if interrupted
     */
    boolean awaitRunning(Duration timeout) throws InterruptedException {
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
        Directories.deleteQuietly(stateDir);
    }
}
