package dev.rtmstreams.spark;

import static dev.rtmstreams.spark.Differential.INTERVAL;
import static dev.rtmstreams.spark.Differential.START;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differences the differential test found between Apache Spark 4.2.0 and rtm-streams, each on a hand-written
 * input at the edge the seeded corpus keeps away from, each fixed and kept as a check that both sides agree
 * (docs/spark-migration.md, "Found by the differential test against Spark 4.2").
 */
class SparkKnownDifferencesTest {
    static final long E = START; // event times near the processing times

    @TempDir
    Path tmp;

    @AfterAll
    static void stopSpark() {
        SparkRunner.session().stop();
    }

    private Differential.Result run(String name, boolean eventTime, List<List<Event>> batches) {
        return Differential.run(
                tmp,
                name,
                Differential.spark(
                        new SparkCorpus.Probe(), eventTime ? TimeMode.EventTime() : TimeMode.ProcessingTime()),
                Differential.rtm(
                        RtmCorpus.Probe::new,
                        eventTime
                                ? dev.rtmstreams.processor.TimeMode.EVENT_TIME
                                : dev.rtmstreams.processor.TimeMode.PROCESSING_TIME),
                List.of(),
                batches,
                0,
                List.of(new StateDump.Var("chain", StateDump.Kind.VALUE, new LongDeserializer())));
    }

    static Event row(String key, String value, long eventTimeMs) {
        return new Event(key, value, eventTimeMs);
    }

    @Test
    void processingTimeTimerDueAtTheBatchTime() {
        // batch 1 at START+1000 registers a timer at START+3000, the time of batch 3
        var r = run(
                "pt_timer_at_batch_time",
                false,
                List.of(List.of(row("k", "at:2000", START + INTERVAL)), List.of(), List.of(), List.of()));
        long t = START + 3 * INTERVAL;
        // a processing-time timer fires once the batch time reaches it (expiry <= batch timestamp), on both sides
        assertThat(r.spark().get(2)).containsExactly("k|fired t=" + t + " now=" + t + " wm=0");
        assertThat(r.spark().get(3)).isEmpty();
        assertThat(r.rtm().get(2)).containsExactly("k|fired t=" + t + " now=" + t + " wm=0");
        assertThat(r.differences()).isEmpty();
    }

    @Test
    void eventTimeTimerDueAtTheWatermark() {
        // batch 1 moves the watermark to E+5000 and registers a timer there
        var r = run(
                "et_timer_at_watermark",
                true,
                List.of(
                        List.of(row("k", "at:" + (E + 5_000), E + 5_000)),
                        List.of(),
                        List.of(row("k2", "x", E + 6_000)),
                        List.of(),
                        List.of()));
        // an event-time timer fires once the watermark reaches it (expiry <= watermark), here in the no-data batch
        // that follows batch 1, on both sides
        String fired = "k|fired t=" + (E + 5_000) + " now=" + (START + 2 * INTERVAL) + " wm=" + (E + 5_000);
        assertThat(r.spark().get(1)).containsExactly(fired);
        assertThat(r.spark().get(3)).isEmpty();
        assertThat(r.rtm().get(1)).containsExactly(fired);
        assertThat(r.differences()).isEmpty();
    }

    @Test
    void rowBetweenThePreviousAndTheCurrentWatermark() {
        // batch 1 moves the watermark to E+5000; batch 2 (right after, no batch between) brings a row at E+4000, and
        // batch 3 one at E+4500
        var r = run(
                "late_row_window",
                true,
                List.of(
                        List.of(row("k", "x", E + 5_000)),
                        List.of(row("k", "y", E + 4_000)),
                        List.of(row("k", "z", E + 4_500)),
                        List.of()));
        // late rows are filtered with the watermark of the batch before (Spark's watermark for late events; batch 1
        // had none), so y is taken, on both sides ...
        String y = "k|in [y@" + (E + 4_000) + "] wm=" + (E + 5_000);
        assertThat(r.spark().get(1)).containsExactly(y);
        assertThat(r.rtm().get(1)).containsExactly(y);
        // ... and one batch later both drop z
        assertThat(r.spark().get(2)).isEmpty();
        assertThat(r.rtm().get(2)).isEmpty();
        assertThat(r.differences()).isEmpty();
    }

    /** Was a difference (we fired it at the next micro-batch without data). */
    @Test
    void timerRegisteredBelowTheWatermarkInTheTimerHandler() {
        // batch 1: watermark to E+3000, a timer at E+2000 whose handler registers one at E+1000 (below the watermark)
        var r = run(
                "timer_below_watermark",
                true,
                List.of(
                        List.of(row("k", "at:" + (E + 2_000), E + 3_000), row("k", "chain:" + (E + 1_000), E + 3_000)),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(row("k2", "x", E + 3_500)),
                        List.of()));
        // both fire E+2000 in the no-data batch after batch 1
        String first = "k|fired t=" + (E + 2_000) + " now=" + (START + 2 * INTERVAL) + " wm=" + (E + 3_000);
        assertThat(r.spark().get(1)).containsExactly(first);
        assertThat(r.rtm().get(1)).containsExactly(first);
        // the timer its handler registered at E+1000, already below the watermark, fires with the next batch that
        // runs: no batch runs while neither data comes nor the watermark moves (Spark's
        // TransformWithStateExec#shouldRunAnotherBatch), so with batch 5's data, on both sides
        assertThat(r.spark().get(2)).isEmpty();
        assertThat(r.spark().get(4))
                .containsExactly(
                        "k2|in [x@" + (E + 3_500) + "] wm=" + (E + 3_000),
                        "k|fired t=" + (E + 1_000) + " now=" + (START + 5 * INTERVAL) + " wm=" + (E + 3_000));
        assertThat(r.differences()).isEmpty();
    }
}
