package dev.rtmstreams.reliability.internals;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Every poison record lands in the dead-letter topic with its error and source headers, and no good record is lost or
 * duplicated (poison: zero duplicates required).
 */
final class PoisonChecker implements Checker {

    private final Supplier<ChaosReport.PoisonFigures> figures;

    /** @param figures the poison records sent and dead-lettered, known after the load */
    PoisonChecker(Supplier<ChaosReport.PoisonFigures> figures) {
        this.figures = Objects.requireNonNull(figures, "figures");
    }

    @Override
    public boolean requiresZeroDuplicates() {
        return true;
    }

    @Override
    public void check(RunContext run, Optional<InjectedFault> fault, Findings findings) {
        judge(figures.get(), findings);
    }

    /**
     * The verdict on what was observed: records {@code poison}; fails when a poison record the broker acknowledged
     * never reached the dead-letter topic, or reached it without its headers.
     *
     * @param observed the poison figures
     * @param findings where the section and failures go
     */
    static void judge(ChaosReport.PoisonFigures observed, Findings findings) {
        findings.poison(observed);
        if (observed.poisonMissingFromDlq() > 0) {
            findings.fail(observed.poisonMissingFromDlq() + " poison records never reached the dead-letter topic");
        }
        if (observed.dlqRecordsWithoutErrorHeaders() > 0) {
            findings.fail(
                    observed.dlqRecordsWithoutErrorHeaders() + " dead-lettered records lack error/source headers");
        }
    }
}
