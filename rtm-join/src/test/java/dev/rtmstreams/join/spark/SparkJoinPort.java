package dev.rtmstreams.join.spark;

import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.WatermarkPolicy;
import dev.rtmstreams.processor.ExecutionMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs a scenario of Spark's {@code StreamingJoinSuite} on {@link IntervalJoin} (TopologyTestDriver, micro-batch
 * contract, as Spark's {@code testStream}): rows are added with their event time in seconds since the epoch, and
 * {@link #batch()} runs one micro-batch and the pass after it (Spark's batch plus its no-data batch, which Spark runs
 * when the batch moved the watermark: it evicts state, emits outer rows, and the next batch judges lateness by its
 * watermark) and returns the new output as Spark rows.
 *
 * <p>Values are {@code key:seconds}; the joiner writes {@code left,right} ({@code null} for a missing side); a
 * {@link RowFormat} turns an output record into the columns Spark's test selects, comma-separated.
 *
 * <p>Spark's shapes and how they are expressed here:
 * <ul>
 *   <li>time-range conditions: {@code right.time BETWEEN left.time + lower AND left.time + upper}; a strict
 *       {@code <} on second-granular data is the inclusive bound 1 ms further;</li>
 *   <li>no watermark on an input (Spark never drops its rows as late): a watermark delay of {@link #NEVER}; with no
 *       watermark at all, bounds of {@code ±NEVER} too (state kept, nothing late);</li>
 *   <li>a watermark on one input only (Spark's global watermark is then that input's): policy
 *       {@link WatermarkPolicy#MAX} with {@link #NEVER} on the other input;</li>
 *   <li>{@code window(time, "10 seconds")} as part of the join key: the window end in the record key
 *       ({@code key|end}) and bounds of {@code ±(10 s - 1 ms)}, so rows of one window always meet; rows are evicted
 *       by their own time (not the window end), which gives Spark's outputs for the inner and semi joins ported;</li>
 *   <li>{@code StopStream}/{@code StartStream}: not simulated (a TopologyTestDriver drops its state on close);
 *       recovery is covered by {@code IntervalJoinRestartTest}.</li>
 * </ul>
 */
final class SparkJoinPort implements AutoCloseable {

    /** A delay or bound no test reaches: no watermark, no eviction. */
    static final Duration NEVER = Duration.ofDays(365L * 100);

    /** Window length of Spark's windowed join tests. */
    static final long WINDOW_SEC = 10;

    /** Turns an output record into Spark's selected columns. */
    @FunctionalInterface
    interface RowFormat {
        String row(String key, String left, String right);
    }

    /** {@code key:seconds} sides: {@code (leftKey, rightKey, leftTime, rightTime)}, Spark's range-condition select. */
    static final RowFormat KEYS_THEN_TIMES =
            (k, l, r) -> String.join(",", part(l, 0), part(r, 0), part(l, 1), part(r, 1));

    /** {@code key:seconds} sides: {@code (leftKey, leftTime, rightKey, rightTime)}, Spark's self-join select. */
    static final RowFormat LEFT_THEN_RIGHT =
            (k, l, r) -> String.join(",", part(l, 0), part(l, 1), part(r, 0), part(r, 1));

    /** {@code key:seconds} sides: {@code (leftKey, leftTime)}, Spark's left semi select. */
    static final RowFormat LEFT_ONLY = (k, l, r) -> part(l, 0) + "," + part(l, 1);

    /**
     * Windowed joins ({@code setupWindowedJoin}): {@code (key, window.end, leftValue, rightValue)} with
     * {@code leftValue = 2 * key}, {@code rightValue = 3 * key}.
     */
    static final RowFormat WINDOWED = (k, l, r) -> windowKey(k) + "," + value(l, 2) + "," + value(r, 3);

    /** Windowed left semi join: {@code (key, window.end, leftValue)}. */
    static final RowFormat WINDOWED_SEMI = (k, l, r) -> windowKey(k) + "," + value(l, 2);

    private final TopologyTestDriver driver;
    private final TestInputTopic<String, String> left;
    private final TestInputTopic<String, String> right;
    private final TestOutputTopic<String, String> out;
    private final RowFormat format;
    private final boolean windowed;

    SparkJoinPort(Consumer<IntervalJoin.Builder<String, String, String>> config, RowFormat format) {
        this(config, format, false);
    }

    private SparkJoinPort(
            Consumer<IntervalJoin.Builder<String, String, String>> config, RowFormat format, boolean windowed) {
        this.format = format;
        this.windowed = windowed;
        IntervalJoin.Builder<String, String, String> b = IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .executionMode(ExecutionMode.MICRO_BATCH)
                .name("spark");
        config.accept(b);
        StreamsBuilder sb = new StreamsBuilder();
        KStream<String, String> l = sb.stream("left", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> r = sb.stream("right", Consumed.with(Serdes.String(), Serdes.String()));
        b.build().join(l, r, (k, lv, rv) -> lv + "," + rv).to("out", Produced.with(Serdes.String(), Serdes.String()));
        driver = new TopologyTestDriver(sb.build(), properties());
        left = driver.createInputTopic(
                "left", Serdes.String().serializer(), Serdes.String().serializer());
        right = driver.createInputTopic(
                "right", Serdes.String().serializer(), Serdes.String().serializer());
        out = driver.createOutputTopic(
                "out", Serdes.String().deserializer(), Serdes.String().deserializer());
    }

    /**
     * Spark's {@code setupWindowedJoin}: input {@code v} has key {@code v}, time {@code v} s and value {@code 2v}
     * (left) or {@code 3v} (right), grouped into 10 s windows; watermark delays as given ({@link #NEVER} for none).
     */
    static SparkJoinPort windowed(
            JoinType type, Duration leftDelay, Duration rightDelay, WatermarkPolicy policy, RowFormat format) {
        Duration reach = Duration.ofSeconds(WINDOW_SEC).minusMillis(1);
        return new SparkJoinPort(
                b -> b.joinType(type)
                        .lowerBound(reach.negated())
                        .upperBound(reach)
                        .leftWatermarkDelay(leftDelay)
                        .rightWatermarkDelay(rightDelay)
                        .watermarkPolicy(policy),
                format,
                true);
    }

    static Consumer<IntervalJoin.Builder<String, String, String>> range(
            JoinType type, Duration lower, Duration upper, Duration leftDelay, Duration rightDelay) {
        return b -> b.joinType(type)
                .lowerBound(lower)
                .upperBound(upper)
                .leftWatermarkDelay(leftDelay)
                .rightWatermarkDelay(rightDelay);
    }

    /**
     * Spark's {@code setupJoinWithRangeCondition}: {@code leftTime BETWEEN rightTime - bound AND rightTime + bound}
     * ({@code right.time} within {@code ±bound} of {@code left.time}), the same watermark delay on both inputs.
     */
    static SparkJoinPort rangeCondition(JoinType type, Duration watermark, Duration bound, RowFormat format) {
        return new SparkJoinPort(range(type, bound.negated(), bound, watermark, watermark), format);
    }

    /**
     * Spark's {@code setupSelfJoin}: one input, all rows on the left, the even ones on the right,
     * {@code rightTime BETWEEN leftTime AND leftTime + 5 s}, watermark delay 5 s on both.
     */
    static SparkJoinPort selfJoin(JoinType type, RowFormat format) {
        return new SparkJoinPort(
                range(type, Duration.ZERO, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5)),
                format);
    }

    /** Adds rows {@code (v, v s)} of a self join: each to the left input, the even ones to the right input too. */
    SparkJoinPort selfRows(int from, int to) {
        for (int v = from; v <= to; v++) {
            left(v, v);
            if (v % 2 == 0) {
                right(v, v);
            }
        }
        return this;
    }

    /** A join without watermarks or time condition (Spark's plain equi-join of streams). */
    static Consumer<IntervalJoin.Builder<String, String, String>> unbounded(JoinType type) {
        return range(type, NEVER.negated(), NEVER, NEVER, NEVER);
    }

    private static Properties properties() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "spark-join-port");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        try {
            p.put(
                    StreamsConfig.STATE_DIR_CONFIG,
                    java.nio.file.Files.createTempDirectory("spark-join-port").toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return p;
    }

    /** Adds left rows {@code (key, seconds)}, as Spark's {@code AddData(leftInput, (key, time)...)}. */
    SparkJoinPort left(int key, long seconds) {
        left.pipeInput(String.valueOf(key), key + ":" + seconds, seconds * 1000);
        return this;
    }

    /** Adds right rows {@code (key, seconds)}. */
    SparkJoinPort right(int key, long seconds) {
        right.pipeInput(String.valueOf(key), key + ":" + seconds, seconds * 1000);
        return this;
    }

    /** Adds windowed left rows: {@code v} at {@code v} s in its 10 s window. */
    SparkJoinPort leftValues(int... values) {
        for (int v : values) {
            pipeWindowed(left, v);
        }
        return this;
    }

    /** Adds windowed right rows. */
    SparkJoinPort rightValues(int... values) {
        for (int v : values) {
            pipeWindowed(right, v);
        }
        return this;
    }

    private void pipeWindowed(TestInputTopic<String, String> topic, int v) {
        if (!windowed) {
            throw new IllegalStateException("not a windowed port");
        }
        long end = Math.floorDiv(v, WINDOW_SEC) * WINDOW_SEC + WINDOW_SEC;
        topic.pipeInput(v + "|" + end, v + ":" + v, v * 1000L);
    }

    /** Adds a row with an explicit key, value and event time in milliseconds. */
    SparkJoinPort leftRaw(String key, String value, long millis) {
        left.pipeInput(key, value, millis);
        return this;
    }

    /** Adds a row with an explicit key, value and event time in milliseconds. */
    SparkJoinPort rightRaw(String key, String value, long millis) {
        right.pipeInput(key, value, millis);
        return this;
    }

    /** Runs one micro-batch and returns its output rows (Spark's {@code CheckNewAnswer}). */
    List<String> batch() {
        driver.advanceWallClockTime(Duration.ofSeconds(1)); // the batch of the new data
        driver.advanceWallClockTime(Duration.ofSeconds(1)); // its no-data batch, run when the watermark moved
        List<String> rows = new ArrayList<>();
        for (TestRecord<String, String> rec : out.readRecordsToList()) {
            String v = rec.value();
            int comma = v.indexOf(',');
            rows.add(format.row(rec.key(), v.substring(0, comma), v.substring(comma + 1)));
        }
        return rows;
    }

    /** @return field {@code i} of a {@code key:seconds} value, or {@code null} for a missing side */
    static String part(String side, int i) {
        return "null".equals(side) ? "null" : side.split(":")[i];
    }

    private static String windowKey(String key) {
        return key.replace('|', ',');
    }

    /** @return {@code multiplier * key} of a windowed side value ({@code v:v}), or {@code null} */
    private static String value(String side, int multiplier) {
        return "null".equals(side) ? "null" : String.valueOf(multiplier * Long.parseLong(part(side, 0)));
    }

    @Override
    public void close() {
        driver.close();
    }
}
