package dev.rtmstreams.join;

import dev.rtmstreams.join.internals.BufferChangelogConfigs;
import dev.rtmstreams.join.internals.DistinctBy;
import dev.rtmstreams.join.internals.IntervalJoinTopology;
import dev.rtmstreams.join.internals.JoinSpec;
import dev.rtmstreams.processor.EventTimeExtractor;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.spi.OperatorSensors;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.KStream;

/**
 * Watermark-bounded stream-stream join of two keyed {@link KStream}s (Spark's time-range stream-stream join, seed
 * 001), in update output mode: a pair is forwarded as soon as its second row arrives.
 *
 * <pre>{@code
 * KStream<String, Attributed> attributed = IntervalJoin.<String, Impression, Click>builder()
 *     .keySerde(Serdes.String()).leftSerde(impressionSerde).rightSerde(clickSerde)
 *     .leftEventTime((k, imp, ts) -> imp.getImpressionTime())
 *     .rightEventTime((k, click, ts) -> click.getClickTime())
 *     .leftWatermarkDelay(Duration.ofMinutes(5)).rightWatermarkDelay(Duration.ofMinutes(5))
 *     .lowerBound(Duration.ZERO).upperBound(Duration.ofMinutes(2))   // imp.time <= click.time <= imp.time + 2 min
 *     .name("click-attribution")
 *     .build()
 *     .join(impressions, clicks, (impressionId, imp, click) -> attribute(imp, click));
 * }</pre>
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li><b>Condition:</b> equal record keys and
 *       {@code left.time + lowerBound <= right.time <= left.time + upperBound} (both bounds inclusive), where
 *       {@code time} is each side's event time from its {@link EventTimeExtractor} (default: the record timestamp).</li>
 *   <li><b>Watermarks:</b> each input's watermark = max event time seen on it minus its watermark delay; the global
 *       watermark is the min (or max, see {@link WatermarkPolicy}) of the two, is undefined until both inputs have
 *       seen a record (policy MIN), never moves backwards and is kept in a changelogged store, so it survives
 *       restarts and rebalances. It is tracked per Kafka Streams task (per partition).</li>
 *   <li><b>Idle inputs:</b> with a watermark idle timeout ({@code rtm.watermark.idle.timeout.ms} in the application
 *       config, or {@link Builder#watermarkIdleTimeout(Duration)}; default 0 = disabled) and policy MIN, an input of a
 *       task that has received no record for longer than the timeout of wall-clock time
 *       ({@code ProcessorContext#currentSystemTimeMs}) is idle and left out of the min (as Flink's idleness): the
 *       other input's watermark alone then drives the global watermark, eviction and outer-join emission (checked
 *       per record and on the eviction punctuator, or at each micro-batch end). If both inputs are idle the global
 *       watermark holds. An idle input becomes active again with its next record; the global watermark never moves
 *       backwards, so that input's records behind it are late (dropped and counted). Idleness is kept in memory: a
 *       task starting after a restart or rebalance treats both inputs as active from then on.</li>
 *   <li><b>Late records:</b> a record whose event time is at or below the global watermark when it arrives
 *       ({@code time <= globalWatermark}, Spark's rule) is late: it is dropped, never joined, counted in the metric {@value #LATE_RECORDS_TOTAL} (group
 *       {@value #METRICS_GROUP}) and, if {@link Builder#lateRecordsTopic(String)} is set, written to that topic.</li>
 *   <li><b>Emission:</b> every pair of non-late rows that satisfies the condition is forwarded exactly once (absent
 *       failures; at-least-once after a crash unless the application runs exactly-once), with the record timestamp
 *       the later of the two input record timestamps and the headers of the record that completed the pair.</li>
 *   <li><b>State:</b> a left row is kept until {@code globalWatermark > left.time + upperBound}, a right row until
 *       {@code globalWatermark > right.time - lowerBound} (as Spark: its state watermark for inclusive bounds is 1 ms
 *       below the last time a match could need, since a partner at the watermark itself is late). Eviction is incremental: bounded passes run
 *       when a record of that side arrives and on a wall-clock punctuator.</li>
 *   <li><b>Outer joins:</b> an unmatched row is emitted with {@code null} for the other side exactly once, when it
 *       is evicted, i.e. not before the watermark proves no match can come; its timestamp is its own record
 *       timestamp.</li>
 *   <li><b>Copies:</b> with {@link Builder#leftDistinctBy} / {@link Builder#rightDistinctBy}, a row whose key and
 *       id equal those of a row still buffered on its side is dropped before it joins (first copy wins) and counted
 *       in {@value #DUPLICATE_RECORDS_TOTAL}; with {@link Builder#distinctRows(boolean)}, identical rows count
 *       once.</li>
 *   <li><b>Left semi join</b> ({@link JoinType#LEFT_SEMI}, Spark's {@code left_semi}): each left row with a match is
 *       emitted once, on its first match; unmatched left rows are evicted silently.</li>
 *   <li><b>Execution contracts:</b> under {@code rtm.execution.mode=micro-batch} (or
 *       {@link Builder#executionMode(ExecutionMode)}) inputs are buffered in a changelogged store and processed once
 *       per {@code rtm.micro.batch.interval.ms}, with the global watermark fixed during a batch and advanced,
 *       with eviction, at the batch end (as Spark's micro-batch join). The set of emitted pairs is the same in both
 *       modes for records that are late in neither; only timing and lateness against a batch-old watermark
 *       differ.</li>
 *   <li><b>Partitioning:</b> the two inputs must be co-partitioned (same partition count, same partitioner); the
 *       join's state and watermarks are per task (per partition). The join registers both inputs as a co-partition
 *       group with Kafka Streams, exactly as the built-in {@code KStream#join} does ({@code ensureCopartitionWith}),
 *       and repartitions an input whose key may have changed upstream (see
 *       {@link Builder#repartitionIfKeyChanged(boolean)}). Known gap: Kafka Streams 4.4 does not enforce this for
 *       the join's source topics. With inputs of 2 and 3 partitions on the embedded 4.4 broker the application
 *       reached RUNNING within seconds with tasks {@code 0_0=[l-0, r-0]}, {@code 0_1=[l-1, r-1]},
 *       {@code 0_2=[r-2]} and logged no warning: the rows of the third right partition can never join (and, in an
 *       outer join, all come out unmatched). Check the input topics before starting with
 *       {@link #verifyCopartitioned(Admin, String, String)}.</li>
 * </ul>
 *
 * <p>Instances are immutable; build them with {@link #builder()}. One instance may be used for one join per
 * topology (its {@link Builder#name(String)} prefixes processor and store names).
 *
 * @param <K> join key (record key of both inputs)
 * @param <L> left value type
 * @param <R> right value type
 */
