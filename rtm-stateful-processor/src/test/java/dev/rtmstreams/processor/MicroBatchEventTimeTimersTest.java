package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Event-time timers in micro-batch mode, as Spark runs them (checked against Spark 4.2 by rtm-spark-differential's
 * SparkKnownDifferencesTest): a micro-batch without data fires timers only when the watermark moved since the last
 * batch ({@code TransformWithStateExec#shouldRunAnotherBatch}).
 */
class MicroBatchEventTimeTimersTest {

    /** A timer handler that registers, once, a timer 1 s below the one firing (below the watermark). */
    static void firedAndChain(ScriptProcessor p, String key, TimerValues tv, long expiry, List<String> out) {
        out.add("fired:" + key + ":" + expiry + "@wm=" + tv.getCurrentWatermarkInMs());
        if (expiry == 2000) {
            p.getHandle().registerTimer(expiry - 1000);
        }
    }

    static TransformWithState<String, String, String> operator() {
        return TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null, EventTimeTest::commands, MicroBatchEventTimeTimersTest::firedAndChain, null),
                        TimeMode.EVENT_TIME)
                .name("mbtimers")
                .executionMode(ExecutionMode.MICRO_BATCH)
                .microBatchInterval(Duration.ofSeconds(1))
                .watermarkDelay(Duration.ZERO)
                .build();
    }

    @Test
    void shouldFireATimerRegisteredBelowAnUnchangedWatermarkOnlyWithTheNextBatchThatHasData() {
        try (Harness<String, String> h = Harness.strings(operator())) {
            h.pipe("a", "reg:2000", 3000);
            h.advanceMs(1000); // batch with data: the watermark moves to 3000 after it
            h.advanceMs(1000); // no data, the watermark moved: 2000 fires, its handler registers 1000
            assertThat(h.drainValues()).containsExactly("fired:a:2000@wm=3000");
            h.advanceMs(1000); // no data, the watermark did not move: nothing fires
            h.advanceMs(1000);
            assertThat(h.drainValues()).isEmpty();
            h.pipe("b", "wm", 3500);
            h.advanceMs(1000); // the next batch with data fires it, after the rows
            assertThat(h.drainValues()).containsExactly("wm=3000", "fired:a:1000@wm=3000");
        }
    }
}
