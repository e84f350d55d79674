package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalDouble;

/** What a report says about the setting of its run: the workload, the machine and the bench's setup. */
final class RunDescriptions {

    /** Above this 1-minute load average at bench start, the bench warns that the machine is busy. */
    public static final double BUSY_LOAD = 1.0;

    private RunDescriptions() {}

    /** Reads the 1-minute load average and warns when the machine is busy. */
    static Double loadAtBenchStart() {
        OptionalDouble load = ProcStat.loadAverage1m();
        if (load.isPresent() && load.getAsDouble() > BUSY_LOAD) {
            System.err.printf(
                    Locale.ROOT,
                    "WARNING: the 1-minute load average is %.2f at bench start (above %.1f): "
                            + "other work on this machine distorts latency and cost figures%n",
                    load.getAsDouble(),
                    BUSY_LOAD);
        }
        return load.isPresent() ? load.getAsDouble() : null;
    }

    /** What a report says about its workload: the ad-attribution workload or one of the published row workloads. */
    sealed interface WorkloadDescription permits AttributionWorkload, RowWorkload {}

    /**
     * The ad-attribution workload of a run ({@link WorkloadConfig}); durations as ISO-8601 text.
     *
     * @param seed the generator's seed
     * @param rate events per second; null where each run has its own (a find-max search)
     * @param duration the generated span
     * @param events events generated; null where each run has its own
     * @param idPrefix the prefix of every identity
     * @param clicksPerImpression mean clicks per impression
     * @param requestShare share of clicks that come with a request
     * @param clickDelay the click delay distribution
     * @param outsideWindowFraction clicks outside the attribution window
     * @param edgeFraction clicks at the window's edge
     * @param orphanFraction clicks without an impression
     * @param duplicateFraction duplicated events
     * @param outOfOrderFraction events sent out of order
     * @param lateFraction events sent late
     * @param ackFirstFraction acks sent before their request
     * @param attributionWindow the attribution window
     * @param watermarkDelay the watermark delay
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    record AttributionWorkload(
            Long seed,
            Double rate,
            String duration,
            Long events,
            String idPrefix,
            Double clicksPerImpression,
            Double requestShare,
            String clickDelay,
            Double outsideWindowFraction,
            Double edgeFraction,
            Double orphanFraction,
            Double duplicateFraction,
            Double outOfOrderFraction,
            Double lateFraction,
            Double ackFirstFraction,
            String attributionWindow,
            String watermarkDelay)
            implements WorkloadDescription {

        /** @return this description without the rate and event count (each probe of a search has its own) */
        AttributionWorkload withoutRateAndEvents() {
            return new AttributionWorkload(
                    seed,
                    null,
                    duration,
                    null,
                    idPrefix,
                    clicksPerImpression,
                    requestShare,
                    clickDelay,
                    outsideWindowFraction,
                    edgeFraction,
                    orphanFraction,
                    duplicateFraction,
                    outOfOrderFraction,
                    lateFraction,
                    ackFirstFraction,
                    attributionWindow,
                    watermarkDelay);
        }
    }

    /**
     * A published latency workload of a run ({@link LatencyWorkload}).
     *
     * @param workload its name ({@link BenchWorkload#cliName()})
     * @param seed the generator's seed
     * @param rate rows per second
     * @param rows rows generated
     * @param idPrefix the prefix of every identity
     * @param lookupCardinality the lookup table's size (stream-static join only, else null)
     * @param rowBytes the size of a row's payload (not for the stream-static join, else null)
     * @param duplicateEvery every this many rows one repeats the previous row's group (aggregation only, else null)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record RowWorkload(
            String workload,
            long seed,
            double rate,
            int rows,
            String idPrefix,
            Integer lookupCardinality,
            Integer rowBytes,
            Integer duplicateEvery)
            implements WorkloadDescription {}

    /**
     * The machine and the bench's setup of a mode's run.
     *
     * @param cores available processors
     * @param java the Java version
     * @param benchWorkload the bench workload's name
     * @param broker {@code external <bootstrap>} or the embedded broker's kind
     * @param brokers brokers of the fresh cluster; null (absent) for an external one
     * @param replicationFactor replication factor of the run's topics and of the internal topics of the service and
     *     the peers; null (absent) for an external cluster
     * @param partitions partitions per topic
     * @param instances service instances
     * @param streamThreads stream threads per instance
     * @param peersInChildJvm whether the Kafka Streams peers ran in a child JVM
     * @param warmup the warm-up's length, ISO-8601
     * @param loadAverage {@code /proc/loadavg} at the mode's start; null (absent) off Linux
     * @param loadAverage1mAtBenchStart the 1-minute load average when the bench started, null if unknown
     * @param loadAverage1mAtModeStart the 1-minute load average when the mode started, null if unknown
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Environment(
            int cores,
            String java,
            String benchWorkload,
            String broker,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer brokers,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer replicationFactor,
            int partitions,
            int instances,
            int streamThreads,
            boolean peersInChildJvm,
            String warmup,
            @JsonInclude(JsonInclude.Include.NON_NULL) String loadAverage,
            @JsonProperty("load_average_1m_at_bench_start") Double loadAverage1mAtBenchStart,
            @JsonProperty("load_average_1m_at_mode_start") Double loadAverage1mAtModeStart) {}

    /**
     * The setting of a {@code --find-max} search.
     *
     * @param cores available processors
     * @param java the Java version
     * @param loadAverage1mAtBenchStart the 1-minute load average at the start, null if unknown
     * @param workload the workload without its rate and length (each probe has its own)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record SearchEnvironment(
            int cores,
            String java,
            @JsonProperty("load_average_1m_at_bench_start") Double loadAverage1mAtBenchStart,
            AttributionWorkload workload) {}

    /**
     * Describes the setting of a {@code --find-max} search: the machine, the load at its start and the workload
     * without its rate and length (each probe has its own).
     *
     * @param o the options
     * @param benchLoad the 1-minute load average at the start, or null
     * @return the description
     */
    static SearchEnvironment findMaxEnvironment(BenchOptions o, Double benchLoad) {
        return new SearchEnvironment(
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                benchLoad,
                workloadDescription(o.workload()).withoutRateAndEvents());
    }

    /**
     * Describes a workload for the report.
     *
     * @param w the workload
     * @return its description
     */
    public static AttributionWorkload workloadDescription(WorkloadConfig w) {
        return new AttributionWorkload(
                w.seed(),
                w.rate(),
                w.duration().toString(),
                w.eventCount(),
                w.idPrefix(),
                w.clicksPerImpression(),
                w.requestShare(),
                w.clickDelay().toString(),
                w.outsideWindowFraction(),
                w.edgeFraction(),
                w.orphanFraction(),
                w.duplicateFraction(),
                w.outOfOrderFraction(),
                w.lateFraction(),
                w.ackFirstFraction(),
                w.attributionWindow().toString(),
                w.watermarkDelay().toString());
    }

    /**
     * Describes the machine and setup of a mode's run.
     *
     * @param o the options
     * @param bootstrap the cluster the mode runs against
     * @param benchLoad the 1-minute load average when the bench started, or null
     * @param modeLoad the 1-minute load average when the mode started, or null
     * @return the description
     */
    static Environment environment(BenchOptions o, String bootstrap, Double benchLoad, Double modeLoad) {
        String loadAverage = null;
        try {
            loadAverage = Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            // not on Linux
        }
        return new Environment(
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                o.benchWorkload().cliName(),
                o.bootstrapServers().isPresent()
                        ? "external " + bootstrap
                        : o.broker().name().toLowerCase(Locale.ROOT),
                o.bootstrapServers().isPresent() ? null : o.brokers(),
                o.bootstrapServers().isPresent() ? null : (int) o.replicationFactor(),
                o.partitions(),
                o.instances(),
                o.streamThreads(),
                o.peersInChildJvm(),
                o.warmup().toString(),
                loadAverage,
                benchLoad,
                modeLoad);
    }
}
