package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutputMonitorRecoveryTest {

    private static final long MS = 1_000_000L;
    private static final long FAULT = 10_000 * MS;
    private static final long SLACK = 1_000 * MS;

    @Test
    void shouldMeasureToTheEndOfTheOutageWhenAnOutputWasStillInFlightAtTheFault() {
        // outputs every 100 ms, one in flight 5 ms after the fault, then nothing until 8 s later
        long[] p = {9_800 * MS, 9_900 * MS, 10_005 * MS, 18_000 * MS, 18_100 * MS};

        assertThat(OutputMonitor.recoveryMillis(List.of(p), FAULT, SLACK)).isEqualTo(8_000);
    }

    @Test
    void shouldTakeTheSlowestPartitionWhenPartitionsRecoverAtDifferentTimes() {
        long[] fast = {9_900 * MS, 12_000 * MS};
        long[] slow = {9_950 * MS, 15_500 * MS};

        assertThat(OutputMonitor.recoveryMillis(List.of(fast, slow), FAULT, SLACK))
                .isEqualTo(5_500);
    }

    @Test
    void shouldIgnoreGapsThatStartLongAfterTheFaultWhenTheServiceHadRecovered() {
        // recovered after 2 s, then a quiet spell later on that is not part of the outage
        long[] p = {9_900 * MS, 12_000 * MS, 12_100 * MS, 30_000 * MS};

        assertThat(OutputMonitor.recoveryMillis(List.of(p), FAULT, SLACK)).isEqualTo(2_000);
    }

    @Test
    void shouldReportNotRecoveredWhenAPartitionWithTrafficNeverOutputsAgain() {
        long[] p = {9_900 * MS};

        assertThat(OutputMonitor.recoveryMillis(List.of(p), FAULT, SLACK)).isEqualTo(-1);
    }

    @Test
    void shouldMeasureToTheFirstOutputWhenNothingWasOutputBeforeTheFault() {
        long[] p = {40_000 * MS, 40_100 * MS};
        long[] idle = {};

        assertThat(OutputMonitor.recoveryMillis(List.of(p, idle), FAULT, SLACK)).isEqualTo(30_000);
    }
}
