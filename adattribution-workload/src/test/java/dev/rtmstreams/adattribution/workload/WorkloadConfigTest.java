package dev.rtmstreams.adattribution.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkloadConfigTest {

    @Test
    void shouldKeepTheMixAndRateWithoutLateEventsWhenBuildingTheWarmup() {
        WorkloadConfig measured = WorkloadConfig.builder()
                .seed(7)
                .rate(2000)
                .duration(Duration.ofSeconds(55))
                .requestShare(0.2)
                .build();

        WorkloadConfig warmup = measured.warmup(Duration.ofSeconds(5), "w" + measured.idPrefix());

        assertThat(warmup.duration()).isEqualTo(Duration.ofSeconds(5));
        assertThat(warmup.idPrefix()).isEqualTo("ws7-");
        assertThat(warmup.lateFraction()).isZero();
        assertThat(warmup.seed()).isEqualTo(7);
        assertThat(warmup.rate()).isEqualTo(2000);
        assertThat(warmup.requestShare()).isEqualTo(0.2);
        assertThat(measured.lateFraction()).isPositive();
        assertThatThrownBy(() -> measured.warmup(Duration.ZERO, "w"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duration must be positive");
    }

    @Test
    void shouldNameTheBadValueWhenTheLateWarmupIsNegative() {
        WorkloadConfig.Builder b = WorkloadConfig.builder().lateWarmup(Duration.ofSeconds(-1));

        assertThatThrownBy(b::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("lateWarmup must not be negative: PT-1S");
        assertThat(WorkloadConfig.builder().build().lateWarmup()).isEqualTo(Duration.ofSeconds(5));
    }
}
