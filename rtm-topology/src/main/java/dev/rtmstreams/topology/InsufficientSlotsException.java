package dev.rtmstreams.topology;

import dev.rtmstreams.processor.RtmException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Thrown by {@link RtmStreams#start()} in {@link SlotCheckMode#FAIL} when the topology needs more task slots than the
 * application has. Error code {@value #ERROR_CODE} (Spark's), parameters {@code numTasks}, {@code numSlots}
 * (available), {@code requiredSlots}, {@code tasksPerSlot}.
 */
@InterfaceStability.Evolving
public final class InsufficientSlotsException extends RtmException {

    /** The stable error code, as Spark's error class. */
    public static final String ERROR_CODE = "CONCURRENT_SCHEDULER_INSUFFICIENT_SLOT";

    private final transient SizingReport report;

    /** @param report the failed sizing, never null */
    public InsufficientSlotsException(SizingReport report) {
        super(
                ERROR_CODE,
                parameters(report),
                "real-time mode needs " + report.requiredSlots()
                        + " task slots for " + report.totalTasks() + " tasks (" + report.tasksPerSlot()
                        + " per slot) but only " + report.availableSlots() + " are available ("
                        + report.threadsPerInstance() + " threads x " + report.instances()
                        + " instances). Tasks per sub-topology:\n" + report.tasksPerSubtopology()
                        + "\nAdd stream threads or instances, pack more tasks per slot, or reduce partitions.");
        this.report = report;
    }

    private static Map<String, String> parameters(SizingReport r) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("numTasks", Integer.toString(r.totalTasks()));
        p.put("numSlots", Integer.toString(r.availableSlots()));
        p.put("requiredSlots", Integer.toString(r.requiredSlots()));
        p.put("tasksPerSlot", Integer.toString(r.tasksPerSlot()));
        return p;
    }

    /** @return the sizing that failed */
    public SizingReport report() {
        return report;
    }
}
