package dev.rtmstreams.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.TransformWithState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.BooleanDeserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test: every processor of the corpus runs on Apache Spark 4.2 ({@link SparkCorpus}) and on rtm-streams
 * ({@link RtmCorpus}) with the same seeded input, batch by batch on the same clock, with a restart in the middle; the
 * output of every batch is compared as a multiset (Spark defines no order across keys), then the final state.
 */
class SparkDifferentialTest {
    static final long START = 1_700_000_000_000L;
    static final long INTERVAL = 1_000L;
    static final int STEPS = 24;
    static final int RESTART_AFTER = 11;

    @TempDir
    Path tmp;

    @AfterAll
    static void stopSpark() {
        SparkRunner.session().stop();
    }

    static MapFunction<Event, String> byKey() {
        return Event::getKey;
    }

    static Function<Dataset<Event>, Dataset<String>> spark(
            org.apache.spark.sql.streaming.StatefulProcessor<String, Event, String> p, TimeMode timeMode) {
        return ds -> (timeMode == TimeMode.EventTime() ? ds.withWatermark("ts", "0 seconds") : ds)
                .groupByKey(byKey(), Encoders.STRING())
                .transformWithState(p, timeMode, OutputMode.Update(), Encoders.STRING());
    }

    static TransformWithState<String, String, String> rtm(
            Supplier<? extends dev.rtmstreams.processor.StatefulProcessor<String, String, String>> p,
            dev.rtmstreams.processor.TimeMode timeMode) {
        return TransformWithState.builder(p, timeMode)
                .name("diff")
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .executionMode(ExecutionMode.MICRO_BATCH)
                .microBatchInterval(Duration.ofMillis(INTERVAL))
                .eventTimeExtractor((k, v, ts) -> Event.eventTimeOf(v))
                .watermarkDelay(Duration.ZERO)
                .build();
    }

    /** Runs both sides over the batches; @return one line per batch whose outputs differ */
    List<String> runBoth(
            String name,
            Function<Dataset<Event>, Dataset<String>> sparkQuery,
            TransformWithState<String, String, String> tws,
            List<KeyValue<String, Long>> initialState,
            List<List<Event>> batches,
            List<StateDump.Var> stateVars) {
        List<String> diffs = new ArrayList<>();
        try (SparkRunner s = new SparkRunner(name, START, INTERVAL, tmp.resolve(name), sparkQuery);
                KafkaRunner k = new KafkaRunner(tws, START, INTERVAL, initialState)) {
            s.start();
            k.start();
            for (int i = 0; i < batches.size(); i++) {
                List<String> so = sortedCopy(s.step(batches.get(i)));
                List<String> ko = sortedCopy(k.step(batches.get(i)));
                System.out.println("step " + (i + 1) + " in=" + batches.get(i) + "\n  spark=" + so + "\n  rtm  =" + ko);
                if (!so.equals(ko)) {
                    diffs.add("batch " + (i + 1) + " (t=" + (START + (i + 1) * INTERVAL) + "): spark=" + so + " rtm="
                            + ko);
                }
                if (i + 1 == RESTART_AFTER) {
                    s.restart();
                    k.restart();
                }
            }
            s.stop();
            List<String> sparkState = StateDump.spark(s, stateVars);
            List<String> rtmState = StateDump.rtm(k.state(), stateVars);
            System.out.println("final state\n  spark=" + sparkState + "\n  rtm  =" + rtmState);
            if (!sparkState.equals(rtmState)) {
                diffs.add("final state: spark=" + sparkState + " rtm=" + rtmState);
            }
        }
        return diffs;
    }

    static List<String> sortedCopy(List<String> l) {
        List<String> c = new ArrayList<>(l);
        c.sort(null);
        return c;
    }

