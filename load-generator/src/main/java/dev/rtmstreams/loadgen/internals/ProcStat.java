package dev.rtmstreams.loadgen.internals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Linux's {@code /proc} says about processes and the machine: a process's CPU time ({@code /proc/<pid>/stat},
 * utime + stime in clock ticks of {@code getconf CLK_TCK}) and the load average ({@code /proc/loadavg}). Elsewhere the
 * readings are empty.
 */
final class ProcStat {

    private static final Logger LOG = LoggerFactory.getLogger(ProcStat.class);
    private static volatile long clockTicks;

    private ProcStat() {}

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
                String out = ShortCommand.run(List.of("getconf", "CLK_TCK"), 5).trim();
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
}
