package dev.rtmstreams.adattribution;

import dev.rtmstreams.topology.AssignmentReport;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.ProgressListener;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the service's metrics and logs know of its checkpoint epochs and slot assignment: the latest epoch (overall
 * and per stream thread), the number of epochs and the latest assignment report. Told by rtm-topology's progress
 * thread; read by the metrics on every scrape. Logs under {@link AdAttributionService}'s name.
 */
final class ServiceProgress implements ProgressListener {

    private static final Logger LOG = LoggerFactory.getLogger(AdAttributionService.class);

    private final AtomicReference<EpochProgress> lastEpoch = new AtomicReference<>();
    private final Map<String, EpochProgress> lastEpochPerThread = new ConcurrentHashMap<>();
    private final AtomicReference<AssignmentReport> lastAssignment = new AtomicReference<>();
    private final AtomicInteger epochs = new AtomicInteger();

    @Override
    public void onEpochProgress(EpochProgress progress) {
        lastEpoch.set(progress);
        lastEpochPerThread.put(progress.threadName(), progress);
        epochs.incrementAndGet();
    }

    @Override
    public void onAssignment(AssignmentReport report) {
        lastAssignment.set(report);
        if (!report.violations().isEmpty()) {
            LOG.warn("event=slot-violations violations={}", report.violations());
        }
    }

    /** @return the latest checkpoint epoch report of any stream thread, if any */
    Optional<EpochProgress> latest() {
        return Optional.ofNullable(lastEpoch.get());
    }

    /** @return the latest checkpoint epoch report per stream thread name (a live view) */
    Map<String, EpochProgress> latestPerThread() {
        return lastEpochPerThread;
    }

    /** @return checkpoint epochs closed so far */
    int epochs() {
        return epochs.get();
    }

    /** @return the latest assignment report, if any */
    Optional<AssignmentReport> latestAssignment() {
        return Optional.ofNullable(lastAssignment.get());
    }

    /**
     * Calls {@code each} for every slot of the latest assignment report (none before the first).
     *
     * @param each told each slot
     */
    void slots(Consumer<AssignmentReport.Slot> each) {
        AssignmentReport a = lastAssignment.get();
        if (a != null) {
            a.slots().forEach(each);
        }
    }
}
