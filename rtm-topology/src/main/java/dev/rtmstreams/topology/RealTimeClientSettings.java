package dev.rtmstreams.topology;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka Streams client and runtime settings that a {@link Trigger#realTime() real-time} trigger applies for
 * itself to a topology whose records cross the broker once, as Kafka Streams property keys (consumer and producer
 * settings carry {@link StreamsConfig#consumerPrefix(String)} and {@link StreamsConfig#producerPrefix(String)}).
 * {@link RtmStreams} takes its real-time defaults from this map (it is their one definition), so a plain
 * {@code KafkaStreams} application given the same map runs with exactly the clients real-time mode runs with: the
 * honest peer of a benchmark, or a Kafka Streams user's own start.
 * <pre>{@code
 * Properties p = new Properties();
 * p.putAll(RealTimeClientSettings.properties());
 * p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Trigger.DEFAULT_CHECKPOINT_INTERVAL.toMillis());
 * KafkaStreams peer = new KafkaStreams(topology, p);
 * }</pre>
 *
 * <table>
 *   <caption>The settings</caption>
 *   <tr><th>key</th><th>value</th><th>why</th></tr>
 *   <tr><td>{@code producer.linger.ms}</td><td>1</td>
 *       <td>a send waits for the next millisecond's records, not for each record</td></tr>
 *   <tr><td>{@code consumer.fetch.min.bytes}</td><td>4096</td>
 *       <td>a fetch returns some 30 records at a time ...</td></tr>
 *   <tr><td>{@code consumer.fetch.max.wait.ms}</td><td>5</td>
 *       <td>... or after at most 5 ms (measured: ~20% less service CPU per event and lower p50 and p99)</td></tr>
 *   <tr><td>{@code poll.ms}</td><td>20</td>
 *       <td>bounds how late wall-clock punctuators (timers) run on an idle stream thread</td></tr>
 *   <tr><td>{@code max.task.idle.ms}</td><td>-1</td>
 *       <td>a task with several input partitions (both sides of a join) processes what it has at once</td></tr>
 *   <tr><td>{@code statestore.cache.max.bytes}</td><td>0</td>
 *       <td>record caches hold output back; real-time mode needs them off</td></tr>
 *   <tr><td>{@code consumer.session.timeout.ms}</td><td>6000</td>
 *       <td>a crashed instance's tasks move within seconds</td></tr>
 *   <tr><td>{@code consumer.heartbeat.interval.ms}</td><td>1500</td>
 *       <td>a quarter of the session timeout</td></tr>
 *   <tr><td>{@code num.standby.replicas}</td><td>1</td>
 *       <td>a survivor that takes over a task usually has its state warm (no effect with a single instance)</td></tr>
 * </table>
 *
 * <p>Not in the map, on purpose:
 * <ul>
 *   <li>{@code processing.guarantee}: chosen with {@link RtmStreams.Builder#exactlyOnce(boolean)} (at-least-once
 *       unless asked); the settings above are the same under both guarantees but one, the producer's linger, which
 *       under exactly-once follows the transaction interval ({@link #exactlyOnceProperties(Duration)});</li>
 *   <li>{@code commit.interval.ms}: the trigger's checkpoint interval ({@link Trigger#interval()}, by default
 *       {@link Trigger#DEFAULT_CHECKPOINT_INTERVAL}), a choice of the application rather than of the mode;</li>
 *   <li>{@code rtm.execution.mode} and {@code rtm.micro.batch.interval.ms}: read only by rtm-streams' own
 *       operators, meaningless to a plain Kafka Streams topology;</li>
 *   <li>the shorter fetch wait (1 ms) of a topology whose records cross the broker more than once (a repartition
 *       topic): each hop adds a fetch wait to a record's latency, so {@link RtmStreams} shortens it there; this map
 *       is for a single hop;</li>
 *   <li>the deprecated alias {@code cache.max.bytes.buffering}: Kafka Streams reads it only while
 *       {@code statestore.cache.max.bytes} is unset ({@link RtmStreams} still rejects a non-zero value of it);</li>
 *   <li>what is no setting of the mode: rtm-streams' instrumented clients, and {@link RocksDbBoundedMemory} (an
 *       application's choice, off unless configured).</li>
 * </ul>
 * {@link RtmStreams} applies each consumer and producer setting only when the user set neither the prefixed, the
 * {@code main.consumer.}-prefixed nor the bare key, and warns about a user value that defeats real-time mode.
 */
@InterfaceStability.Evolving
public final class RealTimeClientSettings {

    /**
     * {@code linger.ms} of the producers. Real-time client batching, measured (load-generator {@code bench
     * --variant}, 10k events/s, BENCHMARKS.md): with {@code linger.ms=0}, {@code fetch.min.bytes=1} every few records
     * cost their own produce request, fetch response and stream-thread loop pass, on the stream thread and on the
     * broker. Holding a fetch until {@value #FETCH_MIN_BYTES} bytes (some 30 records) or {@value #FETCH_MAX_WAIT_MS}
     * ms and a send until the next millisecond cut the service's CPU per event by ~20% and the broker's by ~16%, and
     * lowered p50 and p99 latency (less queueing on the shared cores): the wait is bounded by a few ms at any rate.
     */
    private static final String LINGER_MS = "1";
    /** {@code fetch.min.bytes} of the consumers; see {@link #LINGER_MS}. */
    private static final String FETCH_MIN_BYTES = "4096";
    /** {@code fetch.max.wait.ms} of the consumers (a topology with one broker hop); see {@link #LINGER_MS}. */
    private static final String FETCH_MAX_WAIT_MS = "5";
    /** {@code poll.ms}: bounds how late wall-clock punctuators (timers) run on an idle thread. */
    private static final String POLL_MS = "20";
    /**
     * {@code max.task.idle.ms}: -1 (disabled) processes each buffered record at once instead of holding a
     * multi-partition task (e.g. both inputs of a join) until every input partition has buffered data. With Kafka
     * Streams' default (0) a task whose other input partition has fetched lag but nothing buffered yet is not
     * processable: under load its records wait for the next fetch of the quiet partition, and each such check builds
     * debug strings ({@code String.format}) in {@code PartitionGroup#readyToProcess}; profiled as the largest
     * per-iteration cost of the real-time stream thread. Event-time correctness does not depend on it: rtm operators
     * judge lateness against a watermark that is the minimum over their inputs.
     */
    private static final String MAX_TASK_IDLE_MS = "-1";
    /** {@code statestore.cache.max.bytes}: record caches delay output; real-time mode needs them off. */
    private static final String CACHE_MAX_BYTES = "0";
    /**
     * Consumer {@code session.timeout.ms}: 6 s instead of Kafka's 45 s, so that the tasks of a crashed instance move
     * to a survivor within seconds (the longest outage a real-time user sees is the failure detection time). Cost: a
     * member that stalls longer than this (a long GC pause, a saturated machine) is taken out of the group and its
     * tasks rebalance.
     */
    private static final String SESSION_TIMEOUT_MS = "6000";
    /** Consumer {@code heartbeat.interval.ms}: a quarter of the session timeout. */
    private static final String HEARTBEAT_INTERVAL_MS = "1500";
    /**
     * {@code num.standby.replicas}: one, so a survivor that takes over a task usually has its state warm and need not
     * restore it from the changelog first. Cost: every instance also keeps (and applies the changelog of) a copy of
     * other instances' state: twice the state storage and changelog reads. With a single instance no standby can be
     * placed and nothing changes.
     */
    private static final String NUM_STANDBY_REPLICAS = "1";

    /**
     * The longest {@code linger.ms} of {@link #exactlyOnceProperties(Duration)}: a longer wait passes the previous
     * transaction's markers no better and only holds more records in the producer's buffer.
     */
    public static final Duration MAX_EXACTLY_ONCE_LINGER = Duration.ofMillis(100);

    private static final Map<String, Object> PROPERTIES;

    static {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), LINGER_MS);
        m.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), FETCH_MIN_BYTES);
        m.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), FETCH_MAX_WAIT_MS);
        m.put(StreamsConfig.POLL_MS_CONFIG, POLL_MS);
        m.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, MAX_TASK_IDLE_MS);
        m.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, CACHE_MAX_BYTES);
        m.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), SESSION_TIMEOUT_MS);
        m.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), HEARTBEAT_INTERVAL_MS);
        m.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, NUM_STANDBY_REPLICAS);
        PROPERTIES = Collections.unmodifiableMap(m);
    }

    private RealTimeClientSettings() {}

    /**
     * Returns the settings, in the order of the table above.
     *
     * @return the same immutable map on every call, never null: Kafka Streams property keys to their values as
     *     strings (which Kafka parses like any configured value); {@code put} and the like throw
     *     {@link UnsupportedOperationException}
     */
    public static Map<String, Object> properties() {
        return PROPERTIES;
    }

    /**
     * Returns the settings a real-time trigger applies under {@code exactly_once_v2}: {@link #properties()} but
     * {@code producer.linger.ms}, which is the transaction interval (at least the at-least-once 1 ms, at most
     * {@link #MAX_EXACTLY_ONCE_LINGER}).
     *
     * <p>Why: a {@code read_committed} reader sees output only when its transaction commits, so holding records until
     * the commit's flush delays nothing a reader sees, while sending them at once does. With transaction protocol 2
     * (the default of Kafka 4.x clusters) the partition leader verifies a transaction's first write to a partition
     * with the transaction coordinator; right after a commit the coordinator is still writing the previous
     * transaction's markers and answers {@code CONCURRENT_TRANSACTIONS}, and the broker retries only after its
     * {@code add.partitions.to.txn.retry.backoff.ms} (20 ms by default; KAFKA-18654). A record sent right after a
     * commit waited that long at the broker, and the next commit's producer flush waited for it. Lingering for the
     * transaction interval sends a transaction's records at its commit, after the previous markers are written
     * (measured in docs/exactly-once.md).
     *
     * @param transactionInterval how often transactions commit ({@code commit.interval.ms}); not negative
     * @return a new immutable map, in the order of {@link #properties()}
     * @throws IllegalArgumentException naming the value when {@code transactionInterval} is negative
     */
    public static Map<String, Object> exactlyOnceProperties(Duration transactionInterval) {
        if (transactionInterval == null || transactionInterval.isNegative()) {
            throw new IllegalArgumentException(
                    "transactionInterval must not be null or negative: " + transactionInterval);
        }
        long linger = Math.max(
                Long.parseLong(LINGER_MS),
                Math.min(transactionInterval.toMillis(), MAX_EXACTLY_ONCE_LINGER.toMillis()));
        Map<String, Object> m = new LinkedHashMap<>(PROPERTIES);
        m.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), Long.toString(linger));
        return Collections.unmodifiableMap(m);
    }
}
