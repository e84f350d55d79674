package dev.rtmstreams.processor;

import dev.rtmstreams.processor.internals.InitialStateProcessor;
import dev.rtmstreams.processor.internals.OperatorSpec;
import dev.rtmstreams.processor.internals.RuntimeRegistry;
import dev.rtmstreams.processor.internals.StateScanner;
import dev.rtmstreams.processor.internals.TransformWithStateFixedKeyProcessor;
import dev.rtmstreams.processor.internals.TransformWithStateProcessor;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Puts a {@link StatefulProcessor} into a Kafka Streams topology, like Spark's {@code transformWithState}.
 * The stream must be keyed by the grouping key (repartition first if it is not); output records carry the grouping
 * key as record key.
 *
 * <pre>{@code
 * KStream<String, Long> counts = input.process(
 *     TransformWithState.of(CountProcessor::new, TimeMode.PROCESSING_TIME), Named.as("count"));
 *
 * // or with options, and through the Processor API:
 * TransformWithState<String, Click, Attribution> tws = TransformWithState
 *     .builder(AttributionProcessor::new, TimeMode.EVENT_TIME)
 *     .name("attribution").keySerde(Serdes.String())
 *     .eventTimeExtractor((k, click, ts) -> click.getClickTime())
 *     .watermarkDelay(Duration.ofMinutes(5))
 *     .build();
 * topology.addProcessor("attribution", tws, "clicks-source");   // stores are connected automatically
 *
 * // key-preserving: a groupByKey/join downstream needs no repartition topic
 * KStream<String, Long> kept = input.processValues(counter.asFixedKey(), Named.as("count"));
 * }</pre>
 *
 * <p>The operator declares its own changelogged state store (see {@link #storeName()}), connected through
 * {@link #stores()}: the user never declares stores. One store holds state variables, TTL metadata and index,
 * timers, the watermark, the batch id and the micro-batch buffer, so all of them are restored from the changelog
 * after a crash and move with the task on rebalance.
 *
 * <p><b>Time.</b> Processing time is Kafka Streams' wall clock ({@code ProcessorContext#currentSystemTimeMs()};
 * {@code TopologyTestDriver#advanceWallClockTime} moves it). A wall-clock punctuator at the timer resolution fires
 * due processing-time timers without new input and runs the bounded TTL cleanup. Event time: the watermark is the
 * max event time seen by the task minus the watermark delay; it never regresses (persisted); records with an event
 * time below the current watermark are late and dropped (as in Spark); event-time timers fire once the watermark
 * reaches them ({@code timer <= watermark}). With {@code rtm.watermark.idle.timeout.ms} set, an idle task's
 * watermark advances with the wall clock.
 *
 * <p><b>Execution contracts</b> ({@link ExecutionMode}, from the builder or {@code rtm.execution.mode}):
 * real-time calls {@code handleInputRows} once per record and forwards output at once with the input record's
 * timestamp; micro-batch buffers rows in the store for the interval and then calls it once per key with all of
 * that key's rows (output timestamp: the latest row's timestamp; output headers: a copy of the headers of the key's
 * last-arrived row in the batch; the buffer persists each row's timestamp and headers, so they survive a restore).
 * Real-time output carries the input record's timestamp and a copy of its headers. Timer output has no headers and
 * the timer time as timestamp in event time, the current processing time in processing time. {@link QueryInfo#getBatchId()} counts micro-batches
 * in micro-batch mode and wall-clock epochs of {@code commit.interval.ms} in real-time mode (persisted).
 *
 * <p><b>Key-changing or key-preserving.</b> As a {@link ProcessorSupplier} ({@code KStream#process}) the output
 * is marked key-changing by Kafka Streams, so a later {@code groupByKey}, {@code join} or {@code IntervalJoin}
 * repartitions. The output key is always the grouping key, i.e. the input key; use {@link #asFixedKey()} with
 * {@code KStream#processValues} to tell Kafka Streams so and avoid that repartition. Both run the same operator
 * (same stores, state, timers and behaviour); use one of them per operator instance, not both.
 *
 * <p><b>Metrics.</b> Per task, in group {@value RtmProcessorMetrics#GROUP} with tags {@code thread-id},
 * {@code task-id} and {@code rtm-processor-id} (= {@link #name()}): gauge {@value RtmProcessorMetrics#WATERMARK}
 * (event time only), counters {@value RtmProcessorMetrics#LATE_RECORDS_TOTAL},
 * {@value RtmProcessorMetrics#NULL_KEY_RECORDS_TOTAL}, {@value RtmProcessorMetrics#TIMERS_FIRED_TOTAL},
 * {@value RtmProcessorMetrics#TTL_EXPIRED_REMOVED_TOTAL}, gauge {@value RtmProcessorMetrics#STORE_ENTRIES}; see
 * {@link RtmProcessorMetrics}. Records with a null key are dropped and counted.
 *
 * <p><b>Initial state.</b> For a {@link StatefulProcessorWithInitialState}, connect a stream of initial state keyed
 * by the grouping key with {@link #initialStateProcessor()}: {@code initial.process(tws.initialStateProcessor())}
 * (both inputs must be co-partitioned; they end up in one sub-topology because they share the store). Each
 * initial-state record is passed to {@code handleInitialState} when it is processed; Kafka Streams delivers records
 * of the two inputs in timestamp order, so give initial-state records timestamps before the input's.
 *
 * @param <K> grouping key (record key)
 * @param <I> input row type
 * @param <O> output row type
 */
@InterfaceStability.Evolving
public final class TransformWithState<K, I, O> implements ProcessorSupplier<K, I, K, O> {

    private final OperatorSpec<K, I, O> spec;
    private final StoreBuilder<KeyValueStore<Bytes, byte[]>> storeBuilder;
    private final boolean supportsInitialState;

    private TransformWithState(OperatorSpec<K, I, O> spec, StoreBackend backend, boolean supportsInitialState) {
        this.spec = spec;
        this.storeBuilder = StateScanner.storeBuilder(spec.storeName(), backend);
        this.supportsInitialState = supportsInitialState;
    }

    /**
     * @param processorSupplier creates one processor per task (called once at build to learn the processor class)
     * @param timeMode the time mode
     * @return a builder with defaults
     * @throws NullPointerException when an argument is null
     */
    public static <K, I, O> Builder<K, I, O> builder(
            Supplier<? extends StatefulProcessor<K, I, O>> processorSupplier, TimeMode timeMode) {
        return new Builder<>(processorSupplier, timeMode);
    }

    /**
     * @return an operator with every default (name from the processor class, default serdes, RocksDB, record
     *     timestamp as event time, zero watermark delay, execution mode from {@code rtm.execution.mode})
     */
    public static <K, I, O> TransformWithState<K, I, O> of(
            Supplier<? extends StatefulProcessor<K, I, O>> processorSupplier, TimeMode timeMode) {
        return builder(processorSupplier, timeMode).build();
    }

    /** @return a new processor for one task */
    @Override
    public Processor<K, I, K, O> get() {
        return new TransformWithStateProcessor<>(spec);
    }

    /**
     * The key-preserving form of this operator, for {@code KStream#processValues}: same stores, state, timers and
     * behaviour as {@link #get()}, but Kafka Streams knows the output key equals the input key (the grouping key), so
     * a {@code groupByKey()} or {@code join} downstream does not create a repartition topic.
     *
     * <pre>{@code
     * KStream<String, Long> counts = input.processValues(tws.asFixedKey(), Named.as("count"));
     * counts.groupByKey().reduce(Long::sum);   // no repartition
     * }</pre>
     *
     * <p>Use either this or the operator itself ({@code KStream#process}) in a topology, not both: they share the
     * operator's store. The initial-state input ({@link #initialStateProcessor()}) works with both.
     *
     * @return a supplier creating one fixed-key processor per task (a new supplier object per call, sharing this
     *     operator's store builder)
     */
    public FixedKeyProcessorSupplier<K, I, O> asFixedKey() {
        TransformWithState<K, I, O> self = this;
        return new FixedKeyProcessorSupplier<>() {
            @Override
            public FixedKeyProcessor<K, I, O> get() {
                return new TransformWithStateFixedKeyProcessor<>(self.spec);
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return self.stores();
            }
        };
    }

    /** @return the operator's store (the same builder instance every call) */
    @Override
    public Set<StoreBuilder<?>> stores() {
        return Set.of(storeBuilder);
    }

    /** @return the operator name */
    public String name() {
        return spec.name();
    }

    /**
     * @param operatorName an operator's {@link #name()}
     * @return the name of its state store, {@code <name>-state}; the changelog topic is
     *     {@code <application.id>-<store name>-changelog}
     */
    public static String storeNameOf(String operatorName) {
        return operatorName + "-state";
    }

    /** @return the name of the operator's state store ({@code <name>-state}); its changelog topic is derived from it */
    public String storeName() {
        return spec.storeName();
    }

    /**
     * @return a supplier for the initial-state input; its records go to {@code handleInitialState} of the processor
     *     serving the same task. It connects the same store, so both inputs land in one sub-topology.
     * @throws IllegalStateException when the processor is not a {@link StatefulProcessorWithInitialState}
     */
    public <S> ProcessorSupplier<K, S, Void, Void> initialStateProcessor() {
        if (!supportsInitialState) {
            throw new IllegalStateException(
                    "operator " + spec.name() + ": the processor does not extend StatefulProcessorWithInitialState");
        }
        TransformWithState<K, I, O> self = this;
        return new ProcessorSupplier<>() {
            @Override
            public Processor<K, S, Void, Void> get() {
                return new InitialStateProcessor<>(self.spec);
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return self.stores();
            }
        };
    }

    /**
     * Builder of {@link TransformWithState}; values given here override the {@code rtm.*} application configs.
     * Validated in {@link #build()}.
     */
    public static final class Builder<K, I, O> {
        private final Supplier<? extends StatefulProcessor<K, I, O>> processorSupplier;
        private final TimeMode timeMode;
        private String name;
        private Serde<K> keySerde;
        private Serde<I> valueSerde;
        private OutputMode outputMode = OutputMode.UPDATE;
        private StoreBackend storeBackend = StoreBackend.ROCKS_DB;
        private EventTimeExtractor<K, I> eventTimeExtractor = (k, v, ts) -> ts;
        private Duration watermarkDelay = Duration.ZERO;
        private ExecutionMode executionMode;
        private Duration microBatchInterval;
        private Duration timerResolution;
        private Duration watermarkIdleTimeout;

        private Builder(Supplier<? extends StatefulProcessor<K, I, O>> processorSupplier, TimeMode timeMode) {
            this.processorSupplier = Objects.requireNonNull(processorSupplier, "processorSupplier");
            this.timeMode = Objects.requireNonNull(timeMode, "timeMode");
        }

        /** @param name operator name, the prefix of its store name (default: derived from the processor class) */
        public Builder<K, I, O> name(String name) {
            this.name = name;
            return this;
        }

        /** @param keySerde serde of the grouping key (default: the application's default key serde) */
        public Builder<K, I, O> keySerde(Serde<K> keySerde) {
            this.keySerde = keySerde;
            return this;
        }

        /**
         * @param valueSerde serde of the input rows, used only to persist the micro-batch buffer
         *     (default: the application's default value serde)
         */
        public Builder<K, I, O> valueSerde(Serde<I> valueSerde) {
            this.valueSerde = valueSerde;
            return this;
        }

        /** @param outputMode passed to {@code init} (default {@link OutputMode#UPDATE}) */
        public Builder<K, I, O> outputMode(OutputMode outputMode) {
            this.outputMode = outputMode;
            return this;
        }

        /** @param storeBackend store kind (default {@link StoreBackend#ROCKS_DB}) */
        public Builder<K, I, O> storeBackend(StoreBackend storeBackend) {
            this.storeBackend = storeBackend;
            return this;
        }

        /** @param extractor event time of a row (default: the record timestamp) */
        public Builder<K, I, O> eventTimeExtractor(EventTimeExtractor<K, I> extractor) {
            this.eventTimeExtractor = extractor;
            return this;
        }

        /** @param delay allowed lateness: watermark = max event time - delay (default zero; must not be negative) */
        public Builder<K, I, O> watermarkDelay(Duration delay) {
            this.watermarkDelay = delay;
            return this;
        }

        /** @param mode execution contract (default: {@code rtm.execution.mode}, else real-time) */
        public Builder<K, I, O> executionMode(ExecutionMode mode) {
            this.executionMode = mode;
            return this;
        }

        /** @param interval micro-batch interval (default: {@code rtm.micro.batch.interval.ms}, else 1 s); positive */
        public Builder<K, I, O> microBatchInterval(Duration interval) {
            this.microBatchInterval = interval;
            return this;
        }

        /** @param resolution how often due processing-time timers and TTL cleanup are checked (default:
         *     {@code rtm.timer.resolution.ms}, else 100 ms); positive */
        public Builder<K, I, O> timerResolution(Duration resolution) {
            this.timerResolution = resolution;
            return this;
        }

        /** @param timeout watermark idle timeout, zero disables (default: {@code rtm.watermark.idle.timeout.ms}) */
        public Builder<K, I, O> watermarkIdleTimeout(Duration timeout) {
            this.watermarkIdleTimeout = timeout;
            return this;
        }

        /**
         * @return the operator
         * @throws IllegalArgumentException when an option is invalid (the message names the value)
         */
        public TransformWithState<K, I, O> build() {
            requireNonNull(outputMode, "outputMode");
            requireNonNull(storeBackend, "storeBackend");
            requireNonNull(eventTimeExtractor, "eventTimeExtractor");
            requireNonNull(watermarkDelay, "watermarkDelay");
            if (watermarkDelay.isNegative()) {
                throw new IllegalArgumentException("watermarkDelay must not be negative: " + watermarkDelay);
            }
            requirePositive(microBatchInterval, "microBatchInterval");
            requirePositive(timerResolution, "timerResolution");
            if (watermarkIdleTimeout != null && watermarkIdleTimeout.isNegative()) {
                throw new IllegalArgumentException(
                        "watermarkIdleTimeout must not be negative: " + watermarkIdleTimeout);
            }
            StatefulProcessor<K, I, O> sample = processorSupplier.get();
            if (sample == null) {
                throw new IllegalArgumentException("processorSupplier returned null");
            }
            String n = name != null ? name : defaultName(sample.getClass());
            if (n.isBlank() || !n.matches("[a-zA-Z0-9._-]+")) {
                throw new IllegalArgumentException("name must be non-empty and use only [a-zA-Z0-9._-]: '" + n + "'");
            }
            OperatorSpec<K, I, O> spec = new OperatorSpec<>(
                    n,
                    storeNameOf(n),
                    processorSupplier,
                    timeMode,
                    outputMode,
                    keySerde,
                    valueSerde,
                    eventTimeExtractor,
                    watermarkDelay,
                    executionMode,
                    microBatchInterval,
                    timerResolution,
                    watermarkIdleTimeout,
                    new RuntimeRegistry());
            return new TransformWithState<>(spec, storeBackend, sample instanceof StatefulProcessorWithInitialState);
        }

        private static String defaultName(Class<?> c) {
            String s = c.getSimpleName().isEmpty() ? "processor" : c.getSimpleName();
            return "tws-" + s.replaceAll("[^a-zA-Z0-9._-]", "_").toLowerCase(Locale.ROOT);
        }

        private static void requireNonNull(Object v, String what) {
            if (v == null) {
                throw new IllegalArgumentException(what + " must not be null");
            }
        }

        private static void requirePositive(Duration d, String what) {
            if (d != null && (d.isZero() || d.isNegative())) {
                throw new IllegalArgumentException(what + " must be positive: " + d);
            }
        }
    }
}
