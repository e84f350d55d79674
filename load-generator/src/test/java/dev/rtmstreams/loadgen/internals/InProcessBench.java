package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Path;
import java.time.Duration;

/** Bench options of the tests: broker and peers in this JVM, no warm-up, no progress bar, one stream thread. */
final class InProcessBench {

    private InProcessBench() {}

    /**
     * @param workload the workload
     * @param reportDir where reports go
     * @return a builder to add the modes and what else the test needs to
     */
    static BenchOptionsBuilder options(WorkloadConfig workload, Path reportDir) {
        return BenchOptions.builder()
                .workload(workload)
                .reportDir(reportDir)
                .broker(BenchOptions.BrokerKind.IN_PROCESS)
                .warmup(Duration.ZERO)
                .progress(false)
                .streamThreads(1)
                .peersInChildJvm(false);
    }
}