    @Test
    void valueStateWithTtlAndProcessingTimeTimers() {
        var batches =
                Inputs.generate(1L, STEPS, 6, List.of("a", "a", "b", "t", "t", "u", "clear"), START, INTERVAL, false);
        var diffs = runBoth(
                "value_timers",
                spark(new SparkCorpus.ValueTimers(), TimeMode.ProcessingTime()),
                rtm(RtmCorpus.ValueTimers::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(),
                batches,
                List.of(new StateDump.Var("count", StateDump.Kind.VALUE, new LongDeserializer()), new StateDump.Var("last", StateDump.Kind.VALUE, new StringDeserializer())));
        assertThat(diffs).isEmpty();
    }

    @Test
    void listStateWithTtl() {
        var batches = Inputs.generate(2L, STEPS, 6, List.of("a", "b", "c", "c", "put", "clear"), START, INTERVAL, false);
        var diffs = runBoth(
                "list_ttl",
                spark(new SparkCorpus.ListTtl(), TimeMode.ProcessingTime()),
                rtm(RtmCorpus.ListTtl::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(),
                batches,
                List.of(new StateDump.Var("items", StateDump.Kind.LIST, new StringDeserializer()), new StateDump.Var("all", StateDump.Kind.LIST, new StringDeserializer())));
        assertThat(diffs).isEmpty();
    }

    @Test
    void mapStateWithTtl() {
        var batches = Inputs.generate(3L, STEPS, 6, List.of("a", "b", "c", "c", "rm", "clear"), START, INTERVAL, false);
        var diffs = runBoth(
                "map_ttl",
                spark(new SparkCorpus.MapTtl(), TimeMode.ProcessingTime()),
                rtm(RtmCorpus.MapTtl::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(),
                batches,
                List.of(new StateDump.Var("counts", StateDump.Kind.MAP, new LongDeserializer())));
        assertThat(diffs).isEmpty();
    }

    @Test
    void eventTimeTimersWithLateRows() {
        var batches = Inputs.generate(4L, STEPS, 6, List.of("e"), START, INTERVAL, true);
        var diffs = runBoth(
                "event_timers",
                spark(new SparkCorpus.EventTimers(), TimeMode.EventTime()),
                rtm(RtmCorpus.EventTimers::new, dev.rtmstreams.processor.TimeMode.EVENT_TIME),
                List.of(),
                batches,
                List.of(new StateDump.Var("sum", StateDump.Kind.VALUE, new LongDeserializer()), new StateDump.Var("again", StateDump.Kind.VALUE, new BooleanDeserializer())));
        assertThat(diffs).isEmpty();
    }

    @Test
    void initialState() {
        var batches = Inputs.generate(5L, STEPS, 6, List.of("x"), START, INTERVAL, false);
        List<KeyValue<String, Long>> initial = List.of(KeyValue.pair("k0", 100L), KeyValue.pair("k3", 300L),
                KeyValue.pair("k9", 900L));
        Function<Dataset<Event>, Dataset<String>> sparkQuery = ds -> {
            List<String> rows = new ArrayList<>();
            initial.forEach(kv -> rows.add(kv.key + "|" + kv.value));
            var init = SparkRunner.session()
                    .createDataset(rows, Encoders.STRING())
                    .groupByKey((MapFunction<String, String>) r -> r.split("\\|")[0], Encoders.STRING())
                    .mapValues((MapFunction<String, Long>) r -> Long.parseLong(r.split("\\|")[1]), Encoders.LONG());
            return ds.groupByKey(byKey(), Encoders.STRING())
                    .transformWithState(new SparkCorpus.InitialCounts(), TimeMode.ProcessingTime(), OutputMode.Update(),
                            init, Encoders.STRING(), Encoders.LONG());
        };
        var diffs = runBoth(
                "initial_state",
                sparkQuery,
                rtm(RtmCorpus.InitialCounts::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                initial,
                batches,
                List.of(new StateDump.Var("count", StateDump.Kind.VALUE, new LongDeserializer())));
        assertThat(diffs).isEmpty();
    }
}
