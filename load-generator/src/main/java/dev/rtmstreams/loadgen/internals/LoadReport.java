package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rtmstreams.adattribution.workload.RunReport;
import java.util.Objects;

/**
 * The load generator's report of one run ({@code report-<mode>.json}, one element of {@code bench.json}): the run's
 * {@link RunReport}, whose keys it writes at the top level, then what the command adds about the setting and the cost.
 * Every addition is null when the command does not add it, and then absent from the JSON.
 *
 * <pre>{@code
 * LoadReport r = LoadReport.of(LoadRun.execute(events, rate, settings)).withWorkload(description);
 * ReportJson.write(dir.resolve("report-real-time.json"), r);
 * }</pre>
 *
 * @param run the run's report; not null
 * @param systemUnderTest what ran (the bench's description of the mode)
 * @param workload what was sent
 * @param environment the machine and the bench's setup
 * @param applicationId the service's application id (a run that started the service)
 * @param replay the replayed file and speed (the replay command)
 * @param cost the cost of the measured window
 * @param instances the service instances' CPU and assignment (a run that started the service)
 * @param p99RatioToEcho p99 latency over the echo floor's at the same rate in the same bench
 * @param findMaxProbe the verdict of a find-max probe
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadReport(
        @JsonUnwrapped RunReport run,
        String systemUnderTest,
        RunDescriptions.WorkloadDescription workload,
        RunDescriptions.Environment environment,
        String applicationId,
        Replay replay,
        CostMeter.Cost cost,
        GroupAssignment.Section instances,
        Double p99RatioToEcho,
        Probe findMaxProbe) {

    /** Checks the run. */
    public LoadReport {
        Objects.requireNonNull(run, "run");
    }

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
     * Returns a run's report with nothing added.
     *
     * @param run the run's report; not null
     * @return the load generator's report of it
     */
    public static LoadReport of(RunReport run) {
        return new LoadReport(run, null, null, null, null, null, null, null, null, null);
    }

    /** @return the run's label ({@link RunReport#mode()}) */
    public String mode() {
        return run.mode();
    }

    /**
     * @param label the new mode label
     * @return a copy whose run carries {@code label}
     */
    public LoadReport withMode(String label) {
        return new LoadReport(
                run.withMode(label),
                systemUnderTest,
                workload,
                environment,
                applicationId,
                replay,
                cost,
                instances,
                p99RatioToEcho,
                findMaxProbe);
    }

    /**
     * @param description what ran, the workload and the setup
     * @param sent the workload
     * @param setup the machine and setup
     * @return a copy with those three
     */
    public LoadReport withSetting(
            String description, RunDescriptions.WorkloadDescription sent, RunDescriptions.Environment setup) {
        return new LoadReport(
                run, description, sent, setup, applicationId, replay, cost, instances, p99RatioToEcho, findMaxProbe);
    }

    /**
     * @param sent the workload
     * @param appId the service's application id, or null
     * @param replayed the replayed file, or null
     * @return a copy with those
     */
    public LoadReport withWorkload(RunDescriptions.WorkloadDescription sent, String appId, Replay replayed) {
        return new LoadReport(
                run,
                systemUnderTest,
                sent,
                environment,
                appId,
                replayed,
                cost,
                instances,
                p99RatioToEcho,
                findMaxProbe);
    }

    /**
     * @param measured the cost of the measured window
     * @param group the service instances' section, or null
     * @return a copy with those
     */
    public LoadReport withCost(CostMeter.Cost measured, GroupAssignment.Section group) {
        return new LoadReport(
                run,
                systemUnderTest,
                workload,
                environment,
                applicationId,
                replay,
                measured,
                group,
                p99RatioToEcho,
                findMaxProbe);
    }

    /**
     * @param ratio p99 over the echo floor's, or null
     * @return a copy with it
     */
    public LoadReport withP99RatioToEcho(Double ratio) {
        return new LoadReport(
                run,
                systemUnderTest,
                workload,
                environment,
                applicationId,
                replay,
                cost,
                instances,
                ratio,
                findMaxProbe);
    }

    /**
     * @param probe the verdict of a find-max probe
     * @return a copy with it
     */
    public LoadReport withProbe(Probe probe) {
        return new LoadReport(
                run,
                systemUnderTest,
                workload,
                environment,
                applicationId,
                replay,
                cost,
                instances,
                p99RatioToEcho,
                probe);
    }
}
