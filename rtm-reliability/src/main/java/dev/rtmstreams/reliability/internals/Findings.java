package dev.rtmstreams.reliability.internals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the checks of one run found: the report sections the scenario's {@link Checker} records, the probes' timer due
 * times (written in the report's {@code fault} object) and the failures, in the order found. Each section is recorded
 * at most once.
 */
final class Findings {

    private final List<String> failures = new ArrayList<>();
    private ChaosReport.PoisonFigures poison;
    private Integer soakSamples;
    private Map<String, ChaosReport.SeriesSummary> soakSummary;
    private List<String> soakSeriesFiles;
    private Boolean soakBoundedJudged;
    private ChaosReport.StraddlingMatches straddlingMatches;
    private ChaosReport.PendingTimers pendingTimers;
    private ChaosReport.WipeProbes wipeProbes;
    private ChaosReport.TimersDue timersDue;
    private ChaosReport.GroupChangeFigures groupChange;
    private ChaosReport.BrokerFaultFigures brokerFault;

    /**
     * Records a failure: the run's verdict becomes FAIL.
     *
     * @param failure what went wrong, with the figures
     */
    void fail(String failure) {
        failures.add(failure);
    }

    /** @return the failures so far, in order */
    List<String> failures() {
        return List.copyOf(failures);
    }

    void poison(ChaosReport.PoisonFigures figures) {
        poison = once(poison, figures, "poison");
    }

    void soak(int samples, Map<String, ChaosReport.SeriesSummary> summary, List<String> files, boolean judged) {
        // in the sampler's series order
        soakSummary = once(soakSummary, Collections.unmodifiableMap(new LinkedHashMap<>(summary)), "soak_summary");
        soakSamples = samples;
        soakSeriesFiles = List.copyOf(files);
        soakBoundedJudged = judged;
    }

    void straddlingMatches(ChaosReport.StraddlingMatches m) {
        straddlingMatches = once(straddlingMatches, m, "straddling_matches");
    }

    void pendingTimers(ChaosReport.PendingTimers t) {
        pendingTimers = once(pendingTimers, t, "pending_timers");
    }

    void wipeProbes(ChaosReport.WipeProbes w) {
        wipeProbes = once(wipeProbes, w, "wipe_probes");
    }

    void groupChange(ChaosReport.GroupChangeFigures g) {
        groupChange = once(groupChange, g, "group_change");
    }

    void brokerFault(ChaosReport.BrokerFaultFigures b) {
        brokerFault = once(brokerFault, b, "broker_fault");
    }

    void timersDue(ChaosReport.TimersDue due) {
        timersDue = once(timersDue, due, "timers due");
    }

    /** @return when the probes' timers were due, or null without timer probes */
    ChaosReport.TimersDue timersDue() {
        return timersDue;
    }

    /** @return the recorded sections */
    ChaosReport.Sections sections() {
        return new ChaosReport.Sections(
                poison,
                soakSamples,
                soakSummary,
                soakSeriesFiles,
                soakBoundedJudged,
                straddlingMatches,
                pendingTimers,
                wipeProbes,
                groupChange,
                brokerFault);
    }

    private static <T> T once(T current, T value, String name) {
        if (current != null) {
            throw new IllegalStateException(name + " recorded twice");
        }
        return value;
    }
}
