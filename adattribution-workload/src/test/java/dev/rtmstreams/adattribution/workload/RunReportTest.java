package dev.rtmstreams.adattribution.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.tools.LatencySummary;
import dev.rtmstreams.tools.ReportJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunReportTest {

    private static RunReport report(RunReport.Sending sending, Map<String, Long> oracleCounters, String error) {
        return new RunReport(
                "real-time",
                1000.0,
                999.5,
                sending,
                new RunReport.Counts(900, 901, 899, 1, 2, 0, 0, 0, 3),
                oracleCounters,
                120,
                new LatencySummary(5.0, 9.0, 11.0, 25.0, 30.0, 41.25, 6.0, 899),
                List.of(new RunReport.Point(50, 5.0), new RunReport.Point(99, 25.0)),
                List.of(new RunReport.Second(0, 1000, 899, 5.0, 25.0, 41.25)),
                new RunReport.Samples(List.of("click-7"), List.of(), List.of("click-9")),
                error);
    }

    private static List<String> keys(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void shouldWriteSendingCountsAndOracleCountersAtTheTopLevelInOrderWhenWrittenAsJson() throws Exception {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("late_inputs_dropped_by_oracle", 4L);
        counters.put("duplicate_inputs_dropped_by_oracle", 5L);
        RunReport r = report(new RunReport.Sending(1000, 0, true, 1.5, null, null, null), counters, null);

        JsonNode json = new ObjectMapper().readTree(ReportJson.toJson(r));

        assertThat(keys(json))
                .containsExactly(
                        "mode",
                        "target_rate",
                        "achieved_rate",
                        "events_sent",
                        "send_errors",
                        "kept_up",
                        "max_send_lag_ms",
                        "expected",
                        "observed",
                        "matched",
                        "missing",
                        "duplicates",
                        "unexpected",
                        "mismatched",
                        "undecodable",
                        "foreign_outputs_ignored",
                        "late_inputs_dropped_by_oracle",
                        "duplicate_inputs_dropped_by_oracle",
                        "drain_ms",
                        "latency_ms",
                        "latency_percentiles",
                        "per_second",
                        "samples");
        assertThat(json.get("late_inputs_dropped_by_oracle").asLong()).isEqualTo(4L);
        assertThat(json.get("foreign_outputs_ignored").asLong()).isEqualTo(3L);
        assertThat(json.get("latency_ms").get("p999").asDouble()).isEqualTo(30.0);
        assertThat(json.get("latency_percentiles").get(1).get("ms").asDouble()).isEqualTo(25.0);
        assertThat(keys(json.get("per_second").get(0))).containsExactly("t", "sent", "outputs", "p50", "p99", "max");
        assertThat(json.get("samples").get("missing").get(0).asText()).isEqualTo("click-7");
    }

    @Test
    void shouldWriteTheWarmUpAndTheFirstSendErrorOnlyWhenThereAreSome() throws Exception {
        RunReport r = report(new RunReport.Sending(1000, 2, false, 80.0, 500L, true, 2.0), Map.of(), "boom");

        JsonNode json = new ObjectMapper().readTree(ReportJson.toJson(r));

        assertThat(json.get("warmup_events_sent").asLong()).isEqualTo(500L);
        assertThat(json.get("warmup_kept_up").asBoolean()).isTrue();
        assertThat(json.get("warmup_max_send_lag_ms").asDouble()).isEqualTo(2.0);
        assertThat(json.get("first_send_error").asText()).isEqualTo("boom");
        assertThat(json.get("kept_up").asBoolean()).isFalse();
    }

    @Test
    void shouldKeepEverythingButTheLabelWhenRelabelled() {
        RunReport r = report(new RunReport.Sending(1000, 0, true, 1.5, null, null, null), Map.of(), null);

        RunReport relabelled = r.withMode("real-time@1000");

        assertThat(relabelled.mode()).isEqualTo("real-time@1000");
        assertThat(relabelled.withMode("real-time")).isEqualTo(r);
        assertThat(r.counts().clean()).isFalse();
        assertThat(new RunReport.Counts(5, 5, 5, 0, 0, 0, 0, 0, 7).clean()).isTrue();
    }
}
