package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The watermark guard ({@link RtmProcessorConfig#MAX_EVENT_TIME_SKEW_MS_CONFIG}) of event-time operators. */
class WatermarkGuardTest {

    static final long NOW = Harness.START.toEpochMilli();

    @Test
    void shouldDropARecordFarAheadOfTheWallClockWithoutMovingTheWatermark() {
        try (Harness<String, String> h = Harness.strings(EventTimeTest.builder().build())) {
            h.pipe("a", "wm", NOW);
            h.pipe("a", "wm", NOW + Duration.ofDays(3650).toMillis()); // ten years ahead: dropped
            h.pipe("a", "wm", NOW + 1000); // normal records go on, not late
            assertThat(h.drainValues()).containsExactly("wm=0", "wm=" + (NOW - 100));
            assertThat(RtmProcessorMetrics.total(
                            h.driver.metrics(), "etimers", RtmProcessorMetrics.FUTURE_RECORDS_TOTAL))
                    .isEqualTo(1);
            assertThat(RtmProcessorMetrics.watermark(h.driver.metrics(), "etimers")
                            .getAsLong())
                    .isEqualTo(NOW + 900);
        }
    }

    @Test
    void shouldAcceptEventTimesWithinTheConfiguredSkew() {
        Properties p = new Properties();
        p.put(RtmProcessorConfig.MAX_EVENT_TIME_SKEW_MS_CONFIG, "60000");
        try (Harness<String, String> h = Harness.strings(EventTimeTest.builder().build(), p)) {
            h.pipe("a", "wm", NOW + 60_000); // exactly at the bound: accepted
            h.pipe("b", "wm", NOW + 60_001); // beyond: dropped
            h.pipe("c", "wm", NOW + 59_000); // behind the watermark 59 900: late
            assertThat(h.drainValues()).containsExactly("wm=0");
            assertThat(RtmProcessorMetrics.total(
                            h.driver.metrics(), "etimers", RtmProcessorMetrics.FUTURE_RECORDS_TOTAL))
                    .isEqualTo(1);
            assertThat(RtmProcessorMetrics.total(h.driver.metrics(), "etimers", RtmProcessorMetrics.LATE_RECORDS_TOTAL))
                    .isEqualTo(1);
        }
    }
}
