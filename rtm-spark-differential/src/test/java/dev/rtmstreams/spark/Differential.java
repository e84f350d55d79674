package dev.rtmstreams.spark;

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

/**
 * Runs one processor pair on both sides over the same batches on the same clock (processing time of batch {@code i}
 * is {@code START + i * INTERVAL} on both), optionally restarting both after one batch, and collects every batch's
 * output (sorted: Spark defines no order across keys) and the final state.
 */
final class Differential {
    static final long START = 1_700_000_000_000L;
    static final long INTERVAL = 1_000L;

    private Differential() {}

    /**
     * @param spark output of every batch on Spark, sorted
     * @param rtm output of every batch on rtm-streams, sorted
     * @param sparkState final state on Spark ({@link StateDump})
     * @param rtmState final state on rtm-streams
     */
    record Result(List<List<String>> spark, List<List<String>> rtm, List<String> sparkState, List<String> rtmState) {

        /** @return one line per batch whose outputs differ, and one for the final state if it differs */
        List<String> differences() {
            List<String> diffs = new ArrayList<>();
            for (int i = 0; i < spark.size(); i++) {
                if (!spark.get(i).equals(rtm.get(i))) {
                    diffs.add("batch " + (i + 1) + " (t=" + (START + (i + 1) * INTERVAL) + "): spark=" + spark.get(i)
                            + " rtm=" + rtm.get(i));
                }
            }
            if (!sparkState.equals(rtmState)) {
                diffs.add("final state: spark=" + sparkState + " rtm=" + rtmState);
            }
            return diffs;
        }
    }

    static MapFunction<Event, String> byKey() {
        return Event::getKey;
    }

    /** @return the Spark query: group by key, transformWithState (event time: watermark on {@code ts}, delay 0) */
    static Function<Dataset<Event>, Dataset<String>> spark(
            org.apache.spark.sql.streaming.StatefulProcessor<String, Event, String> p, TimeMode timeMode) {
        return ds -> (timeMode == TimeMode.EventTime() ? ds.withWatermark("ts", "0 seconds") : ds)
                .groupByKey(byKey(), Encoders.STRING())
                .transformWithState(p, timeMode, OutputMode.Update(), Encoders.STRING());
    }

    /** @return our operator: micro-batch execution at {@link #INTERVAL}, event time from the row, delay 0 */
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

    /**
     * @param dir a directory for Spark's checkpoint
     * @param restartAfter the batch after which both sides restart (Spark on its checkpoint, ours on its changelog);
     *     0 for none
     */
    static Result run(
            Path dir,
            String name,
            Function<Dataset<Event>, Dataset<String>> sparkQuery,
            TransformWithState<String, String, String> tws,
            List<KeyValue<String, Long>> initialState,
            List<List<Event>> batches,
            int restartAfter,
            List<StateDump.Var> stateVars) {
        return run(dir, name, sparkQuery, tws, initialState, batches, restartAfter, null, null, stateVars);
    }

    /**
     * As {@link #run(Path, String, Function, TransformWithState, List, List, int, List)}, with new versions of both
     * processors from the restart on.
     */
    static Result run(
            Path dir,
            String name,
            Function<Dataset<Event>, Dataset<String>> sparkQuery,
            TransformWithState<String, String, String> tws,
            List<KeyValue<String, Long>> initialState,
            List<List<Event>> batches,
            int restartAfter,
            Function<Dataset<Event>, Dataset<String>> sparkAfterRestart,
            TransformWithState<String, String, String> twsAfterRestart,
            List<StateDump.Var> stateVars) {
        List<List<String>> sparkOut = new ArrayList<>();
        List<List<String>> rtmOut = new ArrayList<>();
        try (SparkRunner s = new SparkRunner(name, START, INTERVAL, dir.resolve(name), sparkQuery);
                KafkaRunner k = new KafkaRunner(tws, START, INTERVAL, initialState)) {
            s.start();
            k.start();
            for (int i = 0; i < batches.size(); i++) {
                List<String> so = sorted(s.step(batches.get(i)));
                List<String> ko = sorted(k.step(batches.get(i)));
                System.out.println(
                        "batch " + (i + 1) + " in=" + batches.get(i) + "\n  spark=" + so + "\n  rtm  =" + ko);
                sparkOut.add(so);
                rtmOut.add(ko);
                if (i + 1 == restartAfter) {
                    s.restart(sparkAfterRestart);
                    k.restart(twsAfterRestart);
                }
            }
            s.stop();
            List<String> sparkState = StateDump.spark(s, stateVars);
            List<String> rtmState = StateDump.rtm(k.state(), stateVars);
            System.out.println("final state\n  spark=" + sparkState + "\n  rtm  =" + rtmState);
            return new Result(sparkOut, rtmOut, sparkState, rtmState);
        }
    }

    static List<String> sorted(List<String> l) {
        List<String> c = new ArrayList<>(l);
        c.sort(null);
        return c;
    }
}
