package dev.rtmstreams.reliability.internals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A long steady run (soak: zero duplicates required): samples the service's state size, RocksDB memory, heap and RSS
 * from before the load to its end, writes {@code soak-series.csv} and {@code soak-series.html} and records their
 * summary. Boundedness is judged only when the load lasted at least three times the join's state horizon (watermark
 * delay + attribution window); the series themselves fail nothing.
 */
final class SoakChecker implements Checker {

    static final String SERIES_NAME = "soak-series";

    private final Duration sampleInterval;
    private final Duration duration;
    private final Path reportDir;
    private MetricsSampler sampler;

    /**
     * @param sampleInterval time between samples
     * @param duration the load's length
     * @param reportDir where the series go
     */
    SoakChecker(Duration sampleInterval, Duration duration, Path reportDir) {
        this.sampleInterval = Objects.requireNonNull(sampleInterval, "sampleInterval");
        this.duration = Objects.requireNonNull(duration, "duration");
        this.reportDir = Objects.requireNonNull(reportDir, "reportDir");
    }

    @Override
    public boolean requiresZeroDuplicates() {
        return true;
    }

    @Override
    public void beforeLoad(RunContext run) {
        sampler = new MetricsSampler(run.primary(), sampleInterval);
    }

    @Override
    public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) throws Exception {
        sampler.close();
        sampler.write(reportDir, SERIES_NAME);
        findings.soak(
                sampler.rows().size(),
                sampler.summary(),
                List.of(
                        reportDir.resolve(SERIES_NAME + ".csv").toString(),
                        reportDir.resolve(SERIES_NAME + ".html").toString()),
                boundedJudged(duration));
    }

    /**
     * @param duration the load's length
     * @return whether it lasted at least three times the join's state horizon
     */
    static boolean boundedJudged(Duration duration) {
        Duration horizon = RunContext.WATERMARK_DELAY.plus(RunContext.ATTRIBUTION_WINDOW);
        return duration.compareTo(horizon.multipliedBy(3)) >= 0;
    }
}