@InterfaceStability.Evolving
public final class IntervalJoin<K, L, R> {

    /**
     * Metric group of the join's metrics (registered through Kafka Streams' {@code StreamsMetrics}, so they appear in
     * {@code KafkaStreams#metrics()} and any configured reporter); the metric tags are {@code thread-id},
     * {@code task-id}, {@code rtm-join-id} (the join's name) and {@code side} ({@code left} or {@code right}).
     */
    public static final String METRICS_GROUP = "stream-rtm-join-metrics";
    /** Cumulative count of late (dropped) records, per task and side. */
    public static final String LATE_RECORDS_TOTAL = OperatorSensors.LATE_RECORDS_TOTAL;
    /** Rate of late (dropped) records per second, per task and side. */
    public static final String LATE_RECORDS_RATE = "late-records-rate";
    /** Metric tag holding the join's {@link Builder#name(String) name}. */
    public static final String JOIN_NAME_TAG = "rtm-join-id";
    /** Header set on records written to the late-records topic: {@code left} or {@code right}. */
    public static final String LATE_SIDE_HEADER = "rtm.join.side";
    /**
     * Header on records of the late-records topic: why the record was not joined, {@value #LATE_REASON_LATE} or
     * {@value #LATE_REASON_TOO_FAR_AHEAD}.
     */
    public static final String LATE_REASON_HEADER = "rtm.late.reason";
    /** {@value #LATE_REASON_HEADER} of a record at or below the watermark. */
    public static final String LATE_REASON_LATE = "LATE";
    /**
     * {@value #LATE_REASON_HEADER} of a record rejected by the watermark guard: its event time was more than
     * {@code rtm.max.event.time.skew.ms} ahead of the wall clock, so it did not move the watermark.
     */
    public static final String LATE_REASON_TOO_FAR_AHEAD = "EVENT_TIME_TOO_FAR_AHEAD";
    /** Counter of records rejected by the watermark guard, per side (tags as {@value #LATE_RECORDS_TOTAL}). */
    public static final String FUTURE_RECORDS_TOTAL = OperatorSensors.FUTURE_RECORDS_TOTAL;
    /**
     * Counter of records dropped as copies of a buffered row of their side ({@link Builder#leftDistinctBy},
     * {@link Builder#rightDistinctBy}), per side (tags as {@value #LATE_RECORDS_TOTAL}).
     */
    public static final String DUPLICATE_RECORDS_TOTAL = "duplicate-records-total";
    /**
     * Gauge: heap bytes held by a side's time index of buffered rows, per task and side (tags as
     * {@value #LATE_RECORDS_TOTAL}); only with {@link EvictionIndex#HEAP}.
     */
    public static final String TIME_INDEX_BYTES = "time-index-bytes";

