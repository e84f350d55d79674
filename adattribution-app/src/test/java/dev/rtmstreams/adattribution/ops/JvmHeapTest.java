package dev.rtmstreams.adattribution.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JvmHeapTest {

    @Test
    void shouldReportTheHeapLeftAfterACollectionWhenOneHasRun() throws Exception {
        long committed = JvmHeap.committedBytes();
        System.gc();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (JvmHeap.afterLastGcBytes() < 0 && System.nanoTime() < deadline) {
            Thread.sleep(20); // the collection's notification arrives on another thread
        }

        assertThat(JvmHeap.afterLastGcBytes())
                .isPositive()
                .isLessThanOrEqualTo(Runtime.getRuntime().maxMemory());
        assertThat(committed)
                .isPositive()
                .isLessThanOrEqualTo(Runtime.getRuntime().maxMemory());
    }
}
