package dev.rtmstreams.topology.testing;

import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;

/**
 * Test utility: runs a {@link StatefulProcessor} over the same input under the real-time contract and the micro-batch
 * contract (two {@link RtmTopologyTestDriver} runs of {@link TransformWithState}, selected with
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
 * <p>This is {@link TopologyModeContractChecker} for a topology of one operator; the runs are {@link
 * RtmTopologyTestDriver}s under {@code Trigger.realTime()} and {@code Trigger.microBatch(interval)}.
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

    private final TopologyModeContractChecker<K, I, O> topologyChecker;

    private ModeContractChecker(Builder<K, I, O> b) {
        Supplier<? extends ProcessorSupplier<K, I, K, O>> operator = b.operator;
        Serde<K> keySerde = b.keySerde;
        Serde<I> inputSerde = b.inputSerde;
        Serde<O> outputSerde = b.outputSerde;
        this.topologyChecker = TopologyModeContractChecker.builder(
                        () -> {
                            StreamsBuilder sb = new StreamsBuilder();
                            sb.stream(INPUT, Consumed.with(keySerde, inputSerde))
                                    .process(operator.get())
                                    .to(OUTPUT, Produced.with(keySerde, outputSerde));
                            return sb.build();
                        },
                        INPUT,
                        keySerde,
                        inputSerde,
                        OUTPUT,
                        outputSerde)
                .microBatchInterval(b.interval)
                .equivalence(b.equivalence)
                .startTime(b.start)
                .build();
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
        return topologyChecker.check(batches);
    }

    /**
     * Same as {@link #check(List)} with the rows cut into batches of {@code rowsPerBatch}.
     * @throws IllegalArgumentException when {@code rowsPerBatch < 1}
     */
    public ContractReport<K, O> checkRows(List<KeyValue<K, I>> rows, int rowsPerBatch) {
        return topologyChecker.checkRows(rows, rowsPerBatch);
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

        /** @param interval the micro-batch interval (at least 10 ms), also the wall-clock step per batch (default 1 s) */
        public Builder<K, I, O> microBatchInterval(Duration interval) {
            this.interval = TopologyModeContractChecker.checkedInterval(interval);
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
