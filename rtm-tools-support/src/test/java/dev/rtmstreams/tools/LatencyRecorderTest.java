package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldSummarisePercentilesAndBucketBySecondOfReceptionWhenRecording() {
        LatencyRecorder r = new LatencyRecorder(0);
        for (int i = 1; i <= 100; i++) {
            r.record(SECOND / 2, i * 1_000_000L); // second 0: 1..100 ms
        }
        r.record(2 * SECOND + 5, 500_000_000L); // second 2: 500 ms
        LatencySummary s = r.summary();
        assertThat(s.p50()).isCloseTo(51, within(1.0));
        assertThat(s.p90()).isCloseTo(91, within(1.0));
        assertThat(s.p99()).isCloseTo(100, within(1.0));
        assertThat(s.max()).isCloseTo(500, within(1.0));
        assertThat(s.mean()).isCloseTo((5050 + 500) / 101.0, within(0.5));
        assertThat(s.count()).isEqualTo(101L);
        List<LatencyRecorder.Second> perSecond = r.perSecondMillis();
        assertThat(perSecond).hasSize(3);
        assertThat(perSecond.get(0).outputs()).isEqualTo(100L);
        assertThat(perSecond.get(1).outputs()).isZero();
        assertThat(perSecond.get(2).t()).isEqualTo(2);
        assertThat(perSecond.get(2).max()).isCloseTo(500, within(5.0)); // 2 significant digits per second
        assertThat(r.lastSecondP99Millis()).isCloseTo(100, within(1.0));
    }

    @Test
    void shouldSummariseToZerosWhenNothingWasRecorded() {
        assertThat(new LatencyRecorder(0).summary()).isEqualTo(LatencySummary.EMPTY);
        assertThat(LatencySummary.EMPTY.count()).isZero();
        assertThat(LatencySummary.EMPTY.p99()).isZero();
    }

    @Test
    void shouldRoundToAMicrosecondInMillisecondsWhenSummarisingAHistogram() {
        Histogram h = LatencyRecorder.newHistogram();
        LatencyRecorder.recordNanos(h, 1_234_567L);
        LatencySummary s = LatencySummary.of(h);
        assertThat(s.p50()).isEqualTo(1.234);
        assertThat(s.p999()).isEqualTo(1.234);
        assertThat(s.max()).isEqualTo(1.234);
        assertThat(s.count()).isEqualTo(1L);
    }

    @Test
    void shouldRecordMicrosecondsClampedToZeroAndAnHourWhenRecordingIntoAHistogram() {
        Histogram h = LatencyRecorder.newHistogram();
        assertThat(LatencyRecorder.recordNanos(h, 2_500_000L)).isEqualTo(2_500L);
        assertThat(LatencyRecorder.recordNanos(h, -5)).isZero();
        assertThat(LatencyRecorder.recordNanos(h, 2 * 3600 * SECOND)).isEqualTo(3_600_000_000L);
        assertThat(h.getTotalCount()).isEqualTo(3);
        assertThat(h.getMinValue()).isZero();
        assertThat(h.getMaxValue()).isCloseTo(3_600_000_000L, within(3_600_000L)); // 3 significant digits
    }
}
