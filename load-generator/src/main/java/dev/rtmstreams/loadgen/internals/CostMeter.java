package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.tools.LatencyRecorder;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The cost of a measured run: CPU time of the system-under-test JVMs (one, or one per instance of a group) and of the
 * broker process (from {@code /proc/<pid>/stat}: utime + stime, all threads, in clock ticks of {@code getconf
 * CLK_TCK}), and GC pause time of the system-under-test JVMs, summed over the instances; the CPU of each instance
 * is kept apart too ({@link #instanceCpu()}).
 *
 * <p>GC pauses come from the JVM's hsperfdata counters, the memory-mapped file {@code jstat} reads: the pause time
 * is the sum of the {@code sun.gc.collector.N.time} of the stop-the-world collectors. For G1 (verified on JDK 17)
 * these are "G1 young collection pauses" (jstat -gc YGCT), "G1 full collection pauses" (FGCT) and "G1 concurrent
 * cycle pauses" (CGCT: the remark and cleanup pauses of concurrent cycles); for Serial and Parallel GC collectors 0
 * and 1 (young and full); for ZGC and Shenandoah only the collectors named "... pauses" (their cycles run
 * concurrently).
 *
 * <p>CPU and GC are sampled exactly at the window's ends ({@link #windowStart()}, {@link #windowEnd()}): a file
 * read each ({@code /proc/<pid>/stat} through {@link ProcStat}, the hsperfdata file through {@link GcPauses}). When the hsperfdata file
 * cannot be read (another tmp directory, {@code -XX:-UsePerfData}), GC falls back to {@code jstat -snap} (else
 * {@code jstat -gc}: YGCT + FGCT) run just before and just after the run ({@link #beforeRun()},
 * {@link #afterRun()}), because jstat starts a JVM (about half a second of CPU) that must not run inside the window;
 * the GC figure then covers the warm-up too, and the report says so ({@code gc_pause_scope}: {@code window} or
 * {@code run}). A process that is in this JVM or not on Linux reports null.
 *
 * <p>This class does the accounting; {@link ProcStat} reads {@code /proc}, {@link GcPauses} the GC counters.
 */
public final class CostMeter implements LoadRun.WindowListener {

    private final List<Sut> suts;
    private final List<Long> brokerPids;
    private GcTimes gcBefore;
    private GcTimes gcAfter;
    private long startNanos;
    private long endNanos;
    private long[] sutCpuStart;
    private long[] sutCpuEnd;
    private long brokerCpuStart = -1;
    private long brokerCpuEnd = -1;
    private boolean gcInWindow;
    private long ownGcStart;
    private long ownGcEnd;

    /**
     * One JVM of the system under test.
     *
     * @param label its name in the report (e.g. {@code instance-1})
     * @param pid its process id
     */
    public record Sut(String label, long pid) {
        /** Validates. */
        public Sut {
            Objects.requireNonNull(label, "label");
        }
    }

    /**
     * The CPU one JVM of the system under test used in the measured window.
     *
     * @param label its name
     * @param pid its process id
     * @param cpuMs CPU milliseconds in the window, or null when unknown
     */
    public record InstanceCpu(String label, long pid, Long cpuMs) {}

    /**
     * A meter for one measured run.
     *
     * @param sutPid process id of the system-under-test JVM, or null when it runs in this JVM
     * @param brokerPid process id of the broker, or null when it runs in this JVM or elsewhere
     */
    public CostMeter(Long sutPid, Long brokerPid) {
        this(sutPid == null ? List.of() : List.of(new Sut("sut", sutPid)), brokerPid);
    }

    /**
     * A meter for one measured run of a system under test in one or more JVMs (the instances of a group).
     *
     * @param suts the JVMs of the system under test; empty when it runs in this JVM
     * @param brokerPid process id of the broker, or null when it runs in this JVM or elsewhere
     */
    public CostMeter(List<Sut> suts, Long brokerPid) {
        this(suts, brokerPid == null ? List.<Long>of() : List.of(brokerPid));
    }

    /**
     * A meter for one measured run against a cluster of broker processes: the broker CPU is the sum of all of them.
     *
     * @param suts the JVMs of the system under test; empty when it runs in this JVM
     * @param brokerPids process ids of the brokers; empty when they run in this JVM or elsewhere
     * @return the meter
     */
    static CostMeter withBrokers(List<Sut> suts, List<Long> brokerPids) {
        return new CostMeter(suts, brokerPids);
    }

    private CostMeter(List<Sut> suts, List<Long> brokerPids) {
        this.suts = List.copyOf(suts);
        this.brokerPids = List.copyOf(brokerPids);
        this.sutCpuStart = unknown(this.suts.size());
        this.sutCpuEnd = unknown(this.suts.size());
    }

    private static long[] unknown(int n) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, -1);
        return a;
    }

    /**
     * Call right before the run (warm-up included). When the SUT's counters can be read from its hsperfdata file,
     * its GC pauses are sampled at the window's ends; otherwise they are read with jstat here and in
     * {@link #afterRun()} (jstat starts a JVM, which must not run inside the window), and cover the whole run.
     */
    public void beforeRun() {
        if (suts.isEmpty()) {
            return;
        }
        gcInWindow = suts.stream().allMatch(s -> GcPauses.fromPerfData(s.pid()).isPresent());
        if (!gcInWindow) {
            gcBefore = sumGc(GcPauses::fromJstat);
        }
    }

    /** Call right after the run: reads the SUT's GC counters with jstat when they are not sampled in the window. */
    public void afterRun() {
        if (!suts.isEmpty() && !gcInWindow) {
            gcAfter = sumGc(GcPauses::fromJstat);
        }
    }

    @Override
    public void windowStart() {
        startNanos = System.nanoTime();
        sutCpuStart = sutCpu();
        brokerCpuStart = brokerCpu();
        ownGcStart = ownGcMillis();
        if (gcInWindow) {
            gcBefore = sumGc(GcPauses::fromPerfData);
        }
    }

    @Override
    public void windowEnd() {
        endNanos = System.nanoTime();
        sutCpuEnd = sutCpu();
        brokerCpuEnd = brokerCpu();
        ownGcEnd = ownGcMillis();
        if (gcInWindow) {
            gcAfter = sumGc(GcPauses::fromPerfData);
        }
    }

    /** @return the CPU of every broker process summed, -1 when there is none or one cannot be read */
    private long brokerCpu() {
        if (brokerPids.isEmpty()) {
            return -1;
        }
        long sum = 0;
        for (long pid : brokerPids) {
            long cpu = ProcStat.cpuMillis(pid).orElse(-1);
            if (cpu < 0) {
                return -1;
            }
            sum += cpu;
        }
        return sum;
    }

    private long[] sutCpu() {
        long[] cpu = new long[suts.size()];
        for (int i = 0; i < cpu.length; i++) {
            cpu[i] = ProcStat.cpuMillis(suts.get(i).pid()).orElse(-1);
        }
        return cpu;
    }

    /** The GC pause times of every SUT JVM summed by collector, or null when one cannot be read. */
    private GcTimes sumGc(java.util.function.LongFunction<Optional<GcTimes>> read) {
        List<GcTimes> each = new ArrayList<>();
        for (Sut s : suts) {
            Optional<GcTimes> t = read.apply(s.pid());
            if (t.isEmpty()) {
                return null;
            }
            each.add(t.get());
        }
        return GcTimes.sum(each);
    }

    /** @return the CPU of each JVM of the system under test over the window, in the order given; immutable */
    public List<InstanceCpu> instanceCpu() {
        List<InstanceCpu> out = new ArrayList<>();
        for (int i = 0; i < suts.size(); i++) {
            boolean known = sutCpuStart[i] >= 0 && sutCpuEnd[i] >= 0;
            out.add(new InstanceCpu(
                    suts.get(i).label(), suts.get(i).pid(), known ? sutCpuEnd[i] - sutCpuStart[i] : null));
        }
        return List.copyOf(out);
    }

    /**
     * Collection time of this JVM (the generator, pacer and output consumer) so far: a pause here delays sends and
     * receipts, so the report shows how much of it fell inside the window.
     */
    private static long ownGcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    /**
     * The {@code cost} section of a report: what the measured window cost. Null where unknown; the SUT's figures are
     * summed over its JVMs.
     *
     * @param windowMs the measured window's length; null when it was not measured
     * @param events input events sent in the measured run
     * @param sutCpuMs CPU of the system under test in the window
     * @param brokerCpuMs CPU of the broker in the window (of all brokers summed, for a cluster)
     * @param sutCpuUsPerEvent {@code sutCpuMs} per event, in microseconds
     * @param brokerCpuUsPerEvent {@code brokerCpuMs} per event, in microseconds
     * @param gcPauseMs GC pauses of the system under test
     * @param gcPauseMsByCollector the same by collector name (the names are the JVM's: free-form)
     * @param gcPauseScope {@code window} when the pauses cover the window only, {@code run} when the whole run
     * @param loadgenGcMs this JVM's own collection time in the window
     * @param sutPid the system under test's pid; null unless it is one JVM
     * @param sutPids the pids of a system under test of several JVMs; null (absent) otherwise
     * @param brokerPid the broker's pid (the first broker's, for a cluster)
     * @param brokerPids the pids of a cluster of several brokers; null (absent) otherwise
     * @param clockTicksPerS the kernel's clock ticks per second ({@code /proc} CPU times are in ticks)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Cost(
            Long windowMs,
            long events,
            Long sutCpuMs,
            Long brokerCpuMs,
            Double sutCpuUsPerEvent,
            Double brokerCpuUsPerEvent,
            Double gcPauseMs,
            Map<String, Double> gcPauseMsByCollector,
            String gcPauseScope,
            Long loadgenGcMs,
            Long sutPid,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<Long> sutPids,
            Long brokerPid,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<Long> brokerPids,
            long clockTicksPerS) {}

    /**
     * The {@code cost} section of a report.
     *
     * @param events input events sent in the measured run
     * @return the cost of the measured window
     */
    public Cost report(long events) {
        Long sutCpu = totalCpuMs(instanceCpu());
        Long brokerCpu = brokerCpuStart >= 0 && brokerCpuEnd >= 0 ? brokerCpuEnd - brokerCpuStart : null;
        Map<String, Double> gc = gcBefore != null && gcAfter != null ? gcAfter.minus(gcBefore) : null;
        return new Cost(
                endNanos > startNanos ? Math.round((endNanos - startNanos) / 1e6) : null,
                events,
                sutCpu,
                brokerCpu,
                perEvent(sutCpu, events),
                perEvent(brokerCpu, events),
                gc == null
                        ? null
                        : LatencyRecorder.round(
                                gc.values().stream().mapToDouble(d -> d).sum()),
                gc,
                suts.isEmpty() ? null : gcInWindow ? "window" : "run",
                endNanos > startNanos ? ownGcEnd - ownGcStart : null,
                suts.size() == 1 ? suts.get(0).pid() : null,
                suts.size() > 1 ? suts.stream().map(Sut::pid).toList() : null,
                brokerPids.isEmpty() ? null : brokerPids.get(0),
                brokerPids.size() > 1 ? brokerPids : null,
                ProcStat.clockTicksPerSecond());
    }

    /**
     * The CPU of a system under test in several JVMs.
     *
     * @param cpu each JVM's CPU
     * @return the sum, or null when there is no JVM or one's CPU is unknown
     */
    static Long totalCpuMs(List<InstanceCpu> cpu) {
        if (cpu.isEmpty() || cpu.stream().anyMatch(c -> c.cpuMs() == null)) {
            return null;
        }
        return cpu.stream().mapToLong(InstanceCpu::cpuMs).sum();
    }

    static Double perEvent(Long cpuMillis, long events) {
        return cpuMillis == null || events <= 0 ? null : LatencyRecorder.round(cpuMillis * 1000.0 / events);
    }
}
