package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ObservabilityAssetsTest {

    @Test
    void shouldFindTheMetricsOfEveryConcernTheDashboardAndAlertsCover() {
        List<Path> files = ObservabilityAssets.files(ObservabilityAssets.repoRoot());
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("rtm-streams.json", "alerts.yml");

        Set<String> names = ObservabilityAssets.metricNames(files);

        assertThat(names)
                .contains(
                        "rtm_e2e_latency_ms", // end-to-end p99
                        "adattribution_dlq_records_total", // DLQ rate
                        "adattribution_late_records_total", // late records
                        "kafka_streams_consumer_fetch_manager_metrics_records_lag_max", // consumer lag
                        "adattribution_slot_busy_fraction", // slot busy fraction
                        "kafka_streams_stream_state_metrics_total_sst_files_size"); // state size
    }

    @Test
    void shouldReportANameWithoutSamplesAsMissing() {
        String scrape = "# HELP rtm_busy_fraction busy\n# TYPE rtm_busy_fraction gauge\n"
                + "rtm_busy_fraction{thread_id=\"t1\"} 0.5\nadattribution_up 1\n";

        assertThat(ObservabilityAssets.missing(
                        Set.of("rtm_busy_fraction", "adattribution_up", "adattribution_up_total", "rtm_busy"), scrape))
                .containsExactly("adattribution_up_total", "rtm_busy");
    }
}
