package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.tools.ReportJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * End-to-end latency before and during an event, from the load run's per-second series ({@link RunReport#perSecond()}:
 * per second of the load its outputs, p99 and max in ms). The p99 of a window is bounded by the largest per-second p99
 * in it (at most 1% of each second's outputs are above that second's p99, so at most 1% of the window's are above the
 * largest), so the report gives that bound for both windows: the same estimator before and during.
 */
final class LatencyWindows {

    private LatencyWindows() {}

    /**
     * The per-second series of a load run's report ({@code per_second}; the other keys are ignored).
     *
     * @param perSecond the series; null when the report has none
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Series(@JsonProperty("per_second") List<RunReport.Second> perSecond) {}

    /**
     * Reads the per-second series of a load run's report.
     *
     * @param report {@code report-<mode>.json}
     * @return its series, or null when it has none
     * @throws IOException when the file cannot be read or is not such a report
     */
    static List<RunReport.Second> read(Path report) throws IOException {
        return ReportJson.read(report, Series.class).perSecond();
    }

    /**
     * The largest value of a per-second figure over the seconds {@code [fromS, toS)} that had outputs.
     *
     * @param perSecond the series, or null
     * @param field the figure, e.g. {@code RunReport.Second::p99}
     * @param fromS first second, inclusive
     * @param toS last second, exclusive
     * @return the largest value, or -1 when no second of the window had outputs
     */
    static double max(
            List<RunReport.Second> perSecond, ToDoubleFunction<RunReport.Second> field, long fromS, long toS) {
        double out = -1;
        if (perSecond == null) {
            return out;
        }
        for (RunReport.Second s : perSecond) {
            if (s.t() >= fromS && s.t() < toS && s.outputs() > 0) {
                out = Math.max(out, field.applyAsDouble(s));
            }
        }
        return out;
    }
}
