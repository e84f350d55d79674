package dev.rtmstreams.topology;

import dev.rtmstreams.topology.internals.BrokerHops;
import dev.rtmstreams.topology.internals.EpochRuntime;
import dev.rtmstreams.topology.internals.GroupSlotsProbe;
import dev.rtmstreams.topology.internals.PartitionCounts;
import dev.rtmstreams.topology.internals.RtmClientSupplier;
import dev.rtmstreams.topology.internals.StreamsProtocolConsumer;
import dev.rtmstreams.topology.internals.TopologySizer;
import dev.rtmstreams.topology.internals.TriggerConfigurer;
import dev.rtmstreams.topology.internals.compat.CloseShim;
import dev.rtmstreams.topology.internals.compat.HookRegistry;
import dev.rtmstreams.topology.internals.compat.TopologyInternalHooks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams application run under an rtm-streams {@link Trigger}: the entry point of rtm-topology. It wraps
 * one {@link KafkaStreams} instance and adds what Spark's real-time mode gives operationally: the trigger's
 * configuration, checkpoint epochs with progress reports, Databricks-named latency metrics, and task-slot accounting.
 * <pre>{@code
 * RtmStreams rtm = RtmStreams.builder(topology, props)
 *     .trigger(Trigger.realTime(Duration.ofMinutes(5)))   // the only line that changes for micro-batch
 *     .expectedInstances(3)
 *     .addProgressListener(p -> log.info("epoch {} e2e p99 {} ms", p.epochId(), p.e2eLatencyMs().p99()))
 *     .build();
 * rtm.start();
 * ...
 * rtm.close(Duration.ofSeconds(30));
 * }</pre>
 * <h2>Delivery guarantee and latency</h2>
 * At-least-once by default: output is sent as soon as it is produced and commits only checkpoint progress.
 * With {@link Builder#exactlyOnce(boolean) exactly-once v2}, output is written in transactions, and a
 * {@code read_committed} consumer sees it only after its transaction commits. In real-time mode transactions are
 * short: they commit every {@link Builder#transactionInterval(Duration) transaction interval} (default
 * {@link #DEFAULT_TRANSACTION_INTERVAL 10 ms}), independently of the checkpoint interval, which then sets how often
 * epochs close. Kafka Streams 4.4 flushes no state store at a commit under exactly-once (a store's changelog offsets
 * are written into the store, KIP-1035, and only when a task is closed or suspended), so a short transaction costs
 * the producer flush, the offsets and the EndTxn round trips, not a checkpoint of the state. A micro-batch trigger
 * commits once per batch. {@code e2eLatencyMs} is measured at send time; {@code e2eVisibleLatencyMs} at the
 * commit that made the output visible. The design and what a crash at each point of the cycle replays:
 * {@code docs/exactly-once.md}.
 * <h2>Epochs</h2>
 * Each commit of a stream thread (offset commit, or transaction commit under exactly-once) closes a checkpoint
 * epoch; see {@link EpochProgress}. Kafka Streams commits only when something was processed, so an idle thread
 * closes no epochs.
 * <h2>Clients</h2>
 * Every Kafka client is created by the application's {@link KafkaClientSupplier}: the one given to
 * {@link Builder#clientSupplier(KafkaClientSupplier)}, else the one Kafka Streams would use (its
 * {@code default.client.supplier}, by default plain {@code KafkaConsumer}s and {@code KafkaProducer}s). rtm-streams
 * wraps the main consumers and the producers that supplier returns by delegation (every call reaches the
 * application's client; the wrapper observes polls, sends and commits to measure latency and close epochs, and under
 * a micro-batch trigger holds output until the epoch ends), so instrumented clients and a framework's client hooks
 * keep working. Under the streams rebalance protocol ({@code group.protocol=streams}) Kafka Streams builds the main
 * consumers itself and asks no supplier for them (its behaviour, not ours); the supplier still makes the producers,
 * restore and global consumers and the admin client. Source records carry a 16-byte header {@code rtm.lat} inside
 * the topology (and through repartition topics); it is removed before output and changelog records are sent.
 * <h2>Kafka Streams versions</h2>
 * Kafka Streams {@value dev.rtmstreams.processor.spi.KafkaStreamsVersion#SUPPORTED_RANGE} is supported. Where
 * rtm-streams relies on a Kafka Streams internal (a class, field, method or config that is not public API), the
 * {@link #builder build} checks it is there ({@code docs/compatibility.md} lists them) and fails with
 * {@link KafkaStreamsCompatibilityException} naming it, the version found and the supported range, unless
 * {@value KafkaStreamsCompatibilityException#CHECK_CONFIG}{@code =warn} is set (then a WARN names the feature that is
 * unavailable).
 */
@InterfaceStability.Evolving
public final class RtmStreams implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RtmStreams.class);

    /**
     * The default transaction interval of exactly-once real-time mode (10 ms): how often a stream thread commits its
     * transaction, so how long at most a {@code read_committed} reader waits for output beyond the commit itself.
     * See {@link Builder#transactionInterval(Duration)}.
     */
    public static final Duration DEFAULT_TRANSACTION_INTERVAL = Duration.ofMillis(10);

    private final Topology topology;
    private final Properties config;
    private final Trigger trigger;
    private final SlotCheckMode slotCheck;
    private final int expectedInstances;
    private final int tasksPerSlot;
    private final Map<String, Integer> partitionCounts;
    private final KafkaStreams streams;
    private final EpochRuntime runtime;
    private final List<KafkaStreams.StateListener> stateListeners;
    private final AtomicBoolean runtimeClosed = new AtomicBoolean();
    private final List<String> unavailableFeatures = new ArrayList<>();

    private RtmStreams(Builder b, Properties config) {
        this.topology = b.topology;
        this.config = config;
        this.trigger = b.trigger;
        this.slotCheck =
                b.slotCheck != null ? b.slotCheck : (b.trigger.isRealTime() ? SlotCheckMode.FAIL : SlotCheckMode.WARN);
        this.expectedInstances = b.expectedInstances;
        this.tasksPerSlot = b.tasksPerSlot;
        this.partitionCounts = b.partitionCounts == null ? null : Map.copyOf(b.partitionCounts);
        this.stateListeners = List.copyOf(b.stateListeners);
        String appId = config.getProperty(StreamsConfig.APPLICATION_ID_CONFIG);
        boolean shortTransactions = b.exactlyOnce && b.trigger.isRealTime();
        this.runtime = new EpochRuntime(
                appId,
                b.trigger.mode(),
                b.time,
                b.targetUtilization,
                b.tasksPerSlot,
                b.listeners,
                shortTransactions ? b.trigger.interval().toMillis() : 0,
                b.exactlyOnce);
        // after each rebalance the assignment check also counts the whole group's slots (a member per stream thread)
        runtime.groupSlots(new GroupSlotsProbe(config, appId, this::sizingReport, threads() * expectedInstances));
        // the main consumers report to the runtime: from the client supplier under the classic protocol, through Kafka
        // Streams' consumer wrapper under the streams protocol (which ignores a supplier's main consumer)
        KafkaClientSupplier clients = b.clientSupplier != null ? b.clientSupplier : configuredClientSupplier(config);
        this.streams = new ManagedKafkaStreams(
                topology,
                StreamsProtocolConsumer.configure(config, runtime),
                new RtmClientSupplier(runtime, clients),
                b.time);
        runtime.attach(streams);
        unavailableFeatures.addAll(b.unavailableFeatures);
        if (StreamsProtocolConsumer.streamsProtocol(config)) {
            // Kafka Streams creates each stream thread's main consumer as it is built: under the streams protocol
            // through the wrapper class named in its internal config, which must have been instantiated by now
            int threads = threads();
            try {
                unavailableFeatures.addAll(b.hooks.verifyEffect(
                        TopologyInternalHooks.CONSUMER_WRAPPER,
                        () -> {
                            if (runtime.mainConsumers() < threads) {
                                throw new IllegalStateException("Kafka Streams built " + threads
                                        + " stream thread(s) but wrapped " + runtime.mainConsumers()
                                        + " main consumer(s) with " + StreamsProtocolConsumer.class.getName());
                            }
                        },
                        b.compatibilityMode));
            } catch (RuntimeException e) {
                streams.close(Duration.ZERO);
                closeRuntime(false);
                throw e;
            }
        }
    }

    /**
     * The {@link KafkaStreams} an {@link RtmStreams} runs. Whoever drives it, {@link RtmStreams} or a framework that
     * manages a {@code KafkaStreams}' lifecycle itself (Spring for Apache Kafka's {@code StreamsBuilderFactoryBean}
     * calls {@code setStateListener}, {@code start} and {@code close} on the instance it is given), gets the same
     * behaviour: the slot check before it starts, the builder's state listeners beside the one it sets, and the last
     * epoch reports once it has stopped.
     */
    private final class ManagedKafkaStreams extends KafkaStreams {

        /** The listener set with {@link #setStateListener}, e.g. a framework's; called after the builder's. */
        private volatile StateListener external;

        ManagedKafkaStreams(Topology topology, Properties config, KafkaClientSupplier clients, Time time) {
            super(topology, config, clients, time);
            super.setStateListener(this::onStateChange);
        }

        @Override
        public synchronized void start() {
            checkSlotsBeforeStart();
            super.start();
        }

        /**
         * Sets the listener Kafka Streams would call; rtm-streams' own listeners (the assignment check, the builder's
         * {@link Builder#addStateListener}) keep being called, before it.
         *
         * @throws IllegalStateException when Kafka Streams was already started, as {@link KafkaStreams} does
         */
        @Override
        public void setStateListener(StateListener listener) {
            if (state() != State.CREATED) {
                throw new IllegalStateException(
                        "Can only set StateListener before calling start(). Current state is: " + state());
            }
            this.external = listener;
        }

        private void onStateChange(State newState, State oldState) {
            if (newState == State.RUNNING && oldState == State.REBALANCING) {
                runtime.scheduleAssignmentCheck();
            }
            for (StateListener l : stateListeners) {
                l.onChange(newState, oldState);
            }
            StateListener l = external;
            if (l != null) {
                l.onChange(newState, oldState);
            }
            if (newState == State.NOT_RUNNING || newState == State.ERROR) {
                closeRuntime(true); // stopped, whoever closed it
            }
        }
    }

    /**
     * Delivers the last epoch reports (when the stream threads have stopped) and closes the epoch runtime, once.
     *
     * @param streamsStopped whether Kafka Streams shut down, so no stream thread can still commit
     */
    private void closeRuntime(boolean streamsStopped) {
        synchronized (runtimeClosed) {
            if (runtimeClosed.get()) {
                return;
            }
            if (streamsStopped) {
                runtime.closeOpenEpochs();
            }
            runtime.close();
            runtimeClosed.set(true);
        }
    }

    /** @return the client supplier Kafka Streams would use for these properties ({@code default.client.supplier}) */
    private static KafkaClientSupplier configuredClientSupplier(Properties config) {
        // StreamsConfig's public constructor logs every value; Kafka Streams logs them once more when it starts
        return new StreamsConfig(config, false) {}.getKafkaClientSupplier();
    }

    /**
     * @param topology the application's topology
     * @param streamsProps Kafka Streams properties ({@code application.id} and {@code bootstrap.servers} required);
     *     copied, not modified
     * @return a builder
     */
    public static Builder builder(Topology topology, Properties streamsProps) {
        return new Builder(topology, streamsProps);
    }

    /**
     * Returns the Kafka Streams properties a trigger sets, applied to a copy of {@code streamsProps}, without creating
     * anything: for {@code TopologyTestDriver} tests that run a topology under the same execution contract as
     * {@link #builder(Topology, Properties) RtmStreams} would (e.g. {@code rtm.execution.mode=micro-batch} and the
     * batch interval for {@code Trigger.microBatch}), at-least-once.
     * <pre>{@code
     * Properties p = RtmStreams.configFor(props, Trigger.microBatch(Duration.ofSeconds(1)));
     * try (TopologyTestDriver driver = new TopologyTestDriver(topology, p)) { ... }
     * }</pre>
     * @param streamsProps Kafka Streams properties; not modified
     * @param trigger the trigger
     * @return a configured copy
     * @throws IllegalArgumentException when a property conflicts with the trigger, naming it and its value
     */
    public static Properties configFor(Properties streamsProps, Trigger trigger) {
        Objects.requireNonNull(streamsProps, "streamsProps");
        Objects.requireNonNull(trigger, "trigger");
        return TriggerConfigurer.apply(streamsProps, trigger, false, new ArrayList<>());
    }

    /**
     * Checks the task slots (per the slot-check mode) and starts Kafka Streams.
     * @throws InsufficientSlotsException in {@link SlotCheckMode#FAIL} when slots are too few; Kafka Streams is
     *     then closed and this instance cannot be started again
     * @throws IllegalStateException when already started or closed (from Kafka Streams)
     */
    public void start() {
        streams.start();
    }

    /** The slot check of {@link #start()}, run by the Kafka Streams instance itself so that every start has it. */
    private void checkSlotsBeforeStart() {
        if (slotCheck != SlotCheckMode.OFF) {
            SizingReport report;
            try {
                report = sizingReport();
            } catch (RuntimeException e) {
                if (slotCheck == SlotCheckMode.FAIL) {
                    streams.close(Duration.ZERO);
                    closeRuntime(false);
                    throw e;
                }
                LOG.warn("slot check skipped: cannot size the topology", e);
                report = null;
            }
            if (report != null && !report.sufficient()) {
                if (slotCheck == SlotCheckMode.FAIL) {
                    InsufficientSlotsException ex = new InsufficientSlotsException(report);
                    LOG.error("refusing to start {}: {}", applicationId(), ex.getMessage());
                    streams.close(Duration.ZERO);
                    closeRuntime(false);
                    throw ex;
                }
                LOG.warn("{} starts with too few task slots (slot check WARN): {}", applicationId(), report);
            } else if (report != null) {
                LOG.info("{}", report);
            }
        }
    }

    /**
     * Sizes the topology for this application: partition counts from {@link Builder#partitionCounts(Map)}, else
     * asked of the cluster with an {@code Admin} client. Does not start anything.
     * @return the sizing report
     * @throws IllegalArgumentException when a source topic's partition count cannot be found
     */
    public SizingReport sizingReport() {
        Map<String, Integer> counts = partitionCounts != null
                ? partitionCounts
                : PartitionCounts.fromCluster(topology, config, applicationId());
        return TopologySizer.compute(topology, counts, threads(), expectedInstances, tasksPerSlot);
    }

    /**
     * Closes Kafka Streams (which commits, closing a last epoch) and then delivers the pending progress reports.
     *
     * <p>In real-time mode a dynamic member (no {@code group.instance.id}) leaves its consumer group as it closes, so
     * the instances that stay take its tasks over at once instead of after the session timeout: a graceful shutdown
     * then stalls its partitions for a rebalance, not for a session timeout plus a rebalance. A static member and
     * micro-batch mode keep Kafka Streams' default (the member stays until its session times out, so a restart within
     * it moves nothing). {@link #close(Duration, boolean)} chooses explicitly.
     *
     * @param timeout how long to wait for Kafka Streams
     * @return true when Kafka Streams shut down within the timeout
     */
    public boolean close(Duration timeout) {
        return close(timeout, leaveGroupOnClose());
    }

    /**
     * Closes Kafka Streams with a timeout and a choice of leaving the consumer group, then delivers the pending
     * progress reports. The same on every supported Kafka Streams version (4.2 and later: {@code CloseOptions} with
     * a group membership operation; 4.1: {@code KafkaStreams.CloseOptions#leaveGroup}). For Kafka Streams' own close
     * options, close {@link #kafkaStreams()}: the reports are delivered all the same.
     *
     * @param timeout how long to wait for Kafka Streams
     * @param leaveGroup true: the member leaves its group at once (its tasks move to the other instances now); false:
     *     it stays until its session times out (a restart within it moves nothing)
     * @return true when Kafka Streams shut down within the timeout
     */
    public boolean close(Duration timeout, boolean leaveGroup) {
        runtime.leaveGroupOnClose(leaveGroup); // Kafka Streams 4.1: the main consumers leave (InstrumentedConsumer)
        boolean done = CloseShim.current().close(streams, timeout, leaveGroup);
        closeRuntime(done); // when done, the stream threads have stopped (and the state listener did it already)
        return done;
    }

    /** @return whether {@link #close(Duration)} leaves the group: when a dynamic member closes in real time */
    boolean leaveGroupOnClose() {
        boolean staticMember = Stream.of(
                        ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
                        StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                        StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG))
                .anyMatch(config::containsKey);
        return trigger.isRealTime() && !staticMember;
    }

    /**
     * @return the features unavailable on this Kafka Streams, said in the WARN of
     *     {@value KafkaStreamsCompatibilityException#CHECK_CONFIG}{@code =warn}; empty when every internal hook works
     */
    List<String> unavailableFeatures() {
        return List.copyOf(unavailableFeatures);
    }

    /** Same as {@code close(Duration.ofSeconds(30))}. */
    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /** @return the Kafka Streams state */
    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * The Kafka Streams instance this application runs, for interactive queries, exception handlers, or to hand it to
     * a framework that drives a {@code KafkaStreams} itself: its {@code start()} runs the slot check as
     * {@link #start()} does, a listener given to its {@code setStateListener} is called beside the builder's
     * {@link Builder#addStateListener listeners}, and once it has stopped, however it was closed, the last epoch
     * reports are delivered. Closing it directly uses Kafka Streams' close options; {@link #close(Duration)} also
     * leaves the group in real-time mode.
     *
     * @return the Kafka Streams instance
     */
    public KafkaStreams kafkaStreams() {
        return streams;
    }

    /** @return the most recent epoch report of any stream thread, empty before the first commit */
    public Optional<EpochProgress> latestProgress() {
        return runtime.latest();
    }

    /** @return up to the last 100 epoch reports, oldest first (like Spark's {@code recentProgress}) */
    public List<EpochProgress> recentProgress() {
        return runtime.recent();
    }

    /** @return the report of the latest post-rebalance assignment check, empty before the first */
    public Optional<AssignmentReport> latestAssignment() {
        return runtime.latestAssignment();
    }

    /**
     * @return all metrics: Kafka Streams' own (threads, tasks, stores, clients) plus the rtm group
     *     {@code rtm-epoch-metrics} (per thread: {@code e2eLatencyMs-p99}, ..., {@code epoch-total},
     *     {@code input-rows-total}, {@code busy-fraction}); the same map as {@code kafkaStreams().metrics()}
     */
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(streams.metrics());
        all.putAll(runtime.rtmMetrics());
        return all;
    }

    /** @return the trigger */
    public Trigger trigger() {
        return trigger;
    }

    /** @return the effective slot-check mode */
    public SlotCheckMode slotCheckMode() {
        return slotCheck;
    }

    /** @return a copy of the Kafka Streams configuration as applied (trigger settings included) */
    public Properties effectiveConfig() {
        Properties p = new Properties();
        p.putAll(config);
        return p;
    }

    /** @return {@code application.id} */
    public String applicationId() {
        return config.getProperty(StreamsConfig.APPLICATION_ID_CONFIG);
    }

    private int threads() {
        Object v = config.get(StreamsConfig.NUM_STREAM_THREADS_CONFIG);
        return v == null ? 1 : Integer.parseInt(v.toString().trim());
    }

    /** Builds {@link RtmStreams}; every option has a default. Not thread-safe. */
    public static final class Builder {
        private final Topology topology;
        private final Properties props;
        private Trigger trigger = Trigger.realTime();
        private SlotCheckMode slotCheck;
        private int expectedInstances = 1;
        private int tasksPerSlot = 1;
        private Map<String, Integer> partitionCounts;
        private double targetUtilization = 0.5;
        private boolean exactlyOnce;
        private Duration transactionInterval = DEFAULT_TRANSACTION_INTERVAL;
        private Long rocksDbMemory;
        private Time time = Time.SYSTEM;
        private KafkaClientSupplier clientSupplier;
        private final List<ProgressListener> listeners = new ArrayList<>();
        private final List<KafkaStreams.StateListener> stateListeners = new ArrayList<>();
        private HookRegistry hooks;
        private HookRegistry.Mode compatibilityMode;
        private List<String> unavailableFeatures = List.of();

        private Builder(Topology topology, Properties props) {
            this.topology = Objects.requireNonNull(topology, "topology");
            this.props = new Properties();
            this.props.putAll(Objects.requireNonNull(props, "streamsProps"));
        }

        /** @param trigger real-time (default, 5 min checkpoints) or micro-batch */
        public Builder trigger(Trigger trigger) {
            this.trigger = Objects.requireNonNull(trigger, "trigger");
            return this;
        }

        /** @param mode slot check at start; default FAIL in real-time mode, WARN in micro-batch mode */
        public Builder slotCheck(SlotCheckMode mode) {
            this.slotCheck = Objects.requireNonNull(mode, "slotCheck");
            return this;
        }

        /** @param instances application instances expected to share the work (default 1) */
        public Builder expectedInstances(int instances) {
            this.expectedInstances = instances;
            return this;
        }

        /** @param tasksPerSlot tasks one stream thread may run, Databricks' {@code maxPartitions} (default 1) */
        public Builder tasksPerSlot(int tasksPerSlot) {
            this.tasksPerSlot = tasksPerSlot;
            return this;
        }

        /**
         * @param counts topic to partition count for the source topics (and optionally repartition topics); when not
         *     given, counts are asked of the cluster with {@code Admin} at start
         */
        public Builder partitionCounts(Map<String, Integer> counts) {
            this.partitionCounts = Map.copyOf(Objects.requireNonNull(counts, "partitionCounts"));
            return this;
        }

        /** @param target busy fraction a slot should stay under, in (0, 1] (default 0.5) */
        public Builder targetUtilization(double target) {
            this.targetUtilization = target;
            return this;
        }

        /**
         * @param exactlyOnce true for {@code exactly_once_v2}: output becomes visible to {@code read_committed}
         *     readers when its transaction commits, every {@link #transactionInterval(Duration) transaction interval}
         *     in real-time mode, once per batch in micro-batch mode (see the class javadoc); default false
         *     (at-least-once)
         */
        public Builder exactlyOnce(boolean exactlyOnce) {
            this.exactlyOnce = exactlyOnce;
            return this;
        }

        /**
         * How often transactions commit under exactly-once in a real-time trigger (Kafka Streams'
         * {@code commit.interval.ms}; at most the checkpoint interval, which then sets how often checkpoint epochs
         * close): output becomes visible to {@code read_committed} readers at the first commit after it is sent, so
         * this bounds their extra wait. Ignored at-least-once (output is visible when sent) and under a micro-batch
         * trigger (one transaction per batch). Each commit blocks the stream thread for the producer flush and two
         * round trips to the brokers, and adds transaction markers to every partition the transaction wrote.
         *
         * @param interval the interval; {@link Duration#ZERO} commits at every pass of the stream thread's loop that
         *     processed something; default {@link #DEFAULT_TRANSACTION_INTERVAL}
         * @return this builder
         * @throws IllegalArgumentException when the interval is negative
         * @throws NullPointerException when the interval is null
         */
        public Builder transactionInterval(Duration interval) {
            Objects.requireNonNull(interval, "transactionInterval");
            if (interval.isNegative()) {
                throw new IllegalArgumentException("transactionInterval must not be negative: " + interval);
            }
            this.transactionInterval = interval;
            return this;
        }

        /**
         * Bounds RocksDB memory of the JVM with {@link RocksDbBoundedMemory}.
         * @param totalBytes block cache plus memtables for all stores of the JVM, at least 1 MiB
         */
        public Builder rocksDbMemory(long totalBytes) {
            this.rocksDbMemory = totalBytes;
            return this;
        }

        /** @param listener receives epoch and assignment reports */
        public Builder addProgressListener(ProgressListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** @param listener receives Kafka Streams state changes (use this instead of {@code setStateListener}) */
        public Builder addStateListener(KafkaStreams.StateListener listener) {
            stateListeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * The application's own client supplier, as given to {@code new KafkaStreams(topology, props, supplier)}: it
         * creates every Kafka client (instrumented clients, a framework's hooks); rtm-streams wraps the main consumers
         * and producers it returns by delegation (see the class javadoc, "Clients").
         *
         * @param supplier the supplier; default: the one Kafka Streams configures from {@code default.client.supplier}
         * @return this builder
         * @throws NullPointerException when the supplier is null
         */
        public Builder clientSupplier(KafkaClientSupplier supplier) {
            this.clientSupplier = Objects.requireNonNull(supplier, "clientSupplier");
            return this;
        }

        /** @param time the clock for latency measurement and Kafka Streams (default {@code Time.SYSTEM}) */
        public Builder time(Time time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** Tests: the compatibility check with some hooks' probes replaced (default: every module's hooks). */
        Builder hookRegistry(HookRegistry registry) {
            this.hooks = Objects.requireNonNull(registry, "hookRegistry");
            return this;
        }

        /**
         * Validates the options, checks the Kafka Streams internals rtm-streams relies on, applies the trigger to the
         * configuration and creates (does not start) Kafka Streams.
         * @throws IllegalArgumentException on a bad option or a setting that conflicts with the trigger (e.g. a
         *     non-zero {@code statestore.cache.max.bytes} in real-time mode), naming the value
         * @throws KafkaStreamsCompatibilityException when this Kafka Streams lacks an internal rtm-streams relies on
         *     and {@value KafkaStreamsCompatibilityException#CHECK_CONFIG} is not {@code warn}
         */
        public RtmStreams build() {
            if (props.getProperty(StreamsConfig.APPLICATION_ID_CONFIG) == null) {
                throw new IllegalArgumentException(StreamsConfig.APPLICATION_ID_CONFIG + " must be set");
            }
            if (expectedInstances < 1) {
                throw new IllegalArgumentException("expectedInstances must be at least 1: " + expectedInstances);
            }
            if (tasksPerSlot < 1) {
                throw new IllegalArgumentException("tasksPerSlot must be at least 1: " + tasksPerSlot);
            }
            if (!(targetUtilization > 0 && targetUtilization <= 1)) {
                throw new IllegalArgumentException("targetUtilization must be in (0, 1]: " + targetUtilization);
            }
            compatibilityMode = HookRegistry.Mode.parse(props.get(KafkaStreamsCompatibilityException.CHECK_CONFIG));
            if (hooks == null) {
                hooks = HookRegistry.discover();
            }
            unavailableFeatures = hooks.verify(compatibilityMode);
            Properties p = props;
            if (rocksDbMemory != null) {
                if (rocksDbMemory < 1024 * 1024) {
                    throw new IllegalArgumentException("rocksDbMemory must be at least 1 MiB: " + rocksDbMemory);
                }
                p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, RocksDbBoundedMemory.class.getName());
                p.put(RocksDbBoundedMemory.TOTAL_MEMORY_BYTES_CONFIG, Long.toString(rocksDbMemory));
            }
            List<String> warnings = new ArrayList<>();
            Properties configured = TriggerConfigurer.apply(
                    p, trigger, exactlyOnce, transactionInterval, BrokerHops.of(topology.describe()), warnings);
            for (String w : warnings) {
                LOG.warn("{}: {}", trigger, w);
            }
            return new RtmStreams(this, configured);
        }
    }
}
