package dev.rtmstreams.topology.internals;

import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.topology.RealTimeClientSettings;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Applies a {@link Trigger} (and the delivery guarantee) to Kafka Streams properties: {@code commit.interval.ms} is
 * the trigger's interval (100 ms for an as-fast-as-possible micro-batch trigger, whose batches run at every pass of
 * the loop). Hard conflicts (a user setting that would silently defeat the mode) throw; soft ones (latency-unfriendly
 * client tuning the user chose on purpose) are returned as warnings. A real-time trigger's client settings are the
 * ones {@link RealTimeClientSettings} publishes (their one definition), plus a shorter fetch wait for multi-hop
 * topologies.
 */
public final class TriggerConfigurer {

    /**
     * {@code fetch.max.wait.ms} in real-time mode for a topology whose records cross the broker more than once (a
     * repartition topic between sub-topologies, {@link BrokerHops}): each hop adds a fetch wait to a record's
     * latency, so the wait is cut to 1 ms from the single-hop value of {@link RealTimeClientSettings}. Measured on
     * the published aggregation workload (count behind a key change, 10k rows/s, BENCHMARKS.md, 2026-12-02, 53e5677): p99
     * 1.14x the echo's instead of 1.45x, at the same service CPU per row (57.9 against 57.0 us): the repartitioned
     * stream is dense enough that the broker rarely waits.
     */
    static final String REAL_TIME_MULTI_HOP_FETCH_MAX_WAIT_MS = "1";

    /**
     * {@code rtm.micro.batch.interval.ms} of an as-fast-as-possible micro-batch trigger ({@code Trigger.microBatch(
     * Duration.ZERO)}): the batch punctuator runs every 1 ms, the smallest interval Kafka Streams accepts; a
     * wall-clock punctuator fires at most once per pass of the stream thread's loop, so a batch ends at every pass.
     */
    static final String AS_FAST_AS_POSSIBLE_BATCH_INTERVAL_MS = "1";

    /**
     * {@code commit.interval.ms} of an as-fast-as-possible micro-batch trigger: the smallest checkpoint interval
     * ({@code Trigger.MIN_CHECKPOINT_INTERVAL}). Not 0 (a commit at every loop pass, as Spark commits every batch):
     * a Kafka Streams commit flushes every RocksDB store to a new SST file, and committing at every pass was
     * measured at 731 us of service CPU per event and a 25 s backlog at 5 000 events/s (BENCHMARKS.md).
     */
    static final String AS_FAST_AS_POSSIBLE_COMMIT_INTERVAL_MS = "100";

    /**
     * Kafka Streams' default {@code producer.transaction.timeout.ms} under exactly-once (10 s), kept whenever it
     * covers the commit interval comfortably.
     */
    static final long STREAMS_DEFAULT_TRANSACTION_TIMEOUT_MS = 10_000;

    /**
     * The broker's default {@code transaction.max.timeout.ms} (15 minutes): a producer asking for a longer
     * transaction timeout is refused when it starts, so a default timeout set here never exceeds it.
     */
    static final long BROKER_DEFAULT_MAX_TRANSACTION_TIMEOUT_MS = 900_000;

    /** Slack a transaction needs beyond one commit interval (the loop pass that commits, a slow commit). */
    static final long MIN_TRANSACTION_SLACK_MS = 60_000;

    /** The longest {@code linger.ms} real-time mode accepts without a warning (under at-least-once). */
    static final long MAX_REAL_TIME_LINGER_MS = 5;

    private TriggerConfigurer() {}

