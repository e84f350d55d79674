package dev.rtmstreams.processor.bench;

import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.ValueState;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
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
 * State API overhead (target: at most 1.3x the hand-written processor's cost, BENCHMARKS.md): a {@link StatefulProcessor} doing one {@code ValueState} get + update
 * per record versus a hand-written Kafka Streams {@link Processor} doing the same get + put on a
 * {@code KeyValueStore<String, Long>}, both on RocksDB, in the same run. Two harnesses:
 * <ul>
 *   <li>{@code direct*}: the processor is called directly with a {@link MockProcessorContext} and a real RocksDB
 *       store (changelogging off: MockProcessorContext cannot log; caching off on both) - isolates the state path;</li>
 *   <li>{@code ttd*}: full {@link TopologyTestDriver} pipeline (changelogged store, serdes, sink-less) - what a
 *       Kafka Streams task pays per record.</li>
 * </ul>
 * and {@code interleaved}: both direct processors fed alternately and timed separately in one loop, which gives the
 * cost ratio robustly on a shared, loaded machine (printed per iteration and as a median).
 * Not run by {@code mvn verify}. Run:
 * <pre>
 * cd rtm-stateful-processor
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test
 * java -cp target/test-classes:target/classes:$(cat target/bench.cp) org.openjdk.jmh.Main StateOverheadBenchmark -f 1 -wi 3 -i 5 -w 2s -r 3s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class StateOverheadBenchmark {

    static final int KEYS = 10_000;

    /** Hand-written baseline: get + put on a KeyValueStore. */
    static final class HandWritten implements Processor<String, String, String, Long> {
        private ProcessorContext<String, Long> context;
        private KeyValueStore<String, Long> store;

        @Override
        public void init(ProcessorContext<String, Long> context) {
            this.context = context;
            this.store = context.getStateStore("baseline");
        }

        @Override
        public void process(Record<String, String> record) {
            Long v = store.get(record.key());
            long n = v == null ? 1 : v + 1;
            store.put(record.key(), n);
            context.forward(record.withValue(n));
        }
    }

    /** The same logic as a StatefulProcessor. */
    static final class Counting extends StatefulProcessor<String, String, Long> {
        private ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
        }

        @Override
        public Iterator<Long> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L) + 1;
            count.update(n);
            return Collections.singletonList(n).iterator();
        }
    }

    static String[] keys() {
        String[] k = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            k[i] = "key-" + i;
        }
        return k;
    }

    static Path tempDir() throws Exception {
        return Files.createTempDirectory("rtm-bench");
    }

    static void delete(Path d) throws Exception {
        try (Stream<Path> w = Files.walk(d)) {
            w.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    static StreamsConfig config(Path dir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        return new StreamsConfig(p);
    }

    /** Direct harness state. */
    @State(Scope.Thread)
    public static class Direct {
        @Param({"baseline", "tws"})
        public String impl;

        String[] keys = keys();
        int i;
        Path dir;
        MockProcessorContext<String, Long> context;
        Processor<String, String, String, Long> processor;
        KeyValueStore<?, ?> store;

        @Setup(Level.Trial)
        @SuppressWarnings({"unchecked", "rawtypes"})
        public void setUp() throws Exception {
            dir = tempDir();
            Properties props = new Properties();
            props.putAll(config(dir).originals());
            context = new MockProcessorContext<>(
                    props, new org.apache.kafka.streams.processor.TaskId(0, 0), dir.toFile());
            context.setCurrentSystemTimeMs(0L);
            if (impl.equals("baseline")) {
                StoreBuilder<KeyValueStore<String, Long>> b = Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore("baseline"), Serdes.String(), Serdes.Long())
                        .withLoggingDisabled()
                        .withCachingDisabled();
                store = b.build();
                processor = new HandWritten();
            } else {
                TransformWithState<String, String, Long> tws = TransformWithState.builder(Counting::new, TimeMode.NONE)
                        .name("tws")
                        .keySerde(Serdes.String())
                        .storeBackend(StoreBackend.ROCKS_DB)
                        .build();
                StoreBuilder<KeyValueStore<Bytes, byte[]>> b = Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(tws.storeName()), Serdes.Bytes(), Serdes.ByteArray())
                        .withLoggingDisabled()
                        .withCachingDisabled();
                store = b.build();
                processor = tws.get();
            }
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
            processor.init(context);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            processor.close();
            store.close();
            delete(dir);
        }
    }

    @Benchmark
    public int direct(Direct s) {
        String k = s.keys[s.i++ % KEYS];
        s.processor.process(new Record<>(k, "v", 0L));
        s.context.resetForwards();
        return s.i;
    }

    /**
     * Both processors side by side, fed alternately (one record each per invocation) and timed separately, so that
     * a machine shared with other jobs slows both equally. Prints the tws/baseline cost ratio per iteration and
     * the median at the end of the trial.
     */
    @State(Scope.Thread)
    public static class Interleaved {
        Direct baseline = new Direct();
        Direct tws = new Direct();
        long baselineNanos;
        long twsNanos;
        final java.util.List<Double> ratios = new java.util.ArrayList<>();

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            baseline.impl = "baseline";
            tws.impl = "tws";
            baseline.setUp();
            tws.setUp();
        }

        @Setup(Level.Iteration)
        public void resetCounters() {
            baselineNanos = 0;
            twsNanos = 0;
        }

        @TearDown(Level.Iteration)
        public void report() {
            double r = (double) twsNanos / baselineNanos;
            ratios.add(r);
            System.out.printf("  [interleaved] tws/baseline per-record cost ratio this iteration: %.3f%n", r);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            java.util.List<Double> sorted = new java.util.ArrayList<>(ratios);
            Collections.sort(sorted);
            System.out.printf(
                    "  [interleaved] ratios (incl. warmup) %s; median %.3f%n", ratios, sorted.get(sorted.size() / 2));
            baseline.tearDown();
            tws.tearDown();
        }
    }

    @Benchmark
    @org.openjdk.jmh.annotations.OperationsPerInvocation(2)
    public int interleaved(Interleaved s) {
        long t0 = System.nanoTime();
        direct(s.baseline);
        long t1 = System.nanoTime();
        direct(s.tws);
        long t2 = System.nanoTime();
        s.baselineNanos += t1 - t0;
        s.twsNanos += t2 - t1;
        return s.baseline.i;
    }

    /** TopologyTestDriver harness state. */
    @State(Scope.Thread)
    public static class Driver {
        @Param({"baseline", "tws"})
        public String impl;

        String[] keys = keys();
        int i;
        Path dir;
        TopologyTestDriver driver;
        TestInputTopic<String, String> in;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            dir = tempDir();
            StreamsBuilder b = new StreamsBuilder();
            if (impl.equals("baseline")) {
                b.addStateStore(Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore("baseline"), Serdes.String(), Serdes.Long())
                        .withCachingDisabled());
                ProcessorSupplier<String, String, String, Long> s = HandWritten::new;
                b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).process(s, "baseline");
            } else {
                b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                        .process(TransformWithState.builder(Counting::new, TimeMode.NONE)
                                .name("tws")
                                .build());
            }
            Properties p = new Properties();
            p.putAll(config(dir).originals());
            driver = new TopologyTestDriver(b.build(), p, Instant.EPOCH);
            in = driver.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.String().serializer());
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            driver.close();
            delete(dir);
        }
    }

    @Benchmark
    public int ttd(Driver s) {
        s.in.pipeInput(s.keys[s.i++ % KEYS], "v");
        return s.i;
    }
}
