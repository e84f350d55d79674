package dev.rtmstreams.join;

import static dev.rtmstreams.join.JoinHarness.t;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.RtmProcessorConfig;
import java.time.Duration;
import java.util.Properties;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Watermark idle timeout (Flink-style idleness) under policy MIN: a silent input is left out of the min after the
 * timeout of wall-clock time, so the other input's watermark drives eviction and outer-join emission.
 */
class IntervalJoinIdleTimeoutTest {

    private static Consumer<IntervalJoin.Builder<String, String, String>> leftOuter(
            Duration idleTimeout, ExecutionMode mode) {
        return b -> {
            b.lowerBound(Duration.ZERO)
                    .upperBound(ofMinutes(2))
                    .joinType(JoinType.LEFT_OUTER)
                    .executionMode(mode);
            if (idleTimeout != null) {
                b.watermarkIdleTimeout(idleTimeout);
            }
        };
    }

    /** Right input sees one record, then is silent while the left input moves 10 minutes of event time ahead. */
    private static void feedWithSilentRight(JoinHarness h) {
        h.right("x", "R0", t(Duration.ZERO));
        h.left("a", "A", t(ofMinutes(1)));
        h.left("b", "B", t(ofMinutes(10)));
    }

    /**
     * Keeps the left input active: {@code n} times, a left record (event time 10 min, a key that never matches), then
     * 10 s of wall clock (which also runs a micro-batch).
     */
    private static void keepLeftActive(JoinHarness h, int n) {
        for (int i = 0; i < n; i++) {
            h.left("hb", "HB", t(ofMinutes(10)));
            h.tick(ofSeconds(10));
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void shouldNotEvictOrEmitWhenOneSideIsSilentAndNoIdleTimeoutIsSet(ExecutionMode mode) {
        try (JoinHarness h = new JoinHarness(leftOuter(null, mode))) {
            feedWithSilentRight(h);
            keepLeftActive(h, 12); // right silent for 2 min of wall clock
            h.tick(ofSeconds(2)); // > one micro-batch interval (1 s)
            assertThat(h.outValues()).isEmpty();
            assertThat(h.leftRows()).isEqualTo(2 + 12);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void shouldEmitUnmatchedRowsFromTheActiveSideWatermarkWhenTheOtherSideIsIdleLongerThanTheTimeout(
            ExecutionMode mode) {
        try (JoinHarness h = new JoinHarness(leftOuter(ofSeconds(30), mode))) {
            feedWithSilentRight(h);
            keepLeftActive(h, 3); // right silent for 30 s (not more than the timeout): nothing may be emitted
            assertThat(h.outValues()).isEmpty();
            assertThat(h.leftRows()).isEqualTo(2 + 3);

            keepLeftActive(h, 1); // 40 s silent: idle; global watermark = left watermark = 10 min
            // micro-batch: the batch that moved the watermark evicted by the one it ran with; the pass after it
            // (Spark's no-data batch) runs with 10 min (real-time mode evicted already)
            h.tick(ofSeconds(1));
            // A (1 min, bound until 3 min) can no longer match; B and the heartbeats (10 min, until 12 min) still can
            assertThat(h.outValues()).containsExactly("A,null");
            assertThat(h.leftRows()).isEqualTo(2 + 4 - 1);

            // the idle input rejoins: in-bound record matches, one behind the global watermark is late
            h.right("b", "RB", t(ofMinutes(11)));
            h.right("z", "Z", t(ofMinutes(5)));
            h.tick(ofSeconds(2)); // > one micro-batch interval (1 s)
            assertThat(h.outValues()).containsExactly("B,RB");
            assertThat(h.lateCount()).isEqualTo(1);

            // the global watermark did not regress to min(left 10 min, right 11 min)... nor to anything lower:
            // a left record at 9 min is late
            h.left("c", "C", t(ofMinutes(9)));
            h.tick(ofSeconds(2)); // > one micro-batch interval (1 s)
            assertThat(h.lateCount()).isEqualTo(2);
            assertThat(h.outValues()).isEmpty();
        }
    }

    @Test
    void shouldTreatAnInputThatNeverReceivedARecordAsIdleAfterTheTimeoutWhenConfiguredInAppConfigs() {
        Properties p = new Properties();
        p.put(RtmProcessorConfig.WATERMARK_IDLE_TIMEOUT_MS_CONFIG, "30000");
        try (JoinHarness h = new JoinHarness(leftOuter(null, ExecutionMode.REAL_TIME), p)) {
            h.left("a", "A", t(ofMinutes(1)));
            h.left("b", "B", t(ofMinutes(10)));
            keepLeftActive(h, 3);
            assertThat(h.outValues()).isEmpty(); // global watermark undefined until the right side is idle

            keepLeftActive(h, 1);
            assertThat(h.outValues()).containsExactly("A,null");
            assertThat(h.leftRows()).isEqualTo(2 + 4 - 1);
        }
    }

    @Test
    void shouldKeepTheWatermarkWhenBothInputsAreIdle() {
        try (JoinHarness h = new JoinHarness(leftOuter(ofSeconds(30), ExecutionMode.REAL_TIME))) {
            h.right("x", "R0", t(Duration.ZERO));
            h.left("a", "A", t(ofMinutes(10)));
            h.tick(ofMinutes(5)); // both idle: the watermark is held at min = 0, A is kept
            assertThat(h.outValues()).isEmpty();
            assertThat(h.leftRows()).isEqualTo(1);
        }
    }

    @Test
    void shouldRejectANegativeIdleTimeoutWhenBuilt() {
        assertThatThrownBy(() -> IntervalJoin.<String, String, String>builder()
                        .keySerde(org.apache.kafka.common.serialization.Serdes.String())
                        .leftSerde(org.apache.kafka.common.serialization.Serdes.String())
                        .rightSerde(org.apache.kafka.common.serialization.Serdes.String())
                        .lowerBound(Duration.ZERO)
                        .upperBound(ofMinutes(1))
                        .watermarkIdleTimeout(Duration.ofMillis(-1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("watermarkIdleTimeout")
                .hasMessageContaining("PT-0.001S");
    }
}
