package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.tools.LatencyRecorder;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * read each ({@code /proc/<pid>/stat}, the hsperfdata file through {@link HsPerfData}). When the hsperfdata file
 * cannot be read (another tmp directory, {@code -XX:-UsePerfData}), GC falls back to {@code jstat -snap} (else
 * {@code jstat -gc}: YGCT + FGCT) run just before and just after the run ({@link #beforeRun()},
 * {@link #afterRun()}), because jstat starts a JVM (about half a second of CPU) that must not run inside the window;
 * the GC figure then covers the warm-up too, and the report says so ({@code gc_pause_scope}: {@code window} or
 * {@code run}). A process that is in this JVM or not on Linux reports null.
 */
public final class CostMeter implements LoadRun.WindowListener {

    private static final Logger LOG = LoggerFactory.getLogger(CostMeter.class);
    private static volatile long clockTicks;

    private final List<Sut> suts;
    private final Long brokerPid;
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
     * Cumulative stop-the-world GC times of a JVM by collector, in milliseconds.
     *
     * @param pauseMs pause time so far by collector name (e.g. "G1 young collection pauses", or YGCT and FGCT when
     *     read from {@code jstat -gc})
     */
    public record GcTimes(Map<String, Double> pauseMs) {
        /** Copies. */
        public GcTimes {
            pauseMs = Collections.unmodifiableMap(new LinkedHashMap<>(pauseMs));
        }

        /**
         * The pause time between two readings, by collector.
         *
         * @param before the earlier reading of the same JVM
         * @return this minus before, by collector (collectors missing from before count from 0)
         */
        public Map<String, Double> minus(GcTimes before) {
            Map<String, Double> d = new LinkedHashMap<>();
            pauseMs.forEach((k, v) ->
                    d.put(k, LatencyRecorder.round(v - before.pauseMs().getOrDefault(k, 0.0))));
            return d;
        }

        /**
         * The pause times of several JVMs added up by collector.
         *
         * @param each readings of different JVMs taken at about the same time
         * @return their sum, by collector, in order of first appearance
         */
        public static GcTimes sum(List<GcTimes> each) {
            Map<String, Double> total = new LinkedHashMap<>();
            each.forEach(t -> t.pauseMs().forEach((k, v) -> total.merge(k, v, Double::sum)));
            return new GcTimes(total);
        }
    }

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
        this.suts = List.copyOf(suts);
        this.brokerPid = brokerPid;
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
        gcInWindow = suts.stream().allMatch(s -> perfGcTimes(s.pid()).isPresent());
        if (!gcInWindow) {
            gcBefore = sumGc(CostMeter::gcTimes);
        }
    }

    /** Call right after the run: reads the SUT's GC counters with jstat when they are not sampled in the window. */
    public void afterRun() {
        if (!suts.isEmpty() && !gcInWindow) {
            gcAfter = sumGc(CostMeter::gcTimes);
        }
    }

    @Override
    public void windowStart() {
        startNanos = System.nanoTime();
        sutCpuStart = sutCpu();
        brokerCpuStart = brokerPid == null ? -1 : cpuMillis(brokerPid).orElse(-1);
        ownGcStart = ownGcMillis();
        if (gcInWindow) {
            gcBefore = sumGc(CostMeter::perfGcTimes);
        }
    }

    @Override
    public void windowEnd() {
        endNanos = System.nanoTime();
        sutCpuEnd = sutCpu();
        brokerCpuEnd = brokerPid == null ? -1 : cpuMillis(brokerPid).orElse(-1);
        ownGcEnd = ownGcMillis();
        if (gcInWindow) {
            gcAfter = sumGc(CostMeter::perfGcTimes);
        }
    }

    private long[] sutCpu() {
        long[] cpu = new long[suts.size()];
        for (int i = 0; i < cpu.length; i++) {
            cpu[i] = cpuMillis(suts.get(i).pid()).orElse(-1);
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
     * @param brokerCpuMs CPU of the broker in the window
     * @param sutCpuUsPerEvent {@code sutCpuMs} per event, in microseconds
     * @param brokerCpuUsPerEvent {@code brokerCpuMs} per event, in microseconds
     * @param gcPauseMs GC pauses of the system under test
     * @param gcPauseMsByCollector the same by collector name (the names are the JVM's: free-form)
     * @param gcPauseScope {@code window} when the pauses cover the window only, {@code run} when the whole run
     * @param loadgenGcMs this JVM's own collection time in the window
     * @param sutPid the system under test's pid; null unless it is one JVM
     * @param sutPids the pids of a system under test of several JVMs; null (absent) otherwise
     * @param brokerPid the broker's pid
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
                brokerPid,
                clockTicksPerSecond());
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

    /**
     * CPU time (user + system, all threads) a process has used so far.
     *
     * @param pid the process
     * @return milliseconds, or empty when {@code /proc/<pid>/stat} cannot be read
     */
    public static OptionalLong cpuMillis(long pid) {
        try {
            long[] t = parseStatTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
            return OptionalLong.of((t[0] + t[1]) * 1000L / clockTicksPerSecond());
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot read the CPU time of pid {}", pid, e);
            return OptionalLong.empty();
        }
    }

    /**
     * Parses utime and stime from a {@code /proc/<pid>/stat} line (fields 14 and 15, counted after the command name
     * in parentheses, which may itself contain spaces and parentheses).
     *
     * @param stat the line
     * @return {utime, stime} in clock ticks
     * @throws IllegalArgumentException if the line is malformed
     */
    static long[] parseStatTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
        }
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state), so field n is f[n - 3]
        if (f.length < 13) {
            throw new IllegalArgumentException("too few fields in /proc/<pid>/stat: " + stat);
        }
        try {
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("utime/stime are not numbers: " + stat, e);
        }
    }

    /**
     * Clock ticks per second of {@code /proc} times ({@code getconf CLK_TCK}; 100 when that fails).
     *
     * @return ticks per second
     */
    public static long clockTicksPerSecond() {
        long t = clockTicks;
        if (t == 0) {
            t = 100;
            try {
                String out = run(List.of("getconf", "CLK_TCK"), 5).trim();
                t = Long.parseLong(out);
            } catch (IOException | RuntimeException e) {
                LOG.debug("getconf CLK_TCK failed; assuming 100", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            clockTicks = t;
        }
        return t;
    }

    /**
     * Reads a JVM's cumulative GC pause times with jstat ({@code -snap}, else {@code -gc}).
     *
     * @param pid the JVM
     * @return the times, or empty when jstat is missing or fails (e.g. the JVM runs with -XX:-UsePerfData)
     */
    public static Optional<GcTimes> gcTimes(long pid) {
        Path jstat = Path.of(System.getProperty("java.home"), "bin", "jstat");
        if (!Files.isExecutable(jstat)) {
            return Optional.empty();
        }
        try {
            return Optional.of(parseJstatSnap(
                    run(List.of(jstat.toString(), "-J-Djstat.showUnsupported=true", "-snap", Long.toString(pid)), 20)));
        } catch (IOException | RuntimeException e) {
            LOG.debug("jstat -snap {} failed; trying jstat -gc", pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        try {
            return Optional.of(parseJstatGc(run(
                    List.of(jstat.toString(), "-J-Duser.language=en", "-J-Duser.country=US", "-gc", Long.toString(pid)),
                    20)));
        } catch (IOException | RuntimeException e) {
            LOG.warn("jstat -gc {} failed: {}", pid, e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * Reads a JVM's cumulative GC pause times from its hsperfdata file (no process started).
     *
     * @param pid the JVM
     * @return the times, or empty when its file cannot be read or holds no stop-the-world collector
     */
    static Optional<GcTimes> perfGcTimes(long pid) {
        Optional<Map<String, Object>> counters = HsPerfData.read(pid, Path.of(System.getProperty("java.io.tmpdir")));
        if (counters.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> kv = new HashMap<>();
        counters.get().forEach((k, v) -> kv.put(k, String.valueOf(v)));
        try {
            return Optional.of(pauses(kv));
        } catch (IllegalArgumentException e) {
            LOG.debug("no GC counters in the hsperfdata of {}", pid, e);
            return Optional.empty();
        }
    }

    /**
     * Parses {@code jstat -J-Djstat.showUnsupported=true -snap <pid>} ({@code name=value} lines): the time of every
     * stop-the-world collector, converted with {@code sun.os.hrt.frequency}. A collector counts as stop-the-world when
     * its name contains "pause", or when it is collector 0 or 1 and its name says neither "cycle" nor "concurrent"
     * (Serial: Copy, MarkSweepCompact; Parallel: PSScavenge, PSParallelCompact).
     *
     * @param output jstat's output
     * @return pause milliseconds by collector name
     * @throws IllegalArgumentException when no collector or no frequency is found
     */
    static GcTimes parseJstatSnap(String output) {
        Map<String, String> kv = new HashMap<>();
        for (String l : output.split("\\R")) {
            int eq = l.indexOf('=');
            if (eq > 0) {
                String v = l.substring(eq + 1).trim();
                if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                    v = v.substring(1, v.length() - 1);
                }
                kv.put(l.substring(0, eq).trim(), v);
            }
        }
        return pauses(kv);
    }

    /**
     * The time of every stop-the-world collector in a JVM's counters (see {@link #parseJstatSnap}).
     *
     * @param kv counter name to value
     * @return pause milliseconds by collector name
     * @throws IllegalArgumentException when no collector or no frequency is found
     */
    private static GcTimes pauses(Map<String, String> kv) {
        String freq = kv.get("sun.os.hrt.frequency");
        if (freq == null) {
            throw new IllegalArgumentException("no sun.os.hrt.frequency in the counters");
        }
        double ticksPerMs = Double.parseDouble(freq) / 1000.0;
        Map<String, Double> pauses = new LinkedHashMap<>();
        for (int i = 0; kv.containsKey("sun.gc.collector." + i + ".name"); i++) {
            String name = kv.get("sun.gc.collector." + i + ".name");
            String time = kv.get("sun.gc.collector." + i + ".time");
            String lower = name.toLowerCase(Locale.ROOT);
            boolean pause =
                    lower.contains("pause") || (i <= 1 && !lower.contains("cycle") && !lower.contains("concurrent"));
            if (pause && time != null) {
                pauses.put(name, Long.parseLong(time) / ticksPerMs);
            }
        }
        if (pauses.isEmpty()) {
            throw new IllegalArgumentException("no stop-the-world collector in the counters");
        }
        return new GcTimes(pauses);
    }

    /**
     * Parses the output of {@code jstat -gc <pid>} (a header line and a value line).
     *
     * @param output jstat's output
     * @return YGCT and FGCT in milliseconds ("-" counts as 0 for FGCT)
     * @throws IllegalArgumentException when YGCT is missing or the output is malformed
     */
    static GcTimes parseJstatGc(String output) {
        List<String> lines = new ArrayList<>();
        for (String l : output.split("\\R")) {
            if (!l.isBlank()) {
                lines.add(l.trim());
            }
        }
        if (lines.size() < 2) {
            throw new IllegalArgumentException("unexpected jstat output: " + output);
        }
        String[] head = lines.get(0).split("\\s+");
        String[] values = lines.get(1).split("\\s+");
        if (head.length != values.length) {
            throw new IllegalArgumentException("jstat header and values differ in length: " + output);
        }
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < head.length; i++) {
            m.put(head[i], values[i]);
        }
        if (!m.containsKey("YGCT")) {
            throw new IllegalArgumentException("no YGCT in jstat output: " + output);
        }
        Map<String, Double> pauses = new LinkedHashMap<>();
        pauses.put("YGCT", seconds(m.get("YGCT"), false) * 1000);
        pauses.put("FGCT", seconds(m.get("FGCT"), true) * 1000);
        return new GcTimes(pauses);
    }

    private static double seconds(String v, boolean optional) {
        if (v == null || v.equals("-")) {
            if (optional) {
                return 0;
            }
            throw new IllegalArgumentException("missing jstat value");
        }
        return Double.parseDouble(v.replace(',', '.'));
    }

    /**
     * The 1-minute load average ({@code /proc/loadavg}).
     *
     * @return the load average, or empty when not on Linux
     */
    public static OptionalDouble loadAverage1m() {
        try {
            return OptionalDouble.of(parseLoadAverage(Files.readString(Path.of("/proc/loadavg"))));
        } catch (IOException | RuntimeException e) {
            return OptionalDouble.empty();
        }
    }

    /**
     * Parses the first field of {@code /proc/loadavg}.
     *
     * @param loadavg the file's text, e.g. {@code 0.52 0.31 0.20 1/123 4567}
     * @return the 1-minute load average
     */
    static double parseLoadAverage(String loadavg) {
        return Double.parseDouble(loadavg.trim().split("\\s+")[0]);
    }

    private static String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("loadgen-cmd-", ".out");
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " exited with " + p.exitValue() + ": " + text.trim());
            }
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
