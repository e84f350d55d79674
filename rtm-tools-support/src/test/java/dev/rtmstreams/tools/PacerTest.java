package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PacerTest {

    /** A manual clock: sleeping advances it. */
    private static final class FakeTicker implements Pacer.Ticker {
        long now;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleepNanos(long nanos) {
            now += nanos;
        }
    }

    @Test
    void shouldSendEachItemAtItsScheduledTimeWhenTheSinkIsFast() {
        FakeTicker ticker = new FakeTicker();
        Pacer pacer = new Pacer(ticker, Duration.ofMillis(10), Duration.ofMillis(1));
        List<long[]> sends = new ArrayList<>();
        long perItem = 1_000_000_000L / 5000;
        Pacer.Result r = pacer.run(5000, i -> i * perItem, (i, now) -> sends.add(new long[] {i, now}), () -> false);
        assertThat(r.sent()).isEqualTo(5000);
        assertThat(r.fellBehind()).isFalse();
        for (long[] s : sends) {
            long due = s[0] * perItem;
            assertThat(s[1] - due).isBetween(0L, 1_000_000L);
        }
        assertThat(r.achievedRate()).isBetween(4990.0, 5010.0);
    }

    @Test
    void shouldReportFallingBehindWhenTheSinkIsSlowerThanTheRate() {
        FakeTicker ticker = new FakeTicker();
        Pacer pacer = new Pacer(ticker, Duration.ofMillis(100), Duration.ofMillis(1));
        // 10k items/s scheduled but every send costs 200 µs: at most 5k/s
        Pacer.Result r = pacer.run(10_000, i -> i * 100_000L, (i, now) -> ticker.now += 200_000L, () -> false);
        assertThat(r.sent()).isEqualTo(10_000);
        assertThat(r.fellBehind()).isTrue();
        assertThat(r.maxLagNanos()).isGreaterThan(900_000_000L);
        assertThat(r.achievedRate()).isBetween(4900.0, 5100.0);
    }

    @Test
    void shouldHoldTheTargetCountWhenRunningOnTheSystemClock() {
        Pacer pacer = new Pacer(Pacer.Ticker.SYSTEM, Duration.ofMillis(500), Duration.ofMillis(1));
        AtomicLong sent = new AtomicLong();
        AtomicLong sentInFirstHalf = new AtomicLong();
        long start = System.nanoTime();
        long perItem = 1_000_000_000L / 4000;
        // 2000 items over 0.5 s
        Pacer.Result r = pacer.run(
                2000,
                i -> i * perItem,
                (i, now) -> {
                    sent.incrementAndGet();
                    if (now - start < 250_000_000L) {
                        sentInFirstHalf.incrementAndGet();
                    }
                },
                () -> false);
        assertThat(sent.get()).isEqualTo(2000);
        assertThat(r.sent()).isEqualTo(2000);
        // schedule-driven: about half the items go out in the first half of the span, never all at once
        assertThat(sentInFirstHalf.get()).isBetween(100L, 1900L);
    }

    @Test
    void shouldStopEarlyWhenAskedTo() {
        FakeTicker ticker = new FakeTicker();
        Pacer pacer = new Pacer(ticker, Duration.ofMillis(10), Duration.ofMillis(1));
        AtomicLong sent = new AtomicLong();
        Pacer.Result r =
                pacer.run(1000, i -> i * 1_000_000L, (i, now) -> sent.incrementAndGet(), () -> sent.get() >= 10);
        assertThat(r.stopped()).isTrue();
        assertThat(r.sent()).isEqualTo(10);
    }
}
