package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

class EventTimeTest {

    /** Commands: reg:t registers an event-time timer at t; wm outputs the watermark seen by the call. */
    static void commands(ScriptProcessor p, String key, String row, TimerValues tv, List<String> out) {
        String[] c = row.split(":", 2);
        switch (c[0]) {
            case "reg" -> p.getHandle().registerTimer(Long.parseLong(c[1]));
            case "wm" -> out.add("wm=" + tv.getCurrentWatermarkInMs());
            case "t=7000" -> {}
            default -> throw new IllegalArgumentException(row);
        }
    }

    static void fired(ScriptProcessor p, String key, TimerValues tv, long expiry, List<String> out) {
        out.add("fired:" + key + ":" + expiry + "@wm=" + tv.getCurrentWatermarkInMs());
    }

    static TransformWithState.Builder<String, String, String> builder() {
        return TransformWithState.builder(
                        ScriptProcessor.supplier(null, EventTimeTest::commands, EventTimeTest::fired, null),
                        TimeMode.EVENT_TIME)
                .name("etimers")
                .watermarkDelay(Duration.ofMillis(100));
    }

    @Test
    void shouldFireEventTimeTimerWhenWatermarkReachesIt() {
        try (Harness<String, String> h = Harness.strings(builder().build())) {
            h.pipe("a", "wm", 1000);
            h.pipe("a", "reg:1500", 1000);
            h.pipe("b", "wm", 1550);
            assertThat(h.drainValues()).containsExactly("wm=0", "wm=900");
            h.pipe("b", "wm", 1599); // wm -> 1499: a timer at 1500 is not due yet
            assertThat(h.drainValues()).containsExactly("wm=1450");
            h.pipe("b", "wm", 1600); // wm -> 1500: due at equality (Spark 4.2 fires at t <= wm)
            List<TestRecord<String, String>> out = h.drainRecords();
            assertThat(out).extracting(TestRecord::value).containsExactly("wm=1499", "fired:a:1500@wm=1500");
            assertThat(out.get(1).timestamp()).isEqualTo(1500L);
        }
    }

    @Test
    void shouldNeverRegressWatermarkAndDropLateRecordsWhenInputIsOutOfOrder() {
        try (Harness<String, String> h = Harness.strings(builder().build())) {
            h.pipe("a", "wm", 2000); // wm -> 1900
            h.pipe("a", "wm", 1950); // not late, wm stays 1900
            h.pipe("a", "wm", 1800); // late: dropped
            h.pipe("a", "wm", 2100); // wm -> 2000
            assertThat(h.drainValues()).containsExactly("wm=0", "wm=1900", "wm=1900");
        }
    }

    @Test
    void shouldRestoreWatermarkWhenRestarted() {
        try (Harness<String, String> h = Harness.strings(builder().build())) {
            h.pipe("a", "wm", 5000);
            h.pipe("a", "reg:6000", 5000);
            h.restartFromChangelog();
            h.pipe("a", "wm", 1000); // late against the restored watermark 4900: dropped
            h.pipe("a", "wm", 4950);
            h.restartFromChangelog();
            h.pipe("a", "wm", 6101);
            assertThat(h.drainValues()).containsExactly("wm=0", "wm=4900", "wm=4900", "fired:a:6000@wm=6001");
        }
    }

    @Test
    void shouldAdvanceWatermarkByWallClockWhenInputIsIdle() {
        Properties p = new Properties();
        p.put(RtmProcessorConfig.WATERMARK_IDLE_TIMEOUT_MS_CONFIG, "1000");
        try (Harness<String, String> h = Harness.strings(builder().build(), p)) {
            h.pipe("a", "reg:3000", 1100); // wm 1000
            h.advanceMs(900);
            assertThat(h.drainValues()).isEmpty();
            h.advanceMs(1000); // idle for 1900 ms: wm = 1100 + 1900 - 100 = 2900
            assertThat(h.drainValues()).isEmpty();
            h.advanceMs(99); // wm = 2999: the timer at 3000 is not due yet
            assertThat(h.drainValues()).isEmpty();
            h.advanceMs(1); // wm = 3000: due at equality
            assertThat(h.drainValues()).containsExactly("fired:a:3000@wm=3000");
        }
    }

    @Test
    void shouldStallWatermarkWhenIdleTimeoutDisabled() {
        try (Harness<String, String> h = Harness.strings(builder().build())) {
            h.pipe("a", "reg:3000", 1100);
            h.advance(Duration.ofMinutes(10));
            assertThat(h.drainValues()).isEmpty();
        }
    }

    @Test
    void shouldUseExtractorWhenConfigured() {
        TransformWithState<String, String, String> tws = builder()
                .eventTimeExtractor((k, v, ts) -> v.startsWith("t=") ? Long.parseLong(v.substring(2)) : ts)
                .build();
        try (Harness<String, String> h = Harness.strings(tws)) {
            h.pipe("a", "t=7000", 1);
            h.pipe("a", "wm", 7000);
            assertThat(h.drainValues()).containsExactly("wm=6900");
        }
    }
}
