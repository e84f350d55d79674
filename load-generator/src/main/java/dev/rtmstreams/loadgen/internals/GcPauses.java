package dev.rtmstreams.loadgen.internals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JVM's cumulative stop-the-world GC pause times ({@link GcTimes}), read from its hsperfdata counters
 * ({@link HsPerfData}, no process started) or with {@code jstat} ({@code -snap}, else {@code -gc}): which collectors
 * count as pauses is explained at {@link #parseJstatSnap}.
 */
final class GcPauses {

    private static final Logger LOG = LoggerFactory.getLogger(GcPauses.class);

    private GcPauses() {}

    /**
     * Reads a JVM's cumulative GC pause times with jstat ({@code -snap}, else {@code -gc}).
     *
     * @param pid the JVM
     * @return the times, or empty when jstat is missing or fails (e.g. the JVM runs with -XX:-UsePerfData)
     */
    public static Optional<GcTimes> fromJstat(long pid) {
        Path jstat = Path.of(System.getProperty("java.home"), "bin", "jstat");
        if (!Files.isExecutable(jstat)) {
            return Optional.empty();
        }
        try {
            return Optional.of(parseJstatSnap(ShortCommand.run(
                    List.of(jstat.toString(), "-J-Djstat.showUnsupported=true", "-snap", Long.toString(pid)), 20)));
        } catch (IOException | RuntimeException e) {
            LOG.debug("jstat -snap {} failed; trying jstat -gc", pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        try {
            return Optional.of(parseJstatGc(ShortCommand.run(
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
    static Optional<GcTimes> fromPerfData(long pid) {
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
}