    private final JoinSpec<K, L, R> spec;

    private IntervalJoin(JoinSpec<K, L, R> spec) {
        this.spec = spec;
    }

    /**
     * @return a new builder
     * @param <K> join key type
     * @param <L> left value type
     * @param <R> right value type
     */
    public static <K, L, R> Builder<K, L, R> builder() {
        return new Builder<>();
    }

    /**
     * Adds the join to the topology of {@code left} and {@code right} (which must come from the same
     * {@code StreamsBuilder}).
     *
     * @param left the left input, keyed by the join key
     * @param right the right input, keyed by the join key
     * @param joiner builds the output value; gets {@code null} for the missing side of an unmatched outer row; under
     *     {@link JoinType#LEFT_SEMI} it is called once per matched left row, with the right row of its first match
     *     (see {@link #semiJoin} for the left values themselves)
     * @param <VR> output value type
     * @return the joined stream, keyed by the join key
     * @throws NullPointerException when an argument is null
     */
    public <VR> KStream<K, VR> join(KStream<K, L> left, KStream<K, R> right, ValueJoiner3<K, L, R, VR> joiner) {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
        Objects.requireNonNull(joiner, "joiner");
        return IntervalJoinTopology.build(spec, left, right, joiner);
    }

    /**
     * Adds a left semi join to the topology (Spark's {@code left_semi}): the output holds each left row that has a
     * match, once, as soon as its first match is present. Requires {@link Builder#joinType(JoinType)}
     * {@link JoinType#LEFT_SEMI}.
     *
     * @param left the left input, keyed by the join key
     * @param right the right input, keyed by the join key
     * @return the matched left rows (same key and value), with the later of the two input timestamps of the first
     *     match and the headers of the record that completed it
     * @throws IllegalStateException when the join type is not {@link JoinType#LEFT_SEMI}
     * @throws NullPointerException when an argument is null
     */
    public KStream<K, L> semiJoin(KStream<K, L> left, KStream<K, R> right) {
        if (spec.joinType() != JoinType.LEFT_SEMI) {
            throw new IllegalStateException("semiJoin needs joinType LEFT_SEMI: joinType=" + spec.joinType());
        }
        return join(left, right, (key, leftValue, rightValue) -> leftValue);
    }

    /** @return the join's name (prefix of its processor and store names) */
    public String name() {
        return spec.name();
    }

    /**
     * @return the names of the state stores the join creates (left/right buffers, metadata, micro-batch pending, and
     *     the in-memory, not changelogged last-arrival store of the watermark idle timeout)
     */
    public java.util.List<String> storeNames() {
        return spec.storeNames();
    }

    /**
     * @return the name of the changelogged buffer store holding the left rows (keys starting with byte 0); read it
     *     with {@link JoinStateReader}
     */
    public String leftBufferStoreName() {
        return spec.leftBufferStore();
    }

    /**
     * @return the name of the changelogged buffer store holding the right rows (keys starting with byte 0); read it
     *     with {@link JoinStateReader}
     */
    public String rightBufferStoreName() {
        return spec.rightBufferStore();
    }

    /**
     * @return the name of the changelogged store holding the join's watermarks (per task: each input's max event time
     *     and the global watermark); an in-memory store, restored from its changelog when a task starts
     */
    public String metaStoreName() {
        return spec.metaStore();
    }

    /** @return the join's validated configuration (for {@link JoinStateReader}) */
    JoinSpec<K, L, R> spec() {
        return spec;
    }

