package dev.rtmstreams.adattribution;

import dev.rtmstreams.adattribution.model.KafkaAccessCheck;
import dev.rtmstreams.adattribution.model.KafkaAccessException;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.adattribution.ops.HttpEndpoint;
import dev.rtmstreams.adattribution.ops.StreamThreadFailures;
import dev.rtmstreams.adattribution.pipeline.AdAttributionTopology;
import dev.rtmstreams.adattribution.pipeline.AttributedClickPostgresSink;
import dev.rtmstreams.adattribution.pipeline.DeadLetterCounter;
import dev.rtmstreams.adattribution.pipeline.ReadableOperators;
import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.RocksDbBoundedMemory;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running ad-attribution service: its topology under an rtm-topology {@link RtmStreams} with the configured
 * trigger, the HTTP operations endpoint (wired by {@link ServiceEndpoint}), and an orderly shutdown.
 *
 * <p>Lifecycle: {@link #start()} once, then {@link #awaitTermination()} until {@link #close()} (from a shutdown
 * hook on SIGTERM) or until Kafka Streams fails. {@link #close()} is idempotent and thread-safe.
 */
public final class AdAttributionService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdAttributionService.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final AppConfig config;
    private final DeadLetterCounter deadLetters = new DeadLetterCounter();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean cleanClose;
    private final AtomicBoolean failed = new AtomicBoolean();
    private final AtomicReference<String> failure = new AtomicReference<>();
    /** Which stream thread failures get a new thread instead of stopping the service. */
    private final StreamThreadFailures threadFailures = new StreamThreadFailures();

    private final ServiceProgress progress = new ServiceProgress();
    private volatile RtmStreams rtm;
    private volatile HttpEndpoint http;

    /**
     * @param config the configuration
     */
    public AdAttributionService(AppConfig config) {
        Main.trustAvroPackages();
        this.config = config;
    }

    /** @return the Kafka Streams properties the service derives from its configuration */
    private Trigger trigger() {
        return config.trigger() == ExecutionMode.REAL_TIME
                ? Trigger.realTime(config.checkpointInterval())
                : Trigger.microBatch(config.microBatchInterval());
    }

    /** @return a builder of the service's {@link RtmStreams} for {@code topology}: trigger, guarantee, slot check */
    RtmStreams.Builder rtmStreams(Topology topology) {
        return RtmStreams.builder(topology, streamsProperties())
                .trigger(trigger())
                .slotCheck(config.slotCheck())
                .exactlyOnce("exactly_once_v2".equals(config.processingGuarantee()))
                .transactionInterval(config.transactionInterval());
    }

    Properties streamsProperties() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.numStreamThreads());
        if (config.rocksDbMemoryBytes() > 0
                && !config.kafkaOverrides().containsKey(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)) {
            // one block cache and write-buffer budget for every store, so off-heap memory stays flat under load
            p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, RocksDbBoundedMemory.class.getName());
            p.put(RocksDbBoundedMemory.TOTAL_MEMORY_BYTES_CONFIG, Long.toString(config.rocksDbMemoryBytes()));
        }
        p.putAll(config.kafkaOverrides());
        return p;
    }

    /**
     * Creates missing topics (with {@code --create-topics}), builds the topology, starts Kafka Streams and the HTTP
     * endpoint.
     *
     * @throws IllegalStateException when already started or closed
     * @throws KafkaAccessException when the Kafka login fails or the principal may not read an input or write an
     *     output topic (checked first, so wrong credentials or a missing ACL stop the start at once)
     * @throws RuntimeException when topics cannot be created, slots are insufficient under slot-check fail, or the
     *     HTTP port cannot be bound
     */
    public synchronized void start() {
        if (rtm != null || closed.get()) {
            throw new IllegalStateException(
                    "the service can be started once; it is " + (closed.get() ? "closed" : "started"));
        }
        // one admin client for every check before the start
        Properties adminProperties = adminProperties();
        try (Admin admin = Admin.create(adminProperties)) {
            verifyAccess(admin, adminProperties);
            if (config.createTopics()) {
                createMissingTopics(admin);
            }
            verifyCopartitioning(admin);
            verifyJoinChangelogConfigs(admin);
        }
        config.postgres().ifPresent(AttributedClickPostgresSink::createTable);
        Topology topology = AdAttributionTopology.build(config, deadLetters);
        LOG.info("event=topology description={}", topology.describe().toString().replace('\n', ' '));
        Trigger trigger = trigger();
        RtmStreams.Builder builder = rtmStreams(topology)
                .addProgressListener(progress)
                .addStateListener((newState, oldState) -> {
                    LOG.info("event=state-change from={} to={}", oldState, newState);
                    if (newState == KafkaStreams.State.ERROR) {
                        failed.set(true);
                        terminated.countDown();
                    }
                });
        RtmStreams streams = builder.build();
        streams.kafkaStreams().setUncaughtExceptionHandler(e -> {
            Optional<KafkaAccessException> denied = KafkaAccessException.from(
                    e, KafkaClientSettings.principalOf(config.kafkaOverrides()), config.bootstrapServers());
            if (denied.isPresent()) {
                // retrying cannot help: stop with one line naming the principal and what it may not do
                failure.compareAndSet(null, denied.get().getMessage());
                LOG.error("event=kafka-access-denied error={}", denied.get().getMessage(), e);
            } else if (threadFailures.respond(e)
                    == StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD) {
                // a transactional producer failure a new producer clears: the thread's tasks restart on a new thread
                LOG.warn("event=stream-thread-replaced error={}", e.toString(), e);
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
            } else {
                failure.compareAndSet(null, "a stream thread failed: " + e);
                LOG.error("event=stream-thread-failed error={}", e.toString(), e);
            }
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        this.rtm = streams;
        LOG.info(
                "event=starting application.id={} trigger={} interval={} threads={}",
                config.applicationId(),
                trigger.mode(),
                trigger.interval(),
                config.numStreamThreads());
        streams.start();
        if (config.httpPort() >= 0) {
            try {
                http = ServiceEndpoint.start(config, streams, this::state, this::lateRecords, deadLetters, progress);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot listen on http-bind-address "
                                + config.httpBindAddress().getHostAddress() + " http-port " + config.httpPort() + ": "
                                + e.getMessage(),
                        e);
            }
        }
    }

    private Properties adminProperties() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        config.kafkaOverrides().forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                p.put(k, v);
            }
        });
        // the start-up checks fail within ADMIN_TIMEOUT instead of retrying for the admin client's default minute
        int timeoutMs = (int) ADMIN_TIMEOUT.toMillis();
        p.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        p.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        return p;
    }

    /**
     * Logs in and checks that the principal may read every input and write every output topic that exists, so that
     * wrong credentials or a missing ACL stop the start with one clear line (Kafka Streams would retry some of these
     * errors, or fail later inside a stream thread). Internal topics, the group and transactional ids are checked
     * by Kafka Streams itself; a refusal there fails the stream thread, which the uncaught-exception handler turns
     * into the same kind of message.
     */
    private void verifyAccess(Admin admin, Properties adminProperties) {
        Map<String, AclOperation> needed = new LinkedHashMap<>();
        config.topics().inputs().forEach(t -> needed.put(t, AclOperation.READ));
        for (String topic : config.allTopics()) {
            needed.putIfAbsent(topic, AclOperation.WRITE);
        }
        Map<String, Object> client = new LinkedHashMap<>();
        adminProperties.forEach((k, v) -> client.put(k.toString(), v));
        KafkaAccessCheck.verify(admin, client, needed, ADMIN_TIMEOUT);
    }

    /**
     * Both pipelines read two topics into one task per partition (the join's two inputs; requests and acks merged
     * into one processor), so each pair must have the same partition count. Kafka Streams 4.4 does not check this
     * for these operators and would silently never match the extra partitions' records, so fail at start instead.
     * A missing topic is left to Kafka Streams' own missing-source-topic error.
     *
     * @throws dev.rtmstreams.processor.RtmException {@code JOIN_INPUTS_NOT_COPARTITIONED} naming both topics and
     *     their partition counts
     */
    private void verifyCopartitioning(Admin admin) {
        ServiceTopics topics = config.topics();
        try {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            for (List<String> pair : List.of(
                    List.of(topics.impressions(), topics.clicks()), List.of(topics.requests(), topics.acks()))) {
                if (existing.containsAll(pair)) {
                    IntervalJoin.verifyCopartitioned(admin, pair.get(0), pair.get(1));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the input topics' partition counts", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list topics on " + config.bootstrapServers() + ": " + e, e);
        }
    }

    /**
     * A deployment whose join first ran on a release that created its buffer changelogs compact-only keeps that
     * config (Kafka Streams sets it only when it creates a topic): fail at start with the command that fixes it.
     *
     * @throws dev.rtmstreams.processor.RtmException {@code JOIN_BUFFER_CHANGELOG_OUTDATED_CONFIG} naming the topics
     *     and the {@code kafka-configs.sh} command per topic
     */
    private void verifyJoinChangelogConfigs(Admin admin) {
        ReadableOperators.joins(config)
                .values()
                .forEach(readable -> readable.join().verifyBufferChangelogConfigs(admin, config.applicationId()));
    }

    private void createMissingTopics(Admin admin) {
        try {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (String topic : config.allTopics()) {
                if (!existing.contains(topic)) {
                    missing.add(new NewTopic(topic, config.topicPartitions(), config.replicationFactor()));
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            for (var entry : admin.createTopics(missing).values().entrySet()) {
                try {
                    entry.getValue().get(30, TimeUnit.SECONDS);
                    LOG.info(
                            "event=topic-created topic={} partitions={} replication={}",
                            entry.getKey(),
                            config.topicPartitions(),
                            config.replicationFactor());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create topics on " + config.bootstrapServers() + ": " + e, e);
        }
    }

    /** @return the Kafka Streams state name, or {@code CREATED} before start */
    public String state() {
        RtmStreams r = rtm;
        return r == null ? "CREATED" : r.state().name();
    }

    /** @return the bound HTTP port, or -1 when the HTTP endpoint is off or not started */
    public int httpPort() {
        HttpEndpoint h = http;
        return h == null ? -1 : h.port();
    }

    /** @return records sent to the dead-letter topic, per source topic */
    public Map<String, Long> deadLetterCounts() {
        return deadLetters.snapshot();
    }

    /** @return late (dropped) join inputs counted by the click attribution join since start */
    public long lateRecords() {
        RtmStreams r = rtm;
        return r == null ? 0 : IntervalJoin.lateRecordsTotal(r.metrics(), AdAttributionTopology.JOIN_NAME);
    }

    /** @return the latest checkpoint epoch report, if any */
    public java.util.Optional<EpochProgress> latestProgress() {
        return progress.latest();
    }

    /**
     * Returns why Kafka Streams failed: for a refused login or a missing ACL one line naming the principal, the
     * resource and the operation (see {@link KafkaAccessException}).
     *
     * @return the reason of the first stream thread failure; empty while none failed
     */
    public Optional<String> failure() {
        return Optional.ofNullable(failure.get());
    }

    /**
     * Blocks until the service is closed or Kafka Streams fails.
     *
     * @return 0 when closed normally, 1 when Kafka Streams went to ERROR
     * @throws InterruptedException when interrupted
     */
    public int awaitTermination() throws InterruptedException {
        terminated.await();
        return failed.get() ? 1 : 0;
    }

    /** Stops the HTTP endpoint and closes Kafka Streams (committing and flushing state). Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        cleanClose = false;
        LOG.info("event=closing");
        HttpEndpoint h = http;
        if (h != null) {
            h.close();
        }
        RtmStreams r = rtm;
        if (r != null) {
            boolean clean = r.close(CLOSE_TIMEOUT);
            cleanClose = clean && !failed.get();
            LOG.info(
                    "event=closed clean={} epochs={} dlq={} late={}",
                    clean,
                    progress.epochs(),
                    deadLetters.snapshot(),
                    r.state() == KafkaStreams.State.NOT_RUNNING ? lateRecordsSafe(r) : -1);
        }
        terminated.countDown();
    }

    /**
     * @return whether {@link #close()} ran and closed Kafka Streams cleanly within its timeout, after no stream thread
     *     failure
     */
    public boolean closedCleanly() {
        return closed.get() && cleanClose;
    }

    private static long lateRecordsSafe(RtmStreams r) {
        try {
            return IntervalJoin.lateRecordsTotal(r.metrics(), AdAttributionTopology.JOIN_NAME);
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
