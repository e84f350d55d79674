package dev.rtmstreams.topology.testing;

import dev.rtmstreams.topology.Trigger;
import dev.rtmstreams.topology.testing.ModeContractChecker.Equivalence;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Test utility: runs a whole topology over the same input under {@link Trigger#realTime()} and {@link
 * Trigger#microBatch(Duration)} (two {@link RtmTopologyTestDriver} runs) and reports every difference in its output,
 * so the "per-row trap" (an operator that assumes it sees a whole batch) anywhere in a chain of operators fails a
 * unit test instead of production. {@link ModeContractChecker} is the same check for a single operator.
 *
 * <pre>{@code
 * ContractReport<String, Long> report = TopologyModeContractChecker
 *     .builder(MyApp::topology, "clicks", Serdes.String(), Serdes.String(), "counts", Serdes.Long())
 *     .build()
 *     .checkRows(rows, 10);
 * assertThat(report.differences()).isEmpty();
 * }</pre>
 *
 * <p>The topology reads one input topic and writes the output topic under test; output keys have the input key's
 * type. Driving and comparison are those of {@link ModeContractChecker}: every row of batch {@code i} is piped at
 * {@code start + i * interval} (record timestamps increase by 1 ms per row), then the wall clock advances by the
 * interval; per batch and output key, the micro-batch output must equal the concatenated real-time outputs of the
 * batch ({@link Equivalence#PER_ROW}) or the real-time output of the last row of that key ({@link
 * Equivalence#LATEST_PER_BATCH}), plus in both cases what the wall-clock step emitted.
 *
 * @param <K> key of the input and output records
 * @param <I> input value
 * @param <O> output value (compared with {@code equals})
 */
@InterfaceStability.Evolving
public final class TopologyModeContractChecker<K, I, O> {

    private final Supplier<Topology> topology;
    private final String inputTopic;
    private final Serde<K> keySerde;
    private final Serde<I> inputSerde;
    private final String outputTopic;
    private final Serde<O> outputSerde;
    private final Duration interval;
    private final Equivalence equivalence;
    private final Instant start;
    private final Properties properties;

    private TopologyModeContractChecker(Builder<K, I, O> b) {
        this.topology = b.topology;
        this.inputTopic = b.inputTopic;
        this.keySerde = b.keySerde;
        this.inputSerde = b.inputSerde;
        this.outputTopic = b.outputTopic;
        this.outputSerde = b.outputSerde;
        this.interval = b.interval;
        this.equivalence = b.equivalence;
        this.start = b.start;
        this.properties = b.properties;
    }

    /**
     * @param topology creates the topology under test (one instance per run); not null
     * @param inputTopic the topic the rows are piped to; not null
     * @param keySerde serde of the input and output keys; not null
     * @param inputSerde serde of the input values; not null
     * @param outputTopic the topic whose output is compared; not null
     * @param outputSerde serde of the output values; not null
     * @return a builder
     */
    public static <K, I, O> Builder<K, I, O> builder(
            Supplier<Topology> topology,
            String inputTopic,
            Serde<K> keySerde,
            Serde<I> inputSerde,
            String outputTopic,
            Serde<O> outputSerde) {
        return new Builder<>(topology, inputTopic, keySerde, inputSerde, outputTopic, outputSerde);
    }

    /**
     * Runs both triggers over {@code batches} and compares them.
     * @param batches micro-batches of rows in arrival order; empty batches are allowed (wall-clock steps only)
     * @return the report, never null
     */
    public ContractReport<K, O> check(List<List<KeyValue<K, I>>> batches) {
        Objects.requireNonNull(batches, "batches");
        Run realTime = run(Trigger.realTime(), batches);
        Run microBatch = run(Trigger.microBatch(interval), batches);
        List<ContractDifference<K, O>> diffs = new ArrayList<>();
        for (int b = 0; b < batches.size(); b++) {
            BatchOutput rt = realTime.batches.get(b);
            BatchOutput mb = microBatch.batches.get(b);
            Set<K> keys = new LinkedHashSet<>(rt.rows.keySet());
            keys.addAll(rt.timers.keySet());
            keys.addAll(mb.batch.keySet());
            for (K key : keys) {
                List<O> timers = rt.timers.getOrDefault(key, List.of());
                List<O> perRow = concat(rt.rows.getOrDefault(key, List.of()), timers);
                List<O> last = concat(rt.lastRow.getOrDefault(key, List.of()), timers);
                List<O> got = mb.batch.getOrDefault(key, List.of());
                boolean ok = switch (equivalence) {
                    case PER_ROW -> got.equals(perRow);
                    case LATEST_PER_BATCH -> got.equals(last);
                    case PER_ROW_OR_LATEST -> got.equals(perRow) || got.equals(last);
                };
                if (!ok) {
                    diffs.add(new ContractDifference<>(b, key, perRow, last, got));
                }
            }
        }
        return new ContractReport<>(diffs, realTime.all, microBatch.all);
    }

    /**
     * Same as {@link #check(List)} with the rows cut into batches of {@code rowsPerBatch}.
     * @throws IllegalArgumentException when {@code rowsPerBatch < 1}
     */
    public ContractReport<K, O> checkRows(List<KeyValue<K, I>> rows, int rowsPerBatch) {
        if (rowsPerBatch < 1) {
            throw new IllegalArgumentException("rowsPerBatch must be at least 1: " + rowsPerBatch);
        }
        List<List<KeyValue<K, I>>> batches = new ArrayList<>();
        for (int i = 0; i < rows.size(); i += rowsPerBatch) {
            batches.add(rows.subList(i, Math.min(rows.size(), i + rowsPerBatch)));
        }
        return check(batches);
    }

    private static <O> List<O> concat(List<O> a, List<O> b) {
        if (b.isEmpty()) {
            return a;
        }
        List<O> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private final class BatchOutput {
        final Map<K, List<O>> rows = new LinkedHashMap<>();
        final Map<K, List<O>> lastRow = new LinkedHashMap<>();
        final Map<K, List<O>> timers = new LinkedHashMap<>();
        final Map<K, List<O>> batch = new LinkedHashMap<>();
    }

    private final class Run {
        final List<BatchOutput> batches = new ArrayList<>();
        final List<KeyValue<K, O>> all = new ArrayList<>();
    }

    private Run run(Trigger trigger, List<List<KeyValue<K, I>>> batches) {
        Properties p = new Properties();
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        p.putAll(properties);
        boolean realTime = trigger.isRealTime();
        Run run = new Run();
        try (RtmTopologyTestDriver driver = RtmTopologyTestDriver.builder(topology.get(), trigger)
                .properties(p)
                .startTime(start)
                .build()) {
            TestInputTopic<K, I> in =
                    driver.createInputTopic(inputTopic, keySerde.serializer(), inputSerde.serializer());
            TestOutputTopic<K, O> out =
                    driver.createOutputTopic(outputTopic, keySerde.deserializer(), outputSerde.deserializer());
            for (int b = 0; b < batches.size(); b++) {
                BatchOutput bo = new BatchOutput();
                long batchStart = start.toEpochMilli() + b * interval.toMillis();
                List<KeyValue<K, I>> rows = batches.get(b);
                for (int r = 0; r < rows.size(); r++) {
                    KeyValue<K, I> row = rows.get(r);
                    in.pipeInput(new TestRecord<>(row.key, row.value, Instant.ofEpochMilli(batchStart + r)));
                    List<KeyValue<K, O>> emitted = out.readKeyValuesToList();
                    run.all.addAll(emitted);
                    if (realTime) {
                        bo.lastRow.put(row.key, new ArrayList<>());
                        for (KeyValue<K, O> kv : emitted) {
                            bo.rows
                                    .computeIfAbsent(kv.key, k -> new ArrayList<>())
                                    .add(kv.value);
                            bo.lastRow
                                    .computeIfAbsent(kv.key, k -> new ArrayList<>())
                                    .add(kv.value);
                        }
                    } else {
                        for (KeyValue<K, O> kv : emitted) { // nothing is expected before the batch runs
                            bo.batch
                                    .computeIfAbsent(kv.key, k -> new ArrayList<>())
                                    .add(kv.value);
                        }
                    }
                }
                bo.lastRow.values().removeIf(List::isEmpty);
                driver.advanceWallClockTime(interval);
                List<KeyValue<K, O>> emitted = out.readKeyValuesToList();
                run.all.addAll(emitted);
                for (KeyValue<K, O> kv : emitted) {
                    (realTime ? bo.timers : bo.batch)
                            .computeIfAbsent(kv.key, k -> new ArrayList<>())
                            .add(kv.value);
                }
                run.batches.add(bo);
            }
        }
        return run;
    }

    /** A micro-batch interval both checkers accept: at least the trigger's minimum. */
    static Duration checkedInterval(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.compareTo(Trigger.MIN_MICRO_BATCH_INTERVAL) < 0) {
            throw new IllegalArgumentException("microBatchInterval must be at least "
                    + Trigger.MIN_MICRO_BATCH_INTERVAL.toMillis() + " ms: " + interval);
        }
        return interval;
    }

    /** Builds a {@link TopologyModeContractChecker}. */
    public static final class Builder<K, I, O> {
        private final Supplier<Topology> topology;
        private final String inputTopic;
        private final Serde<K> keySerde;
        private final Serde<I> inputSerde;
        private final String outputTopic;
        private final Serde<O> outputSerde;
        private final Properties properties = new Properties();
        private Duration interval = Duration.ofSeconds(1);
        private Equivalence equivalence = Equivalence.PER_ROW_OR_LATEST;
        private Instant start = RtmTopologyTestDriver.DEFAULT_START;

        private Builder(
                Supplier<Topology> topology,
                String inputTopic,
                Serde<K> keySerde,
                Serde<I> inputSerde,
                String outputTopic,
                Serde<O> outputSerde) {
            this.topology = Objects.requireNonNull(topology, "topology");
            this.inputTopic = Objects.requireNonNull(inputTopic, "inputTopic");
            this.keySerde = Objects.requireNonNull(keySerde, "keySerde");
            this.inputSerde = Objects.requireNonNull(inputSerde, "inputSerde");
            this.outputTopic = Objects.requireNonNull(outputTopic, "outputTopic");
            this.outputSerde = Objects.requireNonNull(outputSerde, "outputSerde");
        }

        /** @param interval the micro-batch interval, also the wall-clock step per batch (default 1 s) @return this */
        public Builder<K, I, O> microBatchInterval(Duration interval) {
            this.interval = checkedInterval(interval);
            return this;
        }

        /** @param equivalence what counts as equal output (default {@link Equivalence#PER_ROW_OR_LATEST}) @return this */
        public Builder<K, I, O> equivalence(Equivalence equivalence) {
            this.equivalence = Objects.requireNonNull(equivalence, "equivalence");
            return this;
        }

        /** @param start wall-clock start of both runs (default 2026-01-01T00:00:00Z) @return this */
        public Builder<K, I, O> startTime(Instant start) {
            this.start = Objects.requireNonNull(start, "start");
            return this;
        }

        /** @param props extra Kafka Streams and {@code rtm.*} properties for both runs (copied) @return this */
        public Builder<K, I, O> properties(Properties props) {
            properties.putAll(Objects.requireNonNull(props, "props"));
            return this;
        }

        /** @return the checker */
        public TopologyModeContractChecker<K, I, O> build() {
            return new TopologyModeContractChecker<>(this);
        }
    }
}
