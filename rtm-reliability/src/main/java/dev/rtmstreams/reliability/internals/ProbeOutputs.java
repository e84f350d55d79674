package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.List;

/**
 * The outputs of probe records as a checker sees them, counted by probe output id: {@code log:<transaction_id>:<ack
 * ad_id>} for a log record, {@code click:<click_id>} for an attributed click. {@link OutputMonitor} reads them from the
 * service's output topics; tests give fixed counts.
 */
interface ProbeOutputs {

    /**
     * Returns how often a probe output was seen.
     *
     * @param id the probe output id; not null
     * @return the count, 0 if never seen
     */
    int probeCount(String id);

    /**
     * Waits until every id has been seen at least once.
     *
     * @param ids probe output ids; not null
     * @param timeout the longest wait
     * @return whether all were seen
     * @throws InterruptedException when interrupted
     */
    boolean awaitProbes(List<String> ids, Duration timeout) throws InterruptedException;

    /**
     * Counts the ids seen at least once.
     *
     * @param ids probe output ids; not null
     * @return how many of them were seen
     */
    default long countSeen(List<String> ids) {
        return ids.stream().filter(id -> probeCount(id) > 0).count();
    }
}