    /**
     * {@code linger.ms} of a real-time stream thread's producer: the one of {@link RealTimeClientSettings}, under
     * exactly-once {@link RealTimeClientSettings#exactlyOnceProperties(Duration)}'s (the transaction interval).
     */
    static long lingerMs(boolean exactlyOnce, long commitIntervalMs) {
        String key = StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG);
        Object v = exactlyOnce
                ? RealTimeClientSettings.exactlyOnceProperties(Duration.ofMillis(commitIntervalMs))
                        .get(key)
                : realTime(key);
        return Long.parseLong((String) v);
    }

    /**
     * Configures a topology whose records cross the broker once (no repartition).
     *
     * @see #apply(Properties, Trigger, boolean, int, List)
     */
    public static Properties apply(Properties props, Trigger trigger, boolean exactlyOnce, List<String> warnings) {
        return apply(props, trigger, exactlyOnce, 1, warnings);
    }

    /**
     * Configures with the default transaction interval ({@link RtmStreams#DEFAULT_TRANSACTION_INTERVAL}).
     *
     * @see #apply(Properties, Trigger, boolean, Duration, int, List)
     */
    public static Properties apply(
            Properties props, Trigger trigger, boolean exactlyOnce, int brokerHops, List<String> warnings) {
        return apply(props, trigger, exactlyOnce, RtmStreams.DEFAULT_TRANSACTION_INTERVAL, brokerHops, warnings);
    }

    /**
     * The commit interval Kafka Streams gets: under exactly-once in real-time mode the transaction interval (at most
     * the checkpoint interval), else the trigger's interval ({@value #AS_FAST_AS_POSSIBLE_COMMIT_INTERVAL_MS} ms for
     * an as-fast-as-possible micro-batch trigger).
     *
     * @param trigger the trigger
     * @param exactlyOnce true for {@code exactly_once_v2}
     * @param transactionInterval the transaction interval of exactly-once real-time mode
     * @return {@code commit.interval.ms} in milliseconds
     */
    public static long commitIntervalMs(Trigger trigger, boolean exactlyOnce, Duration transactionInterval) {
        if (trigger.isRealTime() && exactlyOnce) {
            return Math.min(transactionInterval.toMillis(), trigger.interval().toMillis());
        }
        return trigger.interval().isZero()
                ? Long.parseLong(AS_FAST_AS_POSSIBLE_COMMIT_INTERVAL_MS)
                : trigger.interval().toMillis();
    }

    /**
     * @param props the user's properties; a configured copy is returned, {@code props} is not modified
     * @param trigger the trigger
     * @param exactlyOnce true for {@code exactly_once_v2}
     * @param transactionInterval under exactly-once in real-time mode, how often transactions commit (Kafka Streams'
     *     {@code commit.interval.ms}; capped at the checkpoint interval); ignored otherwise
     * @param brokerHops how many times a record crosses the broker in the topology ({@link BrokerHops}); above 1,
     *     real-time mode's default fetch wait is {@value #REAL_TIME_MULTI_HOP_FETCH_MAX_WAIT_MS} ms
     * @param warnings receives one message per soft conflict
     * @return the configured copy
     * @throws IllegalArgumentException on a hard conflict, naming the key and the value
     */
    public static Properties apply(
            Properties props,
            Trigger trigger,
            boolean exactlyOnce,
            Duration transactionInterval,
            int brokerHops,
            List<String> warnings) {
        Objects.requireNonNull(transactionInterval, "transactionInterval");
        if (transactionInterval.isNegative()) {
            throw new IllegalArgumentException("transactionInterval must not be negative: " + transactionInterval);
        }
        if (brokerHops < 1) {
            throw new IllegalArgumentException("brokerHops must be at least 1: " + brokerHops);
        }
        Properties p = new Properties();
        p.putAll(props);
        String interval = Long.toString(trigger.interval().toMillis());
        // As fast as possible (interval 0): batches run back to back, checkpoints (commits) every
        // AS_FAST_AS_POSSIBLE_COMMIT_INTERVAL_MS. Exactly-once real-time: short transactions, epochs at the checkpoint
        // interval (EpochRuntime).
        long commitIntervalMs = commitIntervalMs(trigger, exactlyOnce, transactionInterval);
        String commitInterval = Long.toString(commitIntervalMs);
        String guarantee = exactlyOnce ? StreamsConfig.EXACTLY_ONCE_V2 : StreamsConfig.AT_LEAST_ONCE;
        requireUnsetOr(
                p,
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                guarantee,
                "use RtmStreams.Builder#exactlyOnce(boolean) to choose the delivery guarantee");
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        requireUnsetOr(
                p,
                StreamsConfig.COMMIT_INTERVAL_MS_CONFIG,
                commitInterval,
                exactlyOnce && trigger.isRealTime()
                        ? "under exactly-once the commit interval is the transaction interval (" + transactionInterval
                                + ", RtmStreams.Builder#transactionInterval)"
                        : "the commit interval is the trigger's interval (" + trigger + ")");
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitInterval);
        if (exactlyOnce) {
            fitTransactionTimeout(p, trigger, commitIntervalMs);
        }
        if (trigger.isRealTime()) {
            requireUnsetOr(
                    p,
                    RtmProcessorConfig.EXECUTION_MODE_CONFIG,
                    RtmProcessorConfig.EXECUTION_MODE_REAL_TIME,
                    "the execution mode follows the trigger");
            p.put(RtmProcessorConfig.EXECUTION_MODE_CONFIG, RtmProcessorConfig.EXECUTION_MODE_REAL_TIME);
            // the deprecated alias is pinned to the same value, so that a user's value of either is caught
            String noCache = realTime(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG);
            for (String key : List.of(
                    StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, StreamsConfig.CACHE_MAX_BYTES_BUFFERING_CONFIG)) {
                requireUnsetOr(p, key, noCache, "record caches delay output; real-time mode needs them off");
                p.put(key, noCache);
            }
            long lingerMs = lingerMs(exactlyOnce, commitIntervalMs);
            defaultOrWarn(
                    p,
                    warnings,
                    "producer.",
                    ProducerConfig.LINGER_MS_CONFIG,
                    Long.toString(lingerMs),
                    v -> Long.parseLong(v) > Math.max(MAX_REAL_TIME_LINGER_MS, lingerMs),
                    exactlyOnce
                            ? "output waits up to linger.ms before it is sent, and becomes visible only at the"
                                    + " transaction's commit (every " + commitIntervalMs + " ms)"
                            : "output waits up to linger.ms before it is sent");
            defaultOrWarn(
                    p,
                    warnings,
                    "consumer.",
                    ConsumerConfig.FETCH_MIN_BYTES_CONFIG,
                    realTime(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)),
                    v -> Long.parseLong(v) > 65_536,
                    "the broker holds fetches until fetch.min.bytes accumulate (or fetch.max.wait.ms passes)");
            defaultOrWarn(
                    p,
                    warnings,
                    "consumer.",
                    ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                    brokerHops > 1
                            ? REAL_TIME_MULTI_HOP_FETCH_MAX_WAIT_MS
                            : realTime(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)),
                    v -> Long.parseLong(v) > 50,
                    "a quiet input waits up to fetch.max.wait.ms before its records are returned");
            if (!p.containsKey(StreamsConfig.POLL_MS_CONFIG)) {
                p.put(StreamsConfig.POLL_MS_CONFIG, realTime(StreamsConfig.POLL_MS_CONFIG));
            }
            if (!p.containsKey(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)) {
                p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, realTime(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG));
            }
            // fast failover: failure detection in seconds, and a warm standby to take over from
            defaultOrWarn(
                    p,
                    warnings,
                    "consumer.",
                    ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                    realTime(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG)),
                    v -> Long.parseLong(v) > 10_000,
                    "a crashed instance's tasks stay unprocessed until its session times out");
            defaultOrWarn(
                    p,
                    warnings,
                    "consumer.",
                    ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                    realTime(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG)),
                    v -> Long.parseLong(v) > 3_000,
                    "heartbeats must come well within the session timeout");
            if (!p.containsKey(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)) {
                p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, realTime(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG));
            }
        } else {
            requireUnsetOr(
                    p,
                    RtmProcessorConfig.EXECUTION_MODE_CONFIG,
                    RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH,
                    "the execution mode follows the trigger");
            p.put(RtmProcessorConfig.EXECUTION_MODE_CONFIG, RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH);
            // as fast as possible (interval 0): the batch punctuator runs at its smallest interval
            String batchInterval = trigger.interval().isZero() ? AS_FAST_AS_POSSIBLE_BATCH_INTERVAL_MS : interval;
            requireUnsetOr(
                    p,
                    RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG,
                    batchInterval,
                    "the micro-batch interval is the trigger's interval (" + trigger + ")");
            p.put(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG, batchInterval);
        }
        return p;
    }

    /**
     * Under exactly-once a transaction stays open for up to one commit interval, and Kafka Streams refuses a
     * {@code producer.transaction.timeout.ms} below {@code commit.interval.ms} with a message naming neither trigger
     * nor interval. Sets the timeout when the user did not: Kafka Streams' 10 s, or twice the commit interval when
     * that is longer, at most the broker's default maximum (15 minutes). Refuses, naming the trigger and its interval,
     * a user's timeout below the commit interval, and a commit interval that leaves less than
     * {@value #MIN_TRANSACTION_SLACK_MS} ms under the broker's default maximum.
     */
    private static void fitTransactionTimeout(Properties p, Trigger trigger, long commitIntervalMs) {
        String key = StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        Object own = p.get(key) != null ? p.get(key) : p.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        if (own != null) {
            // Kafka Streams checks only the prefixed key against the commit interval; the producer takes either
            p.put(key, own);
            long timeout;
            try {
                timeout = Long.parseLong(String.valueOf(own).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a number: " + own, e);
            }
            if (timeout < commitIntervalMs) {
                throw new IllegalArgumentException(trigger + " commits a transaction every " + commitIntervalMs
                        + " ms under exactly-once, but " + key + "=" + own + " ends transactions sooner: choose a"
                        + " shorter interval, or a transaction timeout of at least " + commitIntervalMs + " ms");
            }
            return;
        }
        if (commitIntervalMs > BROKER_DEFAULT_MAX_TRANSACTION_TIMEOUT_MS - MIN_TRANSACTION_SLACK_MS) {
            throw new IllegalArgumentException(trigger + " under exactly-once keeps each transaction open for "
                    + commitIntervalMs + " ms, too close to the broker's default transaction.max.timeout.ms ("
                    + BROKER_DEFAULT_MAX_TRANSACTION_TIMEOUT_MS + " ms): choose an interval of at most "
                    + Duration.ofMillis(BROKER_DEFAULT_MAX_TRANSACTION_TIMEOUT_MS - MIN_TRANSACTION_SLACK_MS)
                    + ", or set " + key + " (and the broker's transaction.max.timeout.ms) yourself");
        }
        long timeout = Math.min(
                Math.max(STREAMS_DEFAULT_TRANSACTION_TIMEOUT_MS, 2 * commitIntervalMs),
                BROKER_DEFAULT_MAX_TRANSACTION_TIMEOUT_MS);
        if (timeout != STREAMS_DEFAULT_TRANSACTION_TIMEOUT_MS) {
            p.put(key, Long.toString(timeout));
        }
    }

    /** @return the value {@link RealTimeClientSettings} gives a (prefixed) key */
    private static String realTime(String key) {
        Object v = RealTimeClientSettings.properties().get(key);
        if (v == null) {
            throw new IllegalStateException("not a real-time client setting: " + key);
        }
        return (String) v;
    }

    private static void requireUnsetOr(Properties p, String key, String expected, String why) {
        Object v = p.get(key);
        if (v != null && !String.valueOf(v).trim().equals(expected)) {
            throw new IllegalArgumentException(
                    key + "=" + v + " conflicts with the trigger: " + why + " (expected " + expected + " or unset)");
        }
    }

    private static void defaultOrWarn(
            Properties p,
            List<String> warnings,
            String prefix,
            String key,
            String value,
            java.util.function.Predicate<String> bad,
            String why) {
        boolean set = false;
        for (String k : new ArrayList<>(List.of(prefix + key, "main." + prefix + key, key))) {
            Object v = p.get(k);
            if (v != null) {
                set = true;
                try {
                    if (bad.test(String.valueOf(v).trim())) {
                        warnings.add(k + "=" + v + " defeats real-time mode: " + why + " (recommended " + value + ")");
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(k + " must be a number: " + v, e);
                }
            }
        }
        if (!set) {
            p.put(prefix + key, value);
        }
    }
}
