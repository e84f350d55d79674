package dev.rtmstreams.testkit.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClusterLookupsTest {

    @Test
    void shouldCountAFailingLookupAsNotYetAndReturnOnceNothingIsShort() {
        AtomicInteger calls = new AtomicInteger();

        Duration took = ClusterLookups.await("the third call", Duration.ofSeconds(10), () -> {
            int call = calls.incrementAndGet();
            if (call == 1) {
                throw new IllegalStateException("the cluster did not answer");
            }
            return call < 3 ? "call " + call : null;
        });

        assertThat(calls).hasValue(3);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void shouldNameWhatAndTheLastShortfallWhenTheWaitIsOver() {
        assertThatThrownBy(() -> ClusterLookups.await("a new leader", Duration.ofMillis(250), () -> "leader 2"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("a new leader not within PT0.25S: leader 2");
    }
}
