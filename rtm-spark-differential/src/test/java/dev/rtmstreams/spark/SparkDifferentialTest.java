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
import org.apache.kafka.common.serialization.Serdes;
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
            List<List<Event>> batches) {
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
                batches);
        assertThat(diffs).isEmpty();
    }
}
