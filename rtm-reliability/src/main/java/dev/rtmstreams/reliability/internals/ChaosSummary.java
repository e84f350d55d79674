package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.tools.ReportJson;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** The console summary of a {@link ChaosReport}: verdict, load, oracle, fault and recovery, sections, failures. */
final class ChaosSummary {

    private ChaosSummary() {}

    /**
     * Prints the summary: verdict, load, oracle, fault and recovery, the checkers' sections, failures and where the
     * report is.
     *
     * @param r the report
     * @param out where to print
     * @param json the written report
     */
    static void print(ChaosReport r, PrintStream out, Path json) {
        out.printf(
                Locale.ROOT, "chaos %s%s: %s%n", r.scenario(), r.exactlyOnce() ? " (exactly-once)" : "", r.verdict());
        out.printf(
                Locale.ROOT,
                "  load      : %s events sent at %s/s (target %.0f/s, kept up: %s)%n",
                r.oracle().eventsSent(),
                r.oracle().achievedRate(),
                r.targetRate(),
                r.oracle().keptUp());
        out.printf(
                Locale.ROOT,
                "  oracle    : expected %s, observed %s, missing %s, duplicates %s, unexpected %s%n",
                r.oracle().expected(),
                r.oracle().observed(),
                r.oracle().missing(),
                r.oracle().duplicates(),
                r.oracle().unexpected());
        if (r.fault().injected() != null) {
            out.printf(
                    Locale.ROOT,
                    "  fault     : %s at %ss%n",
                    r.fault().injected().kind(),
                    r.fault().injected().atS());
            out.printf(
                    Locale.ROOT,
                    "  recovery  : %s ms until outputs flowed again on every partition "
                            + "(longest output gap %s ms)%n",
                    r.fault().recoveryMs(),
                    r.fault().longestOutputGapMs());
        }
        printSection(out, "straddling_matches", r.sections().straddlingMatches());
        printSection(out, "pending_timers", r.sections().pendingTimers());
        printSection(out, "wipe_probes", r.sections().wipeProbes());
        printSection(out, "poison", r.sections().poison());
        printSection(out, "group_change", r.sections().groupChange());
        printSection(out, "broker_fault", r.sections().brokerFault());
        if (r.sections().soakSummary() != null) {
            out.printf(
                    Locale.ROOT,
                    "  soak      : %s samples, series in %s%n",
                    r.sections().soakSamples(),
                    r.sections().soakSeriesFiles());
        }
        for (String failure : r.failures()) {
            out.println("  FAILED    : " + failure);
        }
        out.println("  report    : " + json.toAbsolutePath());
    }

    /** Prints a section as {@code name: {field=value, ...}}, its JSON fields in order. */
    private static void printSection(PrintStream out, String name, Object section) {
        if (section != null) {
            out.printf(Locale.ROOT, "  %-10s: %s%n", name, ReportJson.convert(section, Map.class));
        }
    }
}
