package dev.rtmstreams.topology.testing;

import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Test utility: runs a {@link StatefulProcessor} over the same input under the real-time contract and the micro-batch
 * contract (two {@link TopologyTestDriver} runs of {@link TransformWithState}, selected with
 * {@code rtm.execution.mode}) and reports every difference in output, so the "per-row trap" (a
 * {@code handleInputRows} that assumes it sees a whole batch) fails a unit test instead of production. Any other
 * key-preserving operator that follows {@code rtm.execution.mode} (e.g. rtm-join's {@code Deduplicate}) is checked
 * the same way with {@link #forOperator}.
 * <pre>{@code
 * ContractReport<String, Flag> report = ModeContractChecker
 *     .builder(ThresholdProcessor::new, TimeMode.NONE, Serdes.String(), amountSerde, flagSerde)
 *     .build()
 *     .check(List.of(List.of(KeyValue.pair("card-1", 60.0), KeyValue.pair("card-1", 50.0))));
 * assertThat(report.differences()).isEmpty();
 * }</pre>
 * <p><b>How the runs are driven.</b> The input is a list of micro-batches, each a list of rows in arrival order. Both
 * runs use the same wall clock: every row of batch {@code i} is piped at {@code start + i * interval} (record
 * timestamps increase by 1 ms per row), then the wall clock advances by the interval, which runs the micro-batch (and
 * fires due timers in both runs).
 * <p><b>What counts as equal</b>, per batch and key (see {@link Equivalence}): the micro-batch output must equal the
 * concatenation of the real-time outputs of that key's rows in the batch ({@link Equivalence#PER_ROW}: a processor
 * that emits per row), or the real-time output of the key's last row ({@link Equivalence#LATEST_PER_BATCH}: an
 * update-mode processor that emits its current aggregate once per call), plus in both cases the timer output.
 * The default accepts either.
 *
 * @param <K> grouping key
 * @param <I> input row
 * @param <O> output row (compared with {@code equals})
 */
@InterfaceStability.Evolving
public final class ModeContractChecker<K, I, O> {

    /** When the outputs of a key in a batch count as equivalent. */
    public enum Equivalence {
        /** micro-batch output == real-time outputs of all the key's rows of the batch, concatenated. */
        PER_ROW,
        /** micro-batch output == real-time output of the key's last row of the batch. */
        LATEST_PER_BATCH,
        /** either of the two (the default). */
        PER_ROW_OR_LATEST
    }

    private static final String INPUT = "rtm-contract-input";
    private static final String OUTPUT = "rtm-contract-output";

    private final Supplier<? extends ProcessorSupplier<K, I, K, O>> operator;
    private final Serde<K> keySerde;
    private final Serde<I> inputSerde;
    private final Serde<O> outputSerde;
    private final Duration interval;
    private final Equivalence equivalence;
    private final Instant start;

    private ModeContractChecker(Builder<K, I, O> b) {
        this.operator = b.operator;
        this.keySerde = b.keySerde;
        this.inputSerde = b.inputSerde;
        this.outputSerde = b.outputSerde;
        this.interval = b.interval;
        this.equivalence = b.equivalence;
        this.start = b.start;
    }

    /**
     * @param processor creates the processor under test (one instance per run)
     * @param timeMode its time mode
     * @param keySerde serde of the grouping key
     * @param inputSerde serde of the input rows
     * @param outputSerde serde of the output rows
     * @return a builder
     */
    public static <K, I, O> Builder<K, I, O> builder(
            Supplier<? extends StatefulProcessor<K, I, O>> processor,
            TimeMode timeMode,
            Serde<K> keySerde,
            Serde<I> inputSerde,
            Serde<O> outputSerde) {
        Objects.requireNonNull(processor, "processor");
        Objects.requireNonNull(timeMode, "timeMode");
        Objects.requireNonNull(inputSerde, "inputSerde");
        return new Builder<>(
                () -> TransformWithState.builder(processor, timeMode)
                        .name("contract-check")
                        .keySerde(keySerde)
                        .valueSerde(inputSerde)
                        .build(),
                keySerde,
                inputSerde,
                outputSerde);
    }

