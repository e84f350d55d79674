package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rtmstreams.tools.ReportJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The load run's report as the chaos runner reads it ({@code report-<scenario>.json} of the load generator's
 * {@code run}): the oracle's figures. Fields the load run did not write are null (and written as null).
 *
 * @param eventsSent input events sent
 * @param achievedRate events per second achieved
 * @param keptUp whether the generator kept up with the target rate
 * @param sendErrors input records that could not be sent
 * @param expected outputs the oracle expects
 * @param observed outputs observed
 * @param matched observed outputs matching an expected one
 * @param missing expected outputs never observed
 * @param duplicates extra copies of expected outputs
 * @param unexpected outputs the oracle did not expect
 * @param mismatched outputs whose content differs from the expected
 * @param drainMs from the last send until the outputs were complete (or the drain timed out)
 * @param latencyMs latency percentiles (the load generator's layout, copied as is)
 * @param samples samples of missing, unexpected and duplicated outputs (copied as is)
 * @param reportFile the load run's report file
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LoadOracle(
        @JsonProperty("events_sent") Long eventsSent,
        @JsonProperty("achieved_rate") Double achievedRate,
        @JsonProperty("kept_up") Boolean keptUp,
        @JsonProperty("send_errors") Long sendErrors,
        @JsonProperty("expected") Long expected,
        @JsonProperty("observed") Long observed,
        @JsonProperty("matched") Long matched,
        @JsonProperty("missing") Long missing,
        @JsonProperty("duplicates") Long duplicates,
        @JsonProperty("unexpected") Long unexpected,
        @JsonProperty("mismatched") Long mismatched,
        @JsonProperty("drain_ms") Long drainMs,
        @JsonProperty("latency_ms") JsonNode latencyMs,
        @JsonProperty("samples") JsonNode samples,
        @JsonProperty("report_file") String reportFile) {

    /**
     * Reads a load run's report.
     *
     * @param file {@code report-<mode>.json}
     * @return its figures, with {@link #reportFile()} set to the file
     * @throws IOException when it cannot be read
     */
    public static LoadOracle read(Path file) throws IOException {
        LoadOracle o = ReportJson.read(file, LoadOracle.class);
        return new LoadOracle(
                o.eventsSent,
                o.achievedRate,
                o.keptUp,
                o.sendErrors,
                o.expected,
                o.observed,
                o.matched,
                o.missing,
                o.duplicates,
                o.unexpected,
                o.mismatched,
                o.drainMs,
                o.latencyMs,
                o.samples,
                file.toString());
    }

    /**
     * The common check of every scenario: no expected output missing, none unexpected, no duplicate when the
     * scenario promises none, and every input sent.
     *
     * @param zeroDuplicatesRequired whether duplicates fail the run
     * @return the failures, in that order; empty when the oracle passes
     */
    public List<String> failures(boolean zeroDuplicatesRequired) {
        List<String> out = new ArrayList<>();
        if (count(missing) > 0) {
            out.add(count(missing) + " expected outputs missing (oracle)");
        }
        if (count(unexpected) > 0) {
            out.add(count(unexpected) + " unexpected outputs (oracle)");
        }
        if (zeroDuplicatesRequired && count(duplicates) > 0) {
            out.add(count(duplicates) + " duplicated outputs (oracle)");
        }
        if (count(sendErrors) > 0) {
            out.add(count(sendErrors) + " input records the generator could not send");
        }
        return out;
    }

    private static long count(Long n) {
        return n == null ? 0 : n;
    }
}
