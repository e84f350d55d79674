package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CostMeterTest {

    private static final String JSTAT_GC = "    S0C         S1C         S0U         S1U          EC           EU    "
            + "       OC           OU          MC         MU       CCSC      CCSU     YGC     YGCT     FGC    FGCT     CGC    "
            + "CGCT       GCT   \n        0.0         0.0         0.0         0.0       3072.0          0.0      14336.0    "
            + "   2941.8     9344.0     9108.1    1216.0    1092.7      9     0.267     1     0.037     0     0.000     0.305\n";

    private static final String JSTAT_SNAP = """
      sun.gc.collector.0.invocations=9
      sun.gc.collector.0.name="G1 young collection pauses"
      sun.gc.collector.0.time=267366504
      sun.gc.collector.1.name="G1 full collection pauses"
      sun.gc.collector.1.time=37388986
      sun.gc.collector.2.name="G1 concurrent cycle pauses"
      sun.gc.collector.2.time=5000000
      sun.os.hrt.frequency=1000000000
      """;

    @Test
    void shouldReadUtimeAndStimeWhenTheCommandNameHasSpacesAndParentheses() {
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 123 0 0 0 1234 567 0 0 20 0 37 0 1000 "
                + "5000000 3000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

        assertThat(ProcStat.parseStatTicks(stat)).containsExactly(1234L, 567L);
    }

    @Test
    void shouldRejectAStatLineWithoutCommandOrWithTooFewFields() {
        assertThatThrownBy(() -> ProcStat.parseStatTicks("garbage")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parseStatTicks("1 (x) S 1 2 3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too few fields");
    }

    @Test
    void shouldMeasureTheCpuTimeOfThisProcessWhenItBurnsCpu() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "needs Linux /proc");
        long pid = ProcessHandle.current().pid();
        CostMeter meter = new CostMeter(pid, null);
        meter.windowStart();
        // burn 400 ms of this thread's own CPU time (not wall time: on a loaded machine the thread may get little CPU)
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + 400_000_000L;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 10_000; i++) {
                x += Long.numberOfTrailingZeros(x + System.nanoTime());
            }
        }
        meter.windowEnd();

        CostMeter.Cost cost = meter.report(1000);

        assertThat(x).isNotNegative();
        assertThat(cost.sutCpuMs()).isBetween(380L, 60_000L);
        assertThat(cost.sutCpuUsPerEvent()).isEqualTo(cost.sutCpuMs() * 1.0);
        assertThat(cost.windowMs()).isBetween(390L, 60_000L);
        assertThat(cost.events()).isEqualTo(1000L);
        assertThat(cost.brokerCpuMs()).isNull();
        assertThat(cost.brokerCpuUsPerEvent()).isNull();
        assertThat(cost.gcPauseMs()).isNull();
    }

    @Test
    void shouldReportNullCostWhenTheProcessesRunInThisJvm() {
        CostMeter meter = new CostMeter(List.of(), null);
        meter.beforeRun();
        meter.windowStart();
        meter.windowEnd();
        meter.afterRun();

        CostMeter.Cost cost = meter.report(10);

        assertThat(cost.sutCpuMs()).isNull();
        assertThat(cost.brokerCpuMs()).isNull();
        assertThat(cost.gcPauseMs()).isNull();
        assertThat(cost.events()).isEqualTo(10L);
    }

    @Test
    void shouldSumYoungAndFullCollectionTimesWhenParsingJstatGc() {
        GcTimes t = GcPauses.parseJstatGc(JSTAT_GC);

        assertThat(t.pauseMs().get("YGCT")).isCloseTo(267.0, within(1e-9));
        assertThat(t.pauseMs().get("FGCT")).isCloseTo(37.0, within(1e-9));
        assertThat(GcPauses.parseJstatGc("YGCT FGCT\n0,5 -\n").pauseMs())
                .containsEntry("YGCT", 500.0)
                .containsEntry("FGCT", 0.0);
        assertThatThrownBy(() -> GcPauses.parseJstatGc("12345 not found")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCountEveryStopTheWorldCollectorWhenParsingJstatSnap() {
        GcTimes t = GcPauses.parseJstatSnap(JSTAT_SNAP);

        assertThat(t.pauseMs())
                .containsOnlyKeys(
                        "G1 young collection pauses", "G1 full collection pauses", "G1 concurrent cycle pauses");
        assertThat(t.pauseMs().get("G1 young collection pauses")).isCloseTo(267.366504, within(1e-9));
        assertThat(t.pauseMs().get("G1 concurrent cycle pauses")).isCloseTo(5.0, within(1e-9));
    }

    @Test
    void shouldLeaveOutConcurrentCyclesWhenTheCollectorIsConcurrent() {
        String shenandoah = "sun.gc.collector.0.name=\"Shenandoah Pauses\"\nsun.gc.collector.0.time=2000\n"
                + "sun.gc.collector.1.name=\"Shenandoah Cycles\"\nsun.gc.collector.1.time=900000\n"
                + "sun.os.hrt.frequency=1000000\n";
        String parallel = "sun.gc.collector.0.name=\"PSScavenge\"\nsun.gc.collector.0.time=3000000\n"
                + "sun.gc.collector.1.name=\"PSParallelCompact\"\nsun.gc.collector.1.time=1000000\n"
                + "sun.os.hrt.frequency=1000000000\n";

        assertThat(GcPauses.parseJstatSnap(shenandoah).pauseMs()).containsExactly(Map.entry("Shenandoah Pauses", 2.0));
        assertThat(GcPauses.parseJstatSnap(parallel).pauseMs())
                .containsEntry("PSScavenge", 3.0)
                .containsEntry("PSParallelCompact", 1.0);
        assertThatThrownBy(() -> GcPauses.parseJstatSnap("nothing")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldSubtractPerCollectorWhenComputingThePausesOfAWindow() {
        GcTimes before = new GcTimes(Map.of("young", 100.0, "full", 10.0));
        GcTimes after = new GcTimes(Map.of("young", 130.5, "full", 10.0, "other", 2.0));

        assertThat(after.minus(before))
                .containsEntry("young", 30.5)
                .containsEntry("full", 0.0)
                .containsEntry("other", 2.0);
    }

    @Test
    void shouldAddUpThePausesOfSeveralJvmsByCollector() {
        GcTimes a = new GcTimes(Map.of("young", 10.0, "full", 1.0));
        GcTimes b = new GcTimes(Map.of("young", 2.5, "other", 4.0));

        assertThat(GcTimes.sum(List.of(a, b)).pauseMs())
                .containsOnly(Map.entry("young", 12.5), Map.entry("full", 1.0), Map.entry("other", 4.0));
        assertThat(GcTimes.sum(List.of()).pauseMs()).isEmpty();
    }

    @Test
    void shouldSumTheCpuOfEveryInstanceAndKeepEachApartWhenTheSystemRunsInSeveralJvms() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "needs Linux /proc");
        long pid = ProcessHandle.current().pid();
        // the same JVM twice: each "instance" sees the same CPU, the group twice that
        CostMeter meter = new CostMeter(List.of(new CostMeter.Sut("a", pid), new CostMeter.Sut("b", pid)), null);
        meter.windowStart();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + 200_000_000L;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        meter.windowEnd();

        List<CostMeter.InstanceCpu> each = meter.instanceCpu();
        CostMeter.Cost cost = meter.report(100);

        assertThat(x).isNotNegative();
        assertThat(each).extracting(CostMeter.InstanceCpu::label).containsExactly("a", "b");
        assertThat(each).allSatisfy(c -> assertThat(c.pid()).isEqualTo(pid));
        assertThat(each.get(0).cpuMs()).isBetween(180L, 60_000L);
        assertThat(cost.sutCpuMs()).isEqualTo(each.get(0).cpuMs() + each.get(1).cpuMs());
        assertThat(cost.sutPid()).isNull();
        assertThat(cost.sutPids()).containsExactly(pid, pid);
    }

    @Test
    void shouldLeaveTheGroupsCpuUnknownWhenOneInstancesCpuIsUnknown() {
        assertThat(CostMeter.totalCpuMs(
                        List.of(new CostMeter.InstanceCpu("a", 1, 5L), new CostMeter.InstanceCpu("b", 2, null))))
                .isNull();
        assertThat(CostMeter.totalCpuMs(List.of())).isNull();
        assertThat(CostMeter.totalCpuMs(
                        List.of(new CostMeter.InstanceCpu("a", 1, 5L), new CostMeter.InstanceCpu("b", 2, 7L))))
                .isEqualTo(12L);
    }

    @Test
    void shouldReadThePauseTimesOfARunningJvmWithJstat() {
        Assumptions.assumeTrue(
                Files.isExecutable(Path.of(System.getProperty("java.home"), "bin", "jstat")), "needs jstat");
        System.gc();

        GcTimes t = GcPauses.fromJstat(ProcessHandle.current().pid()).orElseThrow();

        assertThat(t.pauseMs()).isNotEmpty();
        assertThat(t.pauseMs().values()).allSatisfy(v -> assertThat(v).isNotNegative());
        assertThat(t.pauseMs().values().stream().mapToDouble(d -> d).sum()).isPositive();
    }

    @Test
    void shouldReadTheSamePauseCountersFromTheHsperfdataFileAsJstatDoes() {
        Assumptions.assumeTrue(
                Files.isExecutable(Path.of(System.getProperty("java.home"), "bin", "jstat")), "needs jstat");
        long pid = ProcessHandle.current().pid();
        System.gc();

        GcTimes before = GcPauses.fromPerfData(pid).orElseThrow();
        GcTimes jstat = GcPauses.fromJstat(pid).orElseThrow();
        System.gc();
        GcTimes after = GcPauses.fromPerfData(pid).orElseThrow();

        // the same collectors; the counters only grow, and jstat read them in between
        assertThat(before.pauseMs().keySet()).isEqualTo(jstat.pauseMs().keySet());
        assertThat(before.pauseMs().values().stream().mapToDouble(d -> d).sum()).isPositive();
        before.pauseMs().forEach((name, ms) -> {
            assertThat(jstat.pauseMs().get(name)).as(name).isGreaterThanOrEqualTo(ms - 0.001);
            assertThat(after.pauseMs().get(name))
                    .as(name)
                    .isGreaterThanOrEqualTo(jstat.pauseMs().get(name) - 0.001);
        });
        assertThat(after.minus(before).values().stream().mapToDouble(d -> d).sum())
                .isPositive();
    }

    @Test
    void shouldFindNoCountersForAProcessWithoutAnHsperfdataFile(@TempDir Path dir) {
        assertThat(HsPerfData.read(ProcessHandle.current().pid(), dir)).isEmpty();
        assertThat(GcPauses.fromPerfData(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void shouldParseLongAndStringEntriesInEitherByteOrder() {
        for (ByteOrder order : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN)) {
            ByteBuffer b = ByteBuffer.allocate(256).order(order);
            b.put(0, (byte) 0xca).put(1, (byte) 0xfe).put(2, (byte) 0xc0).put(3, (byte) 0xc0);
            b.put(4, order == ByteOrder.BIG_ENDIAN ? (byte) 0 : (byte) 1);
            b.put(7, (byte) 1); // accessible
            b.putInt(24, 32).putInt(28, 2);
            // entry 1 at 32: a long named "a.time" = 42
            b.putInt(32, 40).putInt(36, 20).putInt(40, 0).put(44, (byte) 'J').putInt(48, 32);
            putCString(b, 52, "a.time");
            b.putLong(64, 42L);
            // entry 2 at 72: a string named "a.name" = "G1 young"
            b.putInt(72, 48).putInt(76, 20).putInt(80, 16).put(84, (byte) 'B').putInt(88, 28);
            putCString(b, 92, "a.name");
            putCString(b, 100, "G1 young");

            assertThat(HsPerfData.parse(b))
                    .as(order.toString())
                    .containsExactly(Map.entry("a.time", 42L), Map.entry("a.name", "G1 young"));
        }
        assertThatThrownBy(() -> HsPerfData.parse(ByteBuffer.allocate(64)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("magic");
    }

    private static void putCString(ByteBuffer b, int at, String s) {
        byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            b.put(at + i, bytes[i]);
        }
        b.put(at + bytes.length, (byte) 0);
    }

    @Test
    void shouldParseTheOneMinuteLoadAverage() {
        assertThat(ProcStat.parseLoadAverage("1.24 0.52 0.22 3/102 3944\n")).isEqualTo(1.24);
        assertThat(ProcStat.clockTicksPerSecond()).isPositive();
    }
}
