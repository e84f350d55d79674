package dev.rtmstreams.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.TransformWithState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.serialization.BooleanDeserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
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
    static final long START = Differential.START;
    static final long INTERVAL = Differential.INTERVAL;
    static final int STEPS = 24;
    static final int RESTART_AFTER = 11;
    static final int KEYS = 12;

    @TempDir
    Path tmp;

    @AfterAll
    static void stopSpark() {
        SparkRunner.session().stop();
    }

    /** Runs both sides over the batches with a restart after {@link #RESTART_AFTER}; @return the differences */
    List<String> runBoth(
            String name,
            Function<Dataset<Event>, Dataset<String>> sparkQuery,
            TransformWithState<String, String, String> tws,
            List<KeyValue<String, Long>> initialState,
            List<List<Event>> batches,
            List<StateDump.Var> stateVars) {
        return Differential.run(tmp, name, sparkQuery, tws, initialState, batches, RESTART_AFTER, stateVars)
                .differences();
    }

    @Test
    void valueStateWithTtlAndProcessingTimeTimers() {
        var batches = Inputs.generate(
                1L, STEPS, KEYS, List.of("a", "a", "b", "t", "t", "u", "clear"), START, INTERVAL, false);
        var diffs = runBoth(
                "value_timers",
                Differential.spark(new SparkCorpus.ValueTimers(), TimeMode.ProcessingTime()),
                Differential.rtm(RtmCorpus.ValueTimers::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(),
                batches,
                List.of(
                        new StateDump.Var("count", StateDump.Kind.VALUE, new LongDeserializer()),
                        new StateDump.Var("last", StateDump.Kind.VALUE, new StringDeserializer())));
        assertThat(diffs).isEmpty();
    }

    @Test
    void valueStateDeletedWithDeleteIfExistsAtRestart() {
        var batches = Inputs.generate(
                6L, STEPS, KEYS, List.of("a", "a", "b", "t", "t", "u", "clear"), START, INTERVAL, false);
        var r = Differential.run(
                tmp,
                "value_delete",
                Differential.spark(new SparkCorpus.ValueTimers(), TimeMode.ProcessingTime()),
                Differential.rtm(RtmCorpus.ValueTimers::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(),
                batches,
                RESTART_AFTER,
                // the next version drops "last": deleteIfExists in init
                Differential.spark(new SparkCorpus.ValueTimers(true), TimeMode.ProcessingTime()),
                Differential.rtm(
                        () -> new RtmCorpus.ValueTimers(true), dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(new StateDump.Var("count", StateDump.Kind.VALUE, new LongDeserializer())));
        assertThat(r.differences()).isEmpty();
        assertThat(r.rtmState()).noneMatch(line -> line.contains("|last|"));
        assertThat(r.spark().get(STEPS - 1)).allMatch(line -> !line.contains("|in ") || line.contains(" last=- "));
    }

    @Test
    void listStateWithTtl() {
        var batches =
                Inputs.generate(2L, STEPS, KEYS, List.of("a", "b", "c", "c", "put", "clear"), START, INTERVAL, false);
        var diffs = runBoth(
                "list_ttl",
                Differential.spark(new SparkCorpus.ListTtl(), TimeMode.ProcessingTime()),
                Differential.rtm(RtmCorpus.ListTtl::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(),
                batches,
                List.of(
                        new StateDump.Var("items", StateDump.Kind.LIST, new StringDeserializer()),
                        new StateDump.Var("all", StateDump.Kind.LIST, new StringDeserializer())));
        assertThat(diffs).isEmpty();
    }

    @Test
    void mapStateWithTtl() {
        var batches =
                Inputs.generate(3L, STEPS, KEYS, List.of("a", "b", "c", "c", "rm", "clear"), START, INTERVAL, false);
        var diffs = runBoth(
                "map_ttl",
                Differential.spark(new SparkCorpus.MapTtl(), TimeMode.ProcessingTime()),
                Differential.rtm(RtmCorpus.MapTtl::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(),
                batches,
                List.of(new StateDump.Var("counts", StateDump.Kind.MAP, new LongDeserializer())));
        assertThat(diffs).isEmpty();
    }

    @Test
    void eventTimeTimersWithLateRows() {
        var batches = Inputs.generate(4L, STEPS, KEYS, List.of("e"), START, INTERVAL, true);
        var diffs = runBoth(
                "event_timers",
                Differential.spark(new SparkCorpus.EventTimers(), TimeMode.EventTime()),
                Differential.rtm(RtmCorpus.EventTimers::new, dev.rtmstreams.processor.TimeMode.EVENT_TIME),
                List.of(),
                batches,
                List.of(
                        new StateDump.Var("sum", StateDump.Kind.VALUE, new LongDeserializer()),
                        new StateDump.Var("again", StateDump.Kind.VALUE, new BooleanDeserializer())));
        assertThat(diffs).isEmpty();
    }

    @Test
    void initialState() {
        var batches = Inputs.generate(5L, STEPS, KEYS, List.of("x"), START, INTERVAL, false);
        List<KeyValue<String, Long>> initial =
                List.of(KeyValue.pair("k0", 100L), KeyValue.pair("k3", 300L), KeyValue.pair("k9", 900L));
        Function<Dataset<Event>, Dataset<String>> sparkQuery = ds -> {
            List<String> rows = new ArrayList<>();
            initial.forEach(kv -> rows.add(kv.key + "|" + kv.value));
            var init = SparkRunner.session()
                    .createDataset(rows, Encoders.STRING())
                    .groupByKey((MapFunction<String, String>) r -> r.split("\\|")[0], Encoders.STRING())
                    .mapValues((MapFunction<String, Long>) r -> Long.parseLong(r.split("\\|")[1]), Encoders.LONG());
            return ds.groupByKey(Differential.byKey(), Encoders.STRING())
                    .transformWithState(
                            new SparkCorpus.InitialCounts(),
                            TimeMode.ProcessingTime(),
                            OutputMode.Update(),
                            init,
                            Encoders.STRING(),
                            Encoders.LONG());
        };
        var diffs = runBoth(
                "initial_state",
                sparkQuery,
                Differential.rtm(RtmCorpus.InitialCounts::new, dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                initial,
                batches,
                List.of(new StateDump.Var("count", StateDump.Kind.VALUE, new LongDeserializer())));
        assertThat(diffs).isEmpty();
    }
}