    /** Error code of {@link #verifyCopartitioned(Admin, String, String)} when the partition counts differ. */
    public static final String JOIN_INPUTS_NOT_COPARTITIONED = "JOIN_INPUTS_NOT_COPARTITIONED";

    /**
     * Checks that the two input topics of a join have the same partition count (the part of co-partitioning a broker
     * can check; both must also be written with the same partitioner, e.g. Kafka's default). Call it before starting
     * the application, e.g. {@code IntervalJoin.verifyCopartitioned(admin, "impressions", "clicks")}: Kafka Streams
     * 4.4 was not seen to reject source topics of different partition counts for this join, and the join would then
     * silently miss the pairs whose rows land in different tasks.
     *
     * @param admin admin client of the cluster holding both topics (not closed by this method)
     * @param leftTopic the left input topic
     * @param rightTopic the right input topic
     * @throws RtmException with code {@value #JOIN_INPUTS_NOT_COPARTITIONED} and parameters {@code leftTopic},
     *     {@code leftPartitions}, {@code rightTopic}, {@code rightPartitions} when the partition counts differ
     * @throws IllegalStateException when a topic cannot be described (e.g. it does not exist), naming both topics
     * @throws NullPointerException when an argument is null
     */
    public static void verifyCopartitioned(Admin admin, String leftTopic, String rightTopic) {
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(leftTopic, "leftTopic");
        Objects.requireNonNull(rightTopic, "rightTopic");
        Map<String, TopicDescription> topics;
        try {
            topics = admin.describeTopics(List.of(leftTopic, rightTopic))
                    .allTopicNames()
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted while describing the join inputs '" + leftTopic + "' and '" + rightTopic + "'", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot describe the join inputs '" + leftTopic + "' and '" + rightTopic + "': " + e.getCause(),
                    e.getCause());
        }
        int leftPartitions = topics.get(leftTopic).partitions().size();
        int rightPartitions = topics.get(rightTopic).partitions().size();
        if (leftPartitions != rightPartitions) {
            Map<String, String> parameters = new LinkedHashMap<>();
            parameters.put("leftTopic", leftTopic);
            parameters.put("leftPartitions", Integer.toString(leftPartitions));
            parameters.put("rightTopic", rightTopic);
            parameters.put("rightPartitions", Integer.toString(rightPartitions));
            throw new RtmException(
                    JOIN_INPUTS_NOT_COPARTITIONED,
                    parameters,
                    "the inputs of an interval join must be"
                            + " co-partitioned, but topic '" + leftTopic + "' has " + leftPartitions
                            + " partitions and topic '"
                            + rightTopic + "' has " + rightPartitions
                            + "; repartition one of them (e.g. KStream#repartition with"
                            + " Repartitioned#withNumberOfPartitions) or recreate it with the same partition count");
        }
    }

    /** Error code of {@link #verifyBufferChangelogConfigs} when a buffer changelog topic has outdated configs. */
    public static final String JOIN_BUFFER_CHANGELOG_OUTDATED_CONFIG = "JOIN_BUFFER_CHANGELOG_OUTDATED_CONFIG";

    /**
     * Checks that this join's existing buffer changelog topics have the configs this release creates them with
     * ({@code cleanup.policy=compact,delete}, {@code message.timestamp.type=LogAppendTime}, a {@code retention.ms} of
     * the join's horizon plus one day). Kafka Streams sets them only when it creates a topic, so an application whose
     * join first ran on a release that created them {@code compact} only (before evicted rows stopped getting
     * tombstones) keeps that config, and such a topic keeps every row ever buffered. Call it before starting the
     * application, e.g. {@code join.verifyBufferChangelogConfigs(admin, "my-app")}; topics that do not exist yet
     * pass.
     *
     * @param admin admin client of the application's cluster (not closed by this method)
     * @param applicationId the application's {@code application.id}
     * @throws RtmException with code {@value #JOIN_BUFFER_CHANGELOG_OUTDATED_CONFIG}, context {@code operator} (the
     *     join's name) and parameters {@code topics}, {@code cleanupPolicy}, {@code messageTimestampType} and
     *     {@code commands}: the {@code kafka-configs.sh} command per topic that sets the current configs
     * @throws IllegalStateException when a topic cannot be described for another reason than not existing
     * @throws NullPointerException when an argument is null
     */
    public void verifyBufferChangelogConfigs(Admin admin, String applicationId) {
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(applicationId, "applicationId");
        BufferChangelogConfigs.verify(admin, applicationId, spec);
    }

    /**
     * Sums the {@value #LATE_RECORDS_TOTAL} metric of one join over all tasks, threads and sides, e.g.
     * {@code IntervalJoin.lateRecordsTotal(kafkaStreams.metrics(), "click-attribution")} or with
     * {@code TopologyTestDriver#metrics()}.
     *
     * @param metrics the metrics of a Kafka Streams instance
     * @param joinName the join's name
     * @return the number of late records dropped so far by this instance
     */
    public static long lateRecordsTotal(Map<MetricName, ? extends Metric> metrics, String joinName) {
        return sum(metrics, joinName, LATE_RECORDS_TOTAL);
    }

    /**
     * Sums the {@value #DUPLICATE_RECORDS_TOTAL} metric of one join over all tasks, threads and sides.
     *
     * @param metrics the metrics of a Kafka Streams instance
     * @param joinName the join's name
     * @return the number of records this instance dropped so far as copies of a buffered row
     */
    public static long duplicateRecordsTotal(Map<MetricName, ? extends Metric> metrics, String joinName) {
        return sum(metrics, joinName, DUPLICATE_RECORDS_TOTAL);
    }

    /**
     * Sums the {@value #TIME_INDEX_BYTES} gauge of one join over all tasks, threads and sides.
     *
     * @param metrics the metrics of a Kafka Streams instance
     * @param joinName the join's name
     * @return the heap bytes this instance's time indexes of the join hold now (0 with {@link EvictionIndex#STATE_STORE})
     */
    public static long timeIndexBytes(Map<MetricName, ? extends Metric> metrics, String joinName) {
        return sum(metrics, joinName, TIME_INDEX_BYTES);
    }

    private static long sum(Map<MetricName, ? extends Metric> metrics, String joinName, String metric) {
        double sum = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            MetricName n = e.getKey();
            if (n.group().equals(METRICS_GROUP)
                    && n.name().equals(metric)
                    && joinName.equals(n.tags().get(JOIN_NAME_TAG))) {
                Object v = e.getValue().metricValue();
                if (v instanceof Number number) {
                    sum += number.doubleValue();
                }
            }
        }
        return (long) sum;
    }

    /**
     * Builder of {@link IntervalJoin}. Required: the three serdes and both bounds. Everything else has a default.
     * Validated in {@link #build()}.
     *
     * @param <K> join key type
     * @param <L> left value type
     * @param <R> right value type
     */
    public static final class Builder<K, L, R> {
        private Serde<K> keySerde;
        private Serde<L> leftSerde;
        private Serde<R> rightSerde;
        private EventTimeExtractor<K, L> leftEventTime = (k, v, ts) -> ts;
        private EventTimeExtractor<K, R> rightEventTime = (k, v, ts) -> ts;
        private Duration leftWatermarkDelay = Duration.ZERO;
        private Duration rightWatermarkDelay = Duration.ZERO;
        private Duration lowerBound;
        private Duration upperBound;
        private JoinType joinType = JoinType.INNER;
        private WatermarkPolicy watermarkPolicy = WatermarkPolicy.MIN;
        private String lateRecordsTopic;
        private StoreBackend storeBackend = StoreBackend.ROCKS_DB;
        private EvictionIndex evictionIndex = EvictionIndex.STATE_STORE;
        private String name = "interval-join";
        private ExecutionMode executionMode;
        private Duration evictionInterval;
        private int maxEvictionsPerPass = 1_000;
        private boolean repartitionIfKeyChanged = true;
        private Duration watermarkIdleTimeout;
        private boolean distinctRows;
        private DistinctBy<K, L> leftDistinctBy;
        private DistinctBy<K, R> rightDistinctBy;

        private Builder() {}

        /** @param keySerde serde of the join key (required) @return this */
        public Builder<K, L, R> keySerde(Serde<K> keySerde) {
            this.keySerde = keySerde;
            return this;
        }

        /** @param leftSerde serde of the left values, used for the buffer store and the late topic (required) @return this */
        public Builder<K, L, R> leftSerde(Serde<L> leftSerde) {
            this.leftSerde = leftSerde;
            return this;
        }

        /** @param rightSerde serde of the right values, used for the buffer store and the late topic (required) @return this */
        public Builder<K, L, R> rightSerde(Serde<R> rightSerde) {
            this.rightSerde = rightSerde;
            return this;
        }

        /** @param extractor event time of a left row (default: the record timestamp) @return this */
        public Builder<K, L, R> leftEventTime(EventTimeExtractor<K, L> extractor) {
            this.leftEventTime = extractor;
            return this;
        }

        /** @param extractor event time of a right row (default: the record timestamp) @return this */
        public Builder<K, L, R> rightEventTime(EventTimeExtractor<K, R> extractor) {
            this.rightEventTime = extractor;
            return this;
        }

        /** @param delay watermark delay of the left input, zero or positive (default zero) @return this */
        public Builder<K, L, R> leftWatermarkDelay(Duration delay) {
            this.leftWatermarkDelay = delay;
            return this;
        }

        /** @param delay watermark delay of the right input, zero or positive (default zero) @return this */
        public Builder<K, L, R> rightWatermarkDelay(Duration delay) {
            this.rightWatermarkDelay = delay;
            return this;
        }

        /** @param lower the lower bound: {@code right.time >= left.time + lower} (inclusive; may be negative; required) @return this */
        public Builder<K, L, R> lowerBound(Duration lower) {
            this.lowerBound = lower;
            return this;
        }

        /** @param upper the upper bound: {@code right.time <= left.time + upper} (inclusive; {@code >= lower}; required) @return this */
        public Builder<K, L, R> upperBound(Duration upper) {
            this.upperBound = upper;
            return this;
        }

        /** @param joinType inner (default), an outer join or a left semi join @return this */
        public Builder<K, L, R> joinType(JoinType joinType) {
            this.joinType = joinType;
            return this;
        }

        /** @param policy global watermark policy (default {@link WatermarkPolicy#MIN}) @return this */
        public Builder<K, L, R> watermarkPolicy(WatermarkPolicy policy) {
            this.watermarkPolicy = policy;
            return this;
        }

        /**
         * @param topic topic that late records are written to (key with the key serde, value with that side's serde,
         *     header {@value IntervalJoin#LATE_SIDE_HEADER}); optional, default none (late records are only counted)
         * @return this
         */
        public Builder<K, L, R> lateRecordsTopic(String topic) {
            this.lateRecordsTopic = topic;
            return this;
        }

        /** @param backend RocksDB (default) or in-memory stores; both are changelogged @return this */
        public Builder<K, L, R> storeBackend(StoreBackend backend) {
            this.storeBackend = backend;
            return this;
        }

        /**
         * @param index where each side's time index of buffered rows is kept: {@link EvictionIndex#STATE_STORE}
         *     (default: a local store per side), {@link EvictionIndex#HEAP} (no store write per row, heap per row) or
         *     {@link EvictionIndex#SEGMENTS} (none: rows keyed by time segment, evicted a segment at a time; inner
         *     joins only)
         * @return this
         */
        public Builder<K, L, R> evictionIndex(EvictionIndex index) {
            this.evictionIndex = index;
            return this;
        }

        /**
         * @param name prefix of the join's processor and store names (default {@code interval-join}); must be unique
         *     within a topology and stable across releases (store and changelog names derive from it)
         * @return this
         */
        public Builder<K, L, R> name(String name) {
            this.name = name;
            return this;
        }

        /**
         * @param mode execution contract; overrides {@code rtm.execution.mode} from the application config (default:
         *     read the config, real-time when unset)
         * @return this
         */
        public Builder<K, L, R> executionMode(ExecutionMode mode) {
            this.executionMode = mode;
            return this;
        }

        /**
         * @param interval wall-clock interval of the eviction punctuator (default {@code rtm.timer.resolution.ms},
         *     100 ms); positive
         * @return this
         */
        public Builder<K, L, R> evictionInterval(Duration interval) {
            this.evictionInterval = interval;
            return this;
        }

        /**
         * @param repartition whether an input that Kafka Streams marks as possibly re-keyed (after {@code selectKey},
         *     {@code map}, {@code flatMap} or {@code process}) is repartitioned before the join (default true, as the
         *     built-in joins). Set false when the key is known to be unchanged, e.g. after
         *     {@code process(Deduplicate...)}, to avoid a needless repartition topic.
         * @return this
         */
        public Builder<K, L, R> repartitionIfKeyChanged(boolean repartition) {
            this.repartitionIfKeyChanged = repartition;
            return this;
        }

        /**
         * Watermark idle timeout (Flink-style idleness; overrides {@code rtm.watermark.idle.timeout.ms} from the
         * application config). Under {@link WatermarkPolicy#MIN}, an input of a task that has received no record for
         * longer than {@code timeout} of wall-clock time ({@code ProcessorContext#currentSystemTimeMs}) is left out of
         * the min, so the other input's watermark alone drives the global watermark, eviction and outer-join
         * emission. A record on the idle input makes it active again; the global watermark never moves backwards, so
         * its records behind the global watermark are late. Has no effect under {@link WatermarkPolicy#MAX}.
         *
         * @param timeout positive, or zero to disable (default: the config, disabled when unset)
         * @return this
         */
        public Builder<K, L, R> watermarkIdleTimeout(Duration timeout) {
            this.watermarkIdleTimeout = timeout;
            return this;
        }

        /**
         * Treats identical rows of one side as one row (inner joins only). Two rows are identical when they have the
         * same key, the same event time and the same serialized value (as written by the side's serde). With this
         * option every distinct (left, right) pair is emitted once even when an input record arrives several times:
         * a producer retry, a duplicate sent upstream, or the replay of uncommitted input after a crash under
         * at-least-once. A copy whose original has already been evicted is behind the watermark, so it is late and
         * dropped as any late record (to guarantee that, a row is kept until the watermark passes its own event time even
         * when the bounds would let it go earlier, i.e. when {@code lower > 0} or {@code upper < 0}). Spark's join emits a pair once per copy; this option is the equivalent of
         * {@code dropDuplicates} on both inputs restricted to exact copies, without a deduplication store.
         *
         * @param distinct true to treat identical rows as one (default false: each copy joins, as Spark)
         * @return this
         */
        public Builder<K, L, R> distinctRows(boolean distinct) {
            this.distinctRows = distinct;
            return this;
        }

        /**
         * Drops a left row that is a copy of a left row still buffered (inner joins only): same key and an id whose
         * serialized bytes are equal. The first copy wins: a copy is dropped before it probes the right side, so it
         * neither joins nor is buffered, and it is counted in {@value #DUPLICATE_RECORDS_TOTAL}. With it, each
         * distinct left id of a key joins as one row, also when its copies differ in other fields or in event time.
         *
         * <p>The buffered rows are the memory: an exact copy (same event time) is always caught, since a row is kept
         * until the watermark passes its own event time and a copy arriving later is late. A copy with another event
         * time that arrives after the first copy has been evicted is joined. Spark's equivalent is
         * {@code dropDuplicatesWithinWatermark(id)} on the input before the join; here it needs no store of its own: a
         * Bloom filter of the buffered (key, id) pairs, rebuilt from the buffer with each task incarnation, spares
         * the lookup of a row that has no copy buffered.
         *
         * @param id the id of a left row; must not return null (a null id fails the record with an error naming this
         *     option)
         * @param idSerde serializes ids; equal ids must serialize to equal bytes
         * @param <ID> id type
         * @return this
         */
        public <ID> Builder<K, L, R> leftDistinctBy(Deduplicate.IdExtractor<K, L, ID> id, Serde<ID> idSerde) {
            this.leftDistinctBy = DistinctBy.of("leftDistinctBy", id, idSerde);
            return this;
        }

        /**
         * Drops a right row that is a copy of a right row still buffered (inner joins only), as
         * {@link #leftDistinctBy} does for the left side.
         *
         * @param id the id of a right row; must not return null
         * @param idSerde serializes ids; equal ids must serialize to equal bytes
         * @param <ID> id type
         * @return this
         */
        public <ID> Builder<K, L, R> rightDistinctBy(Deduplicate.IdExtractor<K, R, ID> id, Serde<ID> idSerde) {
            this.rightDistinctBy = DistinctBy.of("rightDistinctBy", id, idSerde);
            return this;
        }

        /** @param max maximum rows evicted per side per eviction pass (default 1000); positive @return this */
        public Builder<K, L, R> maxEvictionsPerPass(int max) {
            this.maxEvictionsPerPass = max;
            return this;
        }

        /**
         * @return the join
         * @throws IllegalArgumentException when a required option is missing or a value is invalid (the message names
         *     the option and the value)
         */
        public IntervalJoin<K, L, R> build() {
            require(keySerde, "keySerde");
            require(leftSerde, "leftSerde");
            require(rightSerde, "rightSerde");
            require(leftEventTime, "leftEventTime");
            require(rightEventTime, "rightEventTime");
            require(lowerBound, "lowerBound");
            require(upperBound, "upperBound");
            require(joinType, "joinType");
            require(watermarkPolicy, "watermarkPolicy");
            require(storeBackend, "storeBackend");
            require(evictionIndex, "evictionIndex");
            require(leftWatermarkDelay, "leftWatermarkDelay");
            require(rightWatermarkDelay, "rightWatermarkDelay");
            if (leftWatermarkDelay.isNegative()) {
                throw new IllegalArgumentException("leftWatermarkDelay must not be negative: " + leftWatermarkDelay);
            }
            if (rightWatermarkDelay.isNegative()) {
                throw new IllegalArgumentException("rightWatermarkDelay must not be negative: " + rightWatermarkDelay);
            }
            if (upperBound.compareTo(lowerBound) < 0) {
                throw new IllegalArgumentException(
                        "upperBound must be >= lowerBound: lowerBound=" + lowerBound + ", upperBound=" + upperBound);
            }
            if (name == null || name.isBlank() || !name.matches("[a-zA-Z0-9._-]+")) {
                throw new IllegalArgumentException(
                        "name must be non-empty and use only [a-zA-Z0-9._-] (it prefixes store and topic names): "
                                + name);
            }
            if (lateRecordsTopic != null && lateRecordsTopic.isBlank()) {
                throw new IllegalArgumentException("lateRecordsTopic must not be blank: '" + lateRecordsTopic + "'");
            }
            if (evictionInterval != null && (evictionInterval.isZero() || evictionInterval.isNegative())) {
                throw new IllegalArgumentException("evictionInterval must be positive: " + evictionInterval);
            }
            if (watermarkIdleTimeout != null && watermarkIdleTimeout.isNegative()) {
                throw new IllegalArgumentException(
                        "watermarkIdleTimeout must not be negative: " + watermarkIdleTimeout);
            }
            if (maxEvictionsPerPass <= 0) {
                throw new IllegalArgumentException("maxEvictionsPerPass must be positive: " + maxEvictionsPerPass);
            }
            if (evictionIndex == EvictionIndex.SEGMENTS && joinType != JoinType.INNER) {
                throw new IllegalArgumentException("evictionIndex SEGMENTS is supported for inner joins only (use"
                        + " STATE_STORE or HEAP): joinType=" + joinType);
            }
            if (distinctRows && joinType != JoinType.INNER) {
                throw new IllegalArgumentException(
                        "distinctRows is supported for inner joins only: joinType=" + joinType);
            }
            for (DistinctBy<?, ?> d : new DistinctBy<?, ?>[] {leftDistinctBy, rightDistinctBy}) {
                if (d != null && joinType != JoinType.INNER) {
                    throw new IllegalArgumentException(
                            d.option() + " is supported for inner joins only: joinType=" + joinType);
                }
            }
            return new IntervalJoin<>(new JoinSpec<>(
                    name,
                    keySerde,
                    leftSerde,
                    rightSerde,
                    leftEventTime,
                    rightEventTime,
                    leftWatermarkDelay.toMillis(),
                    rightWatermarkDelay.toMillis(),
                    lowerBound.toMillis(),
                    upperBound.toMillis(),
                    joinType,
                    watermarkPolicy,
                    lateRecordsTopic,
                    storeBackend,
                    evictionIndex,
                    executionMode,
                    evictionInterval == null ? -1L : evictionInterval.toMillis(),
                    maxEvictionsPerPass,
                    repartitionIfKeyChanged,
                    watermarkIdleTimeout == null ? -1L : watermarkIdleTimeout.toMillis(),
                    distinctRows,
                    leftDistinctBy,
                    rightDistinctBy));
        }

        private static void require(Object value, String option) {
            if (value == null) {
                throw new IllegalArgumentException(option + " is required but was null");
            }
        }
    }
}
