package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rtmstreams.adattribution.workload.RunReport;
import java.util.Objects;

/**
 * The load generator's report of one run ({@code report-<mode>.json}, one element of {@code bench.json}): the run's
 * {@link RunReport} and the {@link Setting}, whose keys it writes at the top level, then the cost and what the bench
 * adds. Every addition is null when the command does not add it, and then absent from the JSON.
 *
 * <pre>{@code
 * LoadReport r = LoadReport.of(LoadRun.execute(events, rate, settings), new LoadReport.Setting(null, workload, null,
 *         null, null), null, null);
 * ReportJson.write(dir.resolve("report-real-time.json"), r);
 * }</pre>
 *
 * @param run the run's report; not null
 * @param setting what ran, on what, with which workload; null for none
 * @param cost the cost of the measured window
 * @param instances the service instances' CPU and assignment (a run that started the service)
 * @param p99RatioToEcho p99 latency over the echo floor's at the same rate in the same bench
 * @param findMaxProbe the verdict of a find-max probe
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadReport(
        @JsonUnwrapped RunReport run,
        @JsonUnwrapped Setting setting,
        CostMeter.Cost cost,
        GroupAssignment.Section instances,
        Double p99RatioToEcho,
        Probe findMaxProbe) {

    /** Checks the run. */
    public LoadReport {
        Objects.requireNonNull(run, "run");
    }

    /**
     * What a report says about the setting of its run; each part is null when the command does not know it.
     *
     * @param systemUnderTest what ran (the bench's description of the mode)
     * @param workload what was sent
     * @param environment the machine and the bench's setup
     * @param applicationId the service's application id (a run that started the service)
     * @param replay the replayed file and speed (the replay command)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Setting(
            String systemUnderTest,
            RunDescriptions.WorkloadDescription workload,
            RunDescriptions.Environment environment,
            String applicationId,
            Replay replay) {}

    /**
     * The replayed file.
     *
     * @param file its path as given
     * @param speed the replay's speed factor
     */
    public record Replay(String file, double speed) {}

    /**
     * The verdict of a find-max probe on this run.
     *
     * @param pass whether the rate was sustained
     * @param reason why not, or what held
     */
    public record Probe(boolean pass, String reason) {}

    /**
     * Returns a run's report with its setting and cost.
     *
     * @param run the run's report; not null
     * @param setting the setting, or null
     * @param cost the cost of the measured window, or null
     * @param instances the service instances' section, or null
     * @return the load generator's report of it
     */
    public static LoadReport of(
            RunReport run, Setting setting, CostMeter.Cost cost, GroupAssignment.Section instances) {
        return new LoadReport(run, setting, cost, instances, null, null);
    }

    /** @return the run's label ({@link RunReport#mode()}) */
    public String mode() {
        return run.mode();
    }

    /** @return what ran; null when not said */
    public String systemUnderTest() {
        return setting == null ? null : setting.systemUnderTest();
    }

    /**
     * @param label the new mode label
     * @return a copy whose run carries {@code label}
     */
    public LoadReport withMode(String label) {
        return new LoadReport(run.withMode(label), setting, cost, instances, p99RatioToEcho, findMaxProbe);
    }

    /**
     * @param ratio p99 over the echo floor's, or null
     * @return a copy with it
     */
    public LoadReport withP99RatioToEcho(Double ratio) {
        return new LoadReport(run, setting, cost, instances, ratio, findMaxProbe);
    }

    /**
     * @param probe the verdict of a find-max probe
     * @return a copy with it
     */
    public LoadReport withProbe(Probe probe) {
        return new LoadReport(run, setting, cost, instances, p99RatioToEcho, probe);
    }
}
