package dev.rtmstreams.topology.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.ValueState;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

class ModeContractCheckerTest {

    static final double THRESHOLD = 100.0;

    /** Seed 002's micro-batch assumption: "inputRows holds ALL rows for this key in the batch". */
    static final class BatchThresholdProcessor extends StatefulProcessor<String, Double, String> {
        private ValueState<Double> running;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            running = getHandle().getValueState("running", Serdes.Double());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<Double> rows, TimerValues timerValues) {
            List<Double> all = new ArrayList<>();
            rows.forEachRemaining(all::add);
            double total = all.stream().mapToDouble(Double::doubleValue).sum();
            List<String> out = new ArrayList<>();
            if (total > THRESHOLD) { // batch level decision
                out.add("flagged_total=" + total + ",n=" + all.size());
            }
            running.update(total);
            return out.iterator();
        }
    }

    /** Seed 002's fix: "state IS the aggregate". */
    static final class StatefulThresholdProcessor extends StatefulProcessor<String, Double, String> {
        private ValueState<Double> running;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            running = getHandle().getValueState("running", Serdes.Double());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<Double> rows, TimerValues timerValues) {
            double total = running.getOption().orElse(0.0);
            while (rows.hasNext()) {
                total += rows.next();
            }
            running.update(total);
            return total > THRESHOLD
                    ? List.of("flagged_total=" + total).iterator()
                    : java.util.Collections.emptyIterator();
        }
    }

    /** Emits one running count per row (Databricks' RTM count example): per-row equivalent. */
    static final class CountPerRowProcessor extends StatefulProcessor<String, Double, String> {
        private ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<Double> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L);
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                rows.next();
                out.add(key + ":" + ++n);
            }
            count.update(n);
            return out.iterator();
        }
    }

    private static ModeContractChecker.Builder<String, Double, String> checker(
            java.util.function.Supplier<? extends StatefulProcessor<String, Double, String>> p) {
        return ModeContractChecker.builder(p, TimeMode.NONE, Serdes.String(), Serdes.Double(), Serdes.String());
    }

    private static final List<List<KeyValue<String, Double>>> SEED_INPUT = List.of(
            List.of(KeyValue.pair("card-1", 60.0), KeyValue.pair("card-2", 30.0), KeyValue.pair("card-1", 50.0)),
            List.of(KeyValue.pair("card-2", 20.0), KeyValue.pair("card-1", 10.0)));

    @Test
    void shouldReportDifferenceWhenHandleInputRowsSumsTheBatch() {
        ContractReport<String, String> report =
                checker(BatchThresholdProcessor::new).build().check(SEED_INPUT);

        assertThat(report.consistent()).isFalse();
        assertThat(report.differences()).hasSize(1);
        ContractDifference<String, String> d = report.differences().get(0);
        assertThat(d.batch()).isZero();
        assertThat(d.key()).isEqualTo("card-1");
        assertThat(d.realTimeOutput()).isEmpty();
        assertThat(d.microBatchOutput()).containsExactly("flagged_total=110.0,n=2");
        assertThat(report.realTimeOutput()).isEmpty();
        assertThat(report.toString()).contains("batch 0, key card-1");
    }

    @Test
    void shouldPassWhenAccumulationMovesIntoState() {
        ContractReport<String, String> report =
                checker(StatefulThresholdProcessor::new).build().check(SEED_INPUT);

        assertThat(report.differences()).isEmpty();
        assertThat(report.realTimeOutput())
                .extracting(kv -> kv.value)
                .containsExactly("flagged_total=110.0", "flagged_total=120.0");
        assertThat(report.microBatchOutput())
                .extracting(kv -> kv.value)
                .containsExactly("flagged_total=110.0", "flagged_total=120.0");
    }

    @Test
    void shouldPassWhenProcessorEmitsPerRow() {
        ContractReport<String, String> report = checker(CountPerRowProcessor::new)
                .equivalence(ModeContractChecker.Equivalence.PER_ROW)
                .build()
                .checkRows(
                        List.of(
                                KeyValue.pair("a", 1.0),
                                KeyValue.pair("a", 1.0),
                                KeyValue.pair("b", 1.0),
                                KeyValue.pair("a", 1.0),
                                KeyValue.pair("b", 1.0)),
                        3);

        assertThat(report.differences()).isEmpty();
        assertThat(report.microBatchOutput())
                .extracting(kv -> kv.value)
                .containsExactlyInAnyOrder("a:1", "a:2", "b:1", "a:3", "b:2");
    }

    @Test
    void shouldFlagUpdateStyleOutputWhenStrictPerRowEquivalenceIsAsked() {
        List<List<KeyValue<String, Double>>> input = List.of(
                List.of(KeyValue.pair("card-1", 60.0), KeyValue.pair("card-1", 50.0), KeyValue.pair("card-1", 10.0)));

        ContractReport<String, String> strict = checker(StatefulThresholdProcessor::new)
                .equivalence(ModeContractChecker.Equivalence.PER_ROW)
                .build()
                .check(input);
        ContractReport<String, String> lenient =
                checker(StatefulThresholdProcessor::new).build().check(input);

        assertThat(strict.differences()).singleElement().satisfies(d -> {
            assertThat(d.realTimeOutput()).containsExactly("flagged_total=110.0", "flagged_total=120.0");
            assertThat(d.realTimeLastRowOutput()).containsExactly("flagged_total=120.0");
            assertThat(d.microBatchOutput()).containsExactly("flagged_total=120.0");
        });
        assertThat(lenient.consistent()).isTrue();
    }

    @Test
    void shouldCheckAnOperatorWhenGivenAsProcessorSupplier() {
        ContractReport<String, String> report = ModeContractChecker.forOperator(
                        () -> dev.rtmstreams.processor.TransformWithState.builder(
                                        BatchThresholdProcessor::new, TimeMode.NONE)
                                .name("threshold")
                                .keySerde(Serdes.String())
                                .valueSerde(Serdes.Double())
                                .build(),
                        Serdes.String(),
                        Serdes.Double(),
                        Serdes.String())
                .build()
                .check(SEED_INPUT);

        assertThat(report.differences()).singleElement().satisfies(d -> {
            assertThat(d.key()).isEqualTo("card-1");
            assertThat(d.microBatchOutput()).containsExactly("flagged_total=110.0,n=2");
        });
    }

    @Test
    void shouldApplyTheTriggerWhenConfiguringForATestDriver() {
        java.util.Properties props = new java.util.Properties();
        props.put("application.id", "x");

        java.util.Properties mb = RtmStreams.configFor(props, Trigger.microBatch(java.time.Duration.ofMillis(250)));
        java.util.Properties rt = RtmStreams.configFor(props, Trigger.realTime());

        assertThat(mb)
                .containsEntry("rtm.execution.mode", "micro-batch")
                .containsEntry("rtm.micro.batch.interval.ms", "250");
        assertThat(rt)
                .containsEntry("rtm.execution.mode", "real-time")
                .containsEntry("statestore.cache.max.bytes", "0");
        assertThat(props).doesNotContainKey("rtm.execution.mode");
    }
}