    /**
     * Checks any key-preserving operator that follows the execution contract selected by {@code rtm.execution.mode},
     * e.g. rtm-join's {@code Deduplicate} or a {@code TransformWithState} built with options.
     * @param operator creates the operator under test (one per run); its output key must be its input key
     * @param keySerde serde of the key
     * @param inputSerde serde of the input values
     * @param outputSerde serde of the output values
     * @return a builder
     */
    public static <K, I, O> Builder<K, I, O> forOperator(
            Supplier<? extends ProcessorSupplier<K, I, K, O>> operator,
            Serde<K> keySerde,
            Serde<I> inputSerde,
            Serde<O> outputSerde) {
        return new Builder<>(operator, keySerde, inputSerde, outputSerde);
    }

    /**
     * Runs both contracts over {@code batches} and compares them.
     * @param batches micro-batches of rows in arrival order; empty batches are allowed (timers only)
     * @return the report, never null
     */
    public ContractReport<K, O> check(List<List<KeyValue<K, I>>> batches) {
        Objects.requireNonNull(batches, "batches");
        Run realTime = run(RtmProcessorConfig.EXECUTION_MODE_REAL_TIME, batches);
        Run microBatch = run(RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH, batches);
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

    private Run run(String mode, List<List<KeyValue<K, I>>> batches) {
        StreamsBuilder sb = new StreamsBuilder();
        sb.stream(INPUT, Consumed.with(keySerde, inputSerde))
                .process(operator.get())
                .to(OUTPUT, Produced.with(keySerde, outputSerde));
        Path dir;
        try {
            dir = Files.createTempDirectory("rtm-contract-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "rtm-mode-contract-check");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        p.put(RtmProcessorConfig.EXECUTION_MODE_CONFIG, mode);
        p.put(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG, Long.toString(interval.toMillis()));
        boolean realTime = RtmProcessorConfig.EXECUTION_MODE_REAL_TIME.equals(mode);
        Run run = new Run();
        try (TopologyTestDriver driver = new TopologyTestDriver(sb.build(), p, start)) {
            TestInputTopic<K, I> in = driver.createInputTopic(INPUT, keySerde.serializer(), inputSerde.serializer());
            TestOutputTopic<K, O> out =
                    driver.createOutputTopic(OUTPUT, keySerde.deserializer(), outputSerde.deserializer());
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

    /** Builds a {@link ModeContractChecker}. */
    public static final class Builder<K, I, O> {
        private final Supplier<? extends ProcessorSupplier<K, I, K, O>> operator;
        private final Serde<K> keySerde;
        private final Serde<I> inputSerde;
        private final Serde<O> outputSerde;
        private Duration interval = Duration.ofSeconds(1);
        private Equivalence equivalence = Equivalence.PER_ROW_OR_LATEST;
        private Instant start = Instant.parse("2026-01-01T00:00:00Z");

        private Builder(
                Supplier<? extends ProcessorSupplier<K, I, K, O>> operator,
                Serde<K> keySerde,
                Serde<I> inputSerde,
                Serde<O> outputSerde) {
            this.operator = Objects.requireNonNull(operator, "operator");
            this.keySerde = Objects.requireNonNull(keySerde, "keySerde");
            this.inputSerde = Objects.requireNonNull(inputSerde, "inputSerde");
            this.outputSerde = Objects.requireNonNull(outputSerde, "outputSerde");
        }

        /** @param interval the micro-batch interval, also the wall-clock step per batch (default 1 s) */
        public Builder<K, I, O> microBatchInterval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.toMillis() < 1) {
                throw new IllegalArgumentException("microBatchInterval must be at least 1 ms: " + interval);
            }
            this.interval = interval;
            return this;
        }

        /** @param equivalence what counts as equal output (default {@link Equivalence#PER_ROW_OR_LATEST}) */
        public Builder<K, I, O> equivalence(Equivalence equivalence) {
            this.equivalence = Objects.requireNonNull(equivalence, "equivalence");
            return this;
        }

        /** @param start wall-clock start of both runs (default 2026-01-01T00:00:00Z) */
        public Builder<K, I, O> startTime(Instant start) {
            this.start = Objects.requireNonNull(start, "start");
            return this;
        }

        /** @return the checker */
        public ModeContractChecker<K, I, O> build() {
            return new ModeContractChecker<>(this);
        }
    }
}
