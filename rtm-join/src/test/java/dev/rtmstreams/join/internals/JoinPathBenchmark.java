package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.EvictionIndex;
import dev.rtmstreams.join.JoinType;
import dev.rtmstreams.join.WatermarkPolicy;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.spi.OperatorStores;
import dev.rtmstreams.processor.spi.TaskShared;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one input record through the interval join's own path, without Kafka: the late check, the copy check
 * ({@code distinctBy}), the probe of the other side, the emission of a match, the insert and the record-triggered
 * eviction, on one task's two side processors driven through a {@link MockProcessorContext}. No broker, no record
 * queues, no processor nodes around the join, no serdes of the inputs: so that a change to the join's path (a store, a
 * filter, the row layout) can be measured alone; the bench measures the whole service.
 *
 * <p>The task's stores are those {@code IntervalJoinTopology} gives a task (rows and time index per side on
 * {@link #backend}, the meta, pending and activity stores in memory, the task-local state), except that none is
 * changelogged: the row batches are still built (what a changelogged buffer pays before the send), but not sent.
 *
 * <p>The workload is one task's share of the service's bench at 10 000 events/s on two partitions: 5 000 events per
 * second of event time, 90% impressions with new keys, 10% clicks on an impression 10 s (exponential mean) earlier, 1%
 * copies of an impression; values of 120 bytes; both sides {@code distinctBy} their id, as the service's join. Event time
 * advances with the records, so the buffers fill for one horizon ({@link #window} plus {@link #delay}: 7 minutes, 2.1
 * million records, at the service's defaults) and eviction runs from then on.
 *
 * <p>Not a CI test. Run (one fork, after the warm-up the state holds a full horizon at the defaults only after about
 * 2.1 million operations; {@code -p window=PT10S -p delay=PT5S} gives the steady state of a 15 s horizon at once):
 * <pre>
 * cd rtm-join
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test
 * java -cp target/test-classes:target/classes:$(cat target/bench.cp) org.openjdk.jmh.Main JoinPathBenchmark \
 *     -f 1 -wi 3 -i 5 -w 10s -r 10s
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 10)
@Measurement(iterations = 5, time = 10)
public class JoinPathBenchmark {

    /** Events per second of event time: one task's share (two partitions) of 10 000 events/s. */
    private static final long EVENTS_PER_SECOND = 5_000;

    private static final int VALUE_BYTES = 120;
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    @Param({"ROCKS_DB", "IN_MEMORY"})
    public StoreBackend backend;

    @Param({"HEAP", "STATE_STORE"})
    public EvictionIndex evictionIndex;

    /** The attribution window (the join's upper bound; the lower bound is 0). */
    @Param({"PT2M"})
    public String window;

    /** Both inputs' watermark delay. */
    @Param({"PT5M"})
    public String delay;

    private File stateDir;
    private MockProcessorContext<String, Object> context;
    private JoinSideProcessor<String, Row, Row, Row, Object> left;
    private JoinSideProcessor<String, Row, Row, Row, Object> right;
    private List<StateStore> stores;
    private final double[] clickDelays = new double[4096];
    private long events;
    private long impressions;
    private long clicks;
    private long outputs;

    /** A join input: the event time and id it carries, and its serialized form (as the service's inputs carry theirs). */
    record Row(long eventTime, String id, byte[] bytes) {

        static Row of(long eventTime, String id) {
            byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(VALUE_BYTES);
            b.putLong(eventTime).put((byte) idBytes.length).put(idBytes);
            return new Row(eventTime, id, b.array());
        }

        static Row parse(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            long eventTime = b.getLong();
            int n = b.get();
            return new Row(eventTime, new String(bytes, 9, n, StandardCharsets.UTF_8), bytes);
        }

        static Serde<Row> serde() {
            Serializer<Row> serializer = (topic, row) -> row == null ? null : row.bytes();
            Deserializer<Row> deserializer = (topic, bytes) -> bytes == null ? null : parse(bytes);
            return Serdes.serdeFrom(serializer, deserializer);
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        JoinSpec<String, Row, Row> spec = spec(backend, evictionIndex, Duration.parse(window), Duration.parse(delay));
        stateDir = Files.createTempDirectory("join-path-bench").toFile();
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "join-path-bench");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.getAbsolutePath());
        config.put("processing.exception.handler.global.enabled", "true"); // silences a warning per store
        context = new MockProcessorContext<>(config, new TaskId(0, 0), stateDir);
        stores = stores(spec).stream().map(b -> (StateStore) b.build()).toList();
        for (StateStore s : stores) {
            s.init(context.getStateStoreContext(), s);
            context.addStateStore(s);
        }
        // both sides share one task state, as IntervalJoinTopology wires them
        TaskShared<JoinTaskState> taskState = new TaskShared<>(state -> {});
        left = new JoinSideProcessor<>(true, spec, (k, imp, click) -> click, spec.leftEventTime(), taskState);
        right = new JoinSideProcessor<>(false, spec, (k, imp, click) -> click, spec.rightEventTime(), taskState);
        left.init(context);
        right.init(context);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < clickDelays.length; i++) {
            clickDelays[i] = -Math.log(1 - random.nextDouble()) * 10.0; // seconds, mean 10
        }
    }

    /**
     * The join as the service builds it (inner, bounds [0, window], both delays, MIN watermark, {@code distinctBy} the
     * id on both sides), on {@code backend}.
     */
    static JoinSpec<String, Row, Row> spec(
            StoreBackend backend, EvictionIndex evictionIndex, Duration window, Duration delay) {
        return new JoinSpec<>(
                "bench",
                Serdes.String(),
                Row.serde(),
                Row.serde(),
                (k, row, ts) -> row.eventTime(),
                (k, row, ts) -> row.eventTime(),
                delay.toMillis(),
                delay.toMillis(),
                0L,
                window.toMillis(),
                JoinType.INNER,
                WatermarkPolicy.MIN,
                null,
                backend,
                evictionIndex,
                ExecutionMode.REAL_TIME,
                -1L,
                1_000, // the builder's default maxEvictionsPerPass
                false,
                -1L,
                false,
                DistinctBy.of("leftDistinctBy", (String k, Row row) -> row.id(), Serdes.String()),
                DistinctBy.of("rightDistinctBy", (String k, Row row) -> row.id(), Serdes.String()));
    }

    /** The stores {@code IntervalJoinTopology#build} connects to a join's processors, none changelogged. */
    static List<StoreBuilder<? extends StateStore>> stores(JoinSpec<?, ?, ?> spec) {
        List<StoreBuilder<? extends StateStore>> stores = new ArrayList<>(List.of(
                OperatorStores.keyValue(spec.leftBufferStore(), spec.backend(), false),
                OperatorStores.keyValue(spec.rightBufferStore(), spec.backend(), false),
                OperatorStores.keyValue(spec.metaStore(), StoreBackend.IN_MEMORY, false),
                OperatorStores.keyValue(spec.pendingStore(), StoreBackend.IN_MEMORY, false),
                OperatorStores.keyValue(spec.activityStore(), StoreBackend.IN_MEMORY, false)));
        if (spec.evictionIndex() == EvictionIndex.STATE_STORE) {
            stores.add(OperatorStores.keyValue(spec.leftIndexStore(), spec.backend(), false));
            stores.add(OperatorStores.keyValue(spec.rightIndexStore(), spec.backend(), false));
        }
        return stores;
    }

    /** One input record: an impression, a copy of the previous one, or a click, in the workload's proportions. */
    @Benchmark
    public void record() {
        long n = events++;
        long t = T0 + n * 1000 / EVENTS_PER_SECOND;
        context.setCurrentSystemTimeMs(t);
        if (n % 10 == 9) {
            long delayed = (long) (clickDelays[(int) (clicks & 4095)] * EVENTS_PER_SECOND * 9 / 10);
            long target = Math.max(0, impressions - 1 - delayed);
            Row click = Row.of(t, "clk-" + clicks++);
            right.process(new Record<>("imp-" + target, click, t));
        } else if (n % 100 == 50 && impressions > 0) {
            long previous = impressions - 1;
            Row copy = Row.of(T0 + (n - 1) * 1000 / EVENTS_PER_SECOND, "imp-" + previous);
            left.process(new Record<>("imp-" + previous, copy, t));
        } else {
            String key = "imp-" + impressions++;
            left.process(new Record<>(key, Row.of(t, key), t));
        }
        if ((n & 1023) == 0) {
            outputs += context.forwarded().size();
            context.resetForwards();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        outputs += context.forwarded().size();
        // a check of the workload, not of the join: each click has its impression in the window, so about one output
        // per click (a little less at the start, where early clicks fall back to the first impression)
        System.out.printf(
                "%n%d records: %d impressions, %d clicks, %d outputs (%.2f per click)%n",
                events, impressions, clicks, outputs, clicks == 0 ? 0.0 : (double) outputs / clicks);
        left.close();
        right.close();
        for (StateStore s : stores) {
            s.close();
        }
        try (Stream<java.nio.file.Path> paths = Files.walk(stateDir.toPath())) {
            for (java.nio.file.Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
